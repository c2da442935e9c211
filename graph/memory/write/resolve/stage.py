"""Resolution stage, orchestration: gather every name of a message, fetch candidates in one read,
decide with :func:`resolve_entity`, ask the LLM once for the ambiguous ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor
from graph.memory.text import entity_key, fold
from graph.memory.write.config import WriteConfig
from graph.memory.write.extract.mentions import RELATIONSHIP_TERMS, Mention, strip_hint
from graph.memory.write.llm import LLMSession
from graph.memory.write.resolve.candidates import load_entity_candidates
from graph.memory.write.resolve.decisions import (
    SPEAKER_PRONOUNS,
    Candidate,
    Resolution,
    resolve_entity,
    speaker_key,
)
from graph.memory.write.resolve.llm import disambiguate

__all__ = [
    "EntityInfo",
    "KnownEntities",
    "Resolved",
    "ambiguous_to_ask",
    "apply_choices",
    "first_resolutions",
    "known_entities",
    "resolve_mentions",
    "resolved_entities",
]


@dataclass
class EntityInfo:
    key: str
    name: str
    type: str
    is_new: bool
    surfaces: list[str] = field(default_factory=list)
    embedding: list[float] | None = None
    profile_text: str | None = None


@dataclass
class Resolved:
    """The entities of a message by key, and the key of each name the extraction used."""

    entities: dict[str, EntityInfo]
    name_map: dict[str, str]
    report: list[dict[str, Any]]

    def key_of(self, name: str, speaker: str) -> str:
        """The key of a name of the extraction, as it was resolved. A name may carry the
        hint its mention was resolved without ("Carol (Rafael's girlfriend)" → Carol); a name
        that resolved to nothing (say, only punctuation) falls back to the speaker, who is
        always an entity of the plan."""
        for candidate in (name, strip_hint(name)[0]):
            key = self.name_map.get(fold(candidate))
            if key is not None:
                return key
        return self.name_map[fold(speaker)]


def _by_rule(name: str, speaker: str) -> bool:
    """Pronouns, the speaker's name and bare relationship terms resolve by rule (no fuzzy)."""
    f = fold(name)
    return f in SPEAKER_PRONOUNS or f in RELATIONSHIP_TERMS or f == fold(speaker)


@dataclass
class KnownEntities:
    """What the candidate read found for the names of a message."""

    alias_map: dict[str, str]  # folded alias → entity key
    existing: dict[str, tuple[str, str]]  # key → (name, type) of a live entity
    redirect: dict[str, str]  # key of a merged entity → the key it was merged into
    near: dict[int, list[Candidate]]  # mention index → its fuzzy candidates, most similar first


def known_entities(
    alias_rows: list[dict[str, Any]],
    key_rows: list[dict[str, Any]],
    near_rows: list[dict[str, Any]],
) -> KnownEntities:
    """The rows of ``load_entity_candidates`` → lookups by alias, key and mention."""
    alias_map = {row["norm"]: row["key"] for row in alias_rows}
    existing: dict[str, tuple[str, str]] = {
        row["key"]: (row["name"], row["type"]) for row in alias_rows
    }
    redirect: dict[str, str] = {}
    for row in key_rows:
        if row["merged_into"]:
            redirect[row["key"]] = row["merged_into"]
        else:
            existing[row["key"]] = (row["name"], row["type"])
    near: dict[int, list[Candidate]] = {}
    for row in near_rows:
        near.setdefault(row["index"], []).append(
            Candidate(row["key"], row["name"], row["type"], float(row["similarity"]))
        )
    for cands in near.values():
        cands.sort(key=lambda c: -c.similarity)
    return KnownEntities(alias_map, existing, redirect, near)


def first_resolutions(
    mentions: list[Mention],
    speaker: str,
    known: KnownEntities,
    cfg: WriteConfig,
    embeddings_available: bool,
) -> list[Resolution]:
    """Each mention's resolution by its aliases, then by :func:`resolve_entity` (exact names,
    then the fuzzy bands); ambiguous ones are settled afterwards."""
    alias_map = known.alias_map
    resolutions: list[Resolution] = []
    for i, m in enumerate(mentions):
        alias_hit = next((alias_map[fold(a)] for a in m.aliases if fold(a) in alias_map), None)
        if alias_hit and fold(m.surface) not in alias_map and not _by_rule(m.surface, speaker):
            kind = known.existing.get(alias_hit, ("", m.type))[1]
            resolutions.append(Resolution(m.surface, alias_hit, kind, "alias"))
            continue
        res = resolve_entity(
            m.surface,
            m.type,
            speaker,
            alias_map,
            known.existing,
            [] if m.type in cfg.exact_entity_types else known.near.get(i, []),
            fuzzy_threshold=cfg.fuzzy_threshold,
            low_threshold=cfg.fuzzy_low_threshold,
            min_prefix=cfg.min_prefix_chars,
            embeddings_available=embeddings_available,
        )
        res.key = known.redirect.get(res.key, res.key)
        resolutions.append(res)
    return resolutions


def _as_new(r: Resolution) -> Resolution:
    return Resolution(r.name, r.key, r.type, "new", is_new=True, similarity=r.similarity)


def ambiguous_to_ask(
    resolutions: list[Resolution], shown: set[str] | None, cfg: WriteConfig
) -> list[tuple[int, Resolution]]:
    """The ambiguous resolutions the LLM should decide. After an informed extraction
    (``shown`` not None) the others become new entities in ``resolutions``: the model was
    asked to use a known name exactly."""
    ambiguous = [(i, r) for i, r in enumerate(resolutions) if r.method == "ambiguous"]
    if shown is None:
        return ambiguous
    ask = {
        i
        for i, r in ambiguous
        if cfg.llm_calls_for_unseen and any(c.key not in shown for c in r.ambiguous)
    }
    for i, r in ambiguous:
        if i not in ask:
            resolutions[i] = _as_new(r)
    return [(i, r) for i, r in ambiguous if i in ask]


