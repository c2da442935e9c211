"""Write pipeline, the extraction stage: the offline (spaCy) or LLM extraction of a message,
normalised, with the vectors of its facts and names (one embedder call)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from graph.memory.ontology.model import Ontology
from graph.memory.write.config import WriteConfig
from graph.memory.write.extract.conform import conform
from graph.memory.write.extract.extraction import Extraction, KnownContext, normalize_extraction
from graph.memory.write.extract.llm import blind_extraction, informed_extraction
from graph.memory.write.extract.mentions import Mention, collect_mentions
from graph.memory.write.extract.offline import extract_offline
from graph.memory.write.llm import CallFailed, LLMSession
from graph.memory.write.models import WriteResult
from graph.memory.write.trace import WriteRun, last_items
from graph.providers import Embedder

__all__ = ["Prepared", "conform_prepared", "extract_with_llm", "prepare", "prepare_offline"]


@dataclass
class Prepared:
    """An extraction, normalised, with its names and the vectors of its facts and names, and
    of the facts' English glosses (gloss text → vector)."""

    ex: Extraction
    ments: list[Mention]
    texts: list[str]
    vecs: list[list[float]]
    glosses: dict[str, list[float]] = field(default_factory=dict)


async def prepare(ex: Extraction, speaker: str, embedder: Embedder) -> Prepared:
    """Normalise the extraction and embed its facts, names and glosses (one embedder call)."""
    ex = normalize_extraction(ex, speaker)
    ments = collect_mentions(ex)
    texts = [f.text for f in ex.facts] + [m.surface for m in ments] + [speaker]
    glosses = list(dict.fromkeys(f.gloss for f in ex.facts if f.gloss))
    vecs = await embedder.embed(texts + glosses)
    return Prepared(
        ex, ments, texts, vecs[: len(texts)], dict(zip(glosses, vecs[len(texts) :], strict=True))
    )


async def conform_prepared(
    prep: Prepared, ontology: Ontology, speaker: str, embedder: Embedder, warnings: list[str]
) -> Prepared:
    """The prepared extraction under the agent's ontology (``conform``). Its names are the
    same names, maybe fewer and in another order: their vectors are reused, not recomputed."""
    if ontology.scope == "builtin":
        return prep
    ex = conform(prep.ex, ontology, warnings)
    ments = collect_mentions(ex)
    texts = [f.text for f in ex.facts] + [m.surface for m in ments] + [speaker]
    known = dict(zip(prep.texts, prep.vecs, strict=True))
    missing = [t for t in texts if t not in known]
    if missing:
        known.update(zip(missing, await embedder.embed(missing), strict=True))
    return Prepared(ex, ments, texts, [known[t] for t in texts], prep.glosses)


async def prepare_offline(
    text: str, speaker: str, recent: list[str], cfg: WriteConfig, embedder: Embedder
) -> Prepared:
    """The offline extraction (spaCy, in a thread), prepared. It needs nothing from the
    database, so it runs while the message is embedded and its event logged."""
    ex = await extract_offline(text, speaker, recent, noun_phrases=cfg.offline_noun_phrase_ends)
    return await prepare(ex, speaker, embedder)


async def extract_with_llm(
    text: str,
    speaker: str,
    recent: list[str],
    occurred: datetime,
    known: KnownContext,
    cfg: WriteConfig,
    session: LLMSession,
    run: WriteRun,
    result: WriteResult,
) -> Extraction | None:
    """The informed extraction (the known names and facts in the prompt), the blind one as
    the fallback. None when nothing usable came back (``result`` then says why)."""
    caps = {
        "max_facts": cfg.max_facts,
        "max_entities": cfg.max_entities,
        "min_chars": cfg.min_fact_chars,
        "max_chars": cfg.max_fact_chars,
    }
    recent = last_items(recent, cfg.recent_messages_max)
    ex: Extraction | None = None
    try:
        if cfg.enable_informed_extraction:
            ex = await informed_extraction(
                session, text, speaker, occurred, recent, known, caps, cfg.extraction_timeout_s
            )
        if ex is None:
            ex, retried = await blind_extraction(
                session, text, speaker, occurred, recent, caps, cfg.extraction_timeout_s
            )
            run.step("fallback_extraction", relation_retry_triggered=retried)
    except CallFailed:
        # The endpoint is down: no point piling up more calls. The event is kept (and
        # stays :PendingExtraction, so the orphan sweep extracts it later).
        run.warnings.append("LLM unavailable: message kept as an event, nothing extracted")
        result.success = False
        result.error = (
            "LLM unavailable: nothing was extracted; the message is kept and "
            "will be extracted again later"
        )
        return None
    if ex is None:
        result.success = False
        result.error = (
            "extraction failed: the model returned no usable JSON (the message is kept as an event)"
        )
    return ex