def apply_choices(
    resolutions: list[Resolution],
    ambiguous: list[tuple[int, Resolution]],
    choices: dict[int, str | None],
    known: KnownEntities,
) -> None:
    """The LLM's choice for each ambiguous name (a candidate's key), or a new entity."""
    for i, r in ambiguous:
        chosen = choices.get(i)
        if chosen:
            cand = next(c for c in r.ambiguous if c.key == chosen)
            resolutions[i] = Resolution(r.name, cand.key, cand.type, "llm", similarity=r.similarity)
            known.existing[cand.key] = (cand.name, cand.type)
        else:
            resolutions[i] = _as_new(r)


def resolved_entities(
    mentions: list[Mention],
    resolutions: list[Resolution],
    existing: dict[str, tuple[str, str]],
    speaker: str,
    vectors: dict[str, list[float]],
    profiles: dict[str, str] | None,
) -> Resolved:
    """The entities by key, the key of every name (the speaker's included) and the report."""
    entities: dict[str, EntityInfo] = {}
    name_map: dict[str, str] = {}
    report: list[dict[str, Any]] = []
    skey = speaker_key(speaker)
    for m, r in zip(mentions, resolutions, strict=True):
        known = existing.get(r.key)
        is_new = known is None and r.key != skey
        info = _entity_of(entities, m, r, known, is_new, speaker, vectors)
        for t in (m.surface, *m.aliases):
            name_map.setdefault(fold(t), r.key)
        report.append(
            {
                "name": m.surface,
                "key": r.key,
                "type": info.type,
                "method": r.method,
                "is_new": is_new,
                "similarity": r.similarity,
            }
        )
    name_map.setdefault(fold(speaker), skey)
    # Names that resolve to nothing fall back to the speaker (the pipeline's ``key_of``), so
    # the speaker is always an entity of the plan, mentioned in the text or not.
    entities.setdefault(
        skey, EntityInfo(skey, speaker, "person", False, [speaker], vectors.get(speaker))
    )
    # Seed profiles (English, from informed extraction); the upsert never overwrites one.
    for name, profile in (profiles or {}).items():
        key = name_map.get(fold(name))
        if key in entities and profile:
            entities[key].profile_text = profile
    return Resolved(entities, name_map, report)


def _entity_of(
    entities: dict[str, EntityInfo],
    m: Mention,
    r: Resolution,
    known: tuple[str, str] | None,
    is_new: bool,
    speaker: str,
    vectors: dict[str, list[float]],
) -> EntityInfo:
    """The entity a mention resolved to, added to ``entities`` on its first mention."""
    skey = speaker_key(speaker)
    if r.key == skey:
        return entities.setdefault(
            skey, EntityInfo(skey, speaker, "person", False, [speaker], vectors.get(speaker))
        )
    if r.method == "relationship_term":  # "Mom" → "Rafael's mom"; "mom" is no alias
        return entities.setdefault(
            r.key,
            EntityInfo(
                r.key,
                known[0] if known else r.name,
                "person",
                is_new,
                [r.name],
                vectors.get(m.surface),
            ),
        )
    info = entities.setdefault(
        r.key,
        EntityInfo(
            r.key,
            known[0] if known else m.surface,
            known[1] if known else r.type,
            is_new,
            [],
            vectors.get(m.surface),
        ),
    )
    info.surfaces += [m.surface, *m.aliases]
    return info


async def resolve_mentions(
    executor: Executor,
    agent_id: str,
    mentions: list[Mention],
    speaker: str,
    vectors: dict[str, list[float]],
    cfg: WriteConfig,
    session: LLMSession | None,
    message: str,
    embeddings_available: bool = True,
    profiles: dict[str, str] | None = None,
    shown: set[str] | None = None,
) -> Resolved:
    """Resolve every mention to an entity key (see :mod:`resolve` for the rules).

    ``shown``: keys of the known entities the informed extraction saw (None: no informed
    answer). An ambiguous name then resolves without a second LLM call: the model was asked to
    use a known name exactly, so a name it chose differently is a new entity — unless
    ``cfg.llm_calls_for_unseen`` is set and a candidate was NOT shown to it (then the
    ``resolve_entities`` call decides those names)."""
    norms = sorted({fold(t) for m in mentions for t in (m.surface, *m.aliases) if fold(t)})
    keys = sorted({entity_key(m.surface, m.type) for m in mentions})
    rows = [
        {"index": i, "norm": fold(m.surface), "embedding": vectors[m.surface]}
        for i, m in enumerate(mentions)
        if not _by_rule(m.surface, speaker) and m.surface in vectors
    ]
    known = known_entities(
        *await load_entity_candidates(
            executor, agent_id, norms, keys, rows, 3, cfg.fuzzy_low_threshold, cfg.scan
        )
    )
    resolutions = first_resolutions(mentions, speaker, known, cfg, embeddings_available)
    ambiguous = ambiguous_to_ask(resolutions, shown, cfg)
    choices: dict[int, str | None] = {}
    if ambiguous and session is not None and cfg.enable_llm_resolution:
        items = [
            {
                "index": i,
                "name": r.name,
                "type": r.type,
                "candidates": [{"key": c.key, "name": c.name, "type": c.type} for c in r.ambiguous],
            }
            for i, r in ambiguous
        ]
        choices = await disambiguate(session, message, items, cfg.resolution_timeout_s)
    apply_choices(resolutions, ambiguous, choices, known)
    return resolved_entities(mentions, resolutions, known.existing, speaker, vectors, profiles)
