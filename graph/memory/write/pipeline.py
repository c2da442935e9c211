"""The write pipeline (docs/architecture.md): message → event → extraction → resolution →
reconciliation → one write transaction. Stages are small functions; this module wires them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput, FencedOut, WriteInProgress
from graph.executor import Executor, Transaction
from graph.memory.spaces import embedder_name
from graph.memory.text import (
    clean_text,
    content_hash,
    event_embedding_text,
    fold,
    idempotency_digest,
    join_parts,
    normalize,
    word_ngrams,
)
from graph.memory.write.commit_stage import account, copy_into, decide_and_commit, save_receipt
from graph.memory.write.config import WriteConfig, apply_overrides
from graph.memory.write.entities import Mention, collect_mentions, resolve_mentions
from graph.memory.write.extraction import (
    ExtractedFact,
    Extraction,
    KnownContext,
    known_context,
    normalize_extraction,
    semantic_dedup,
)
from graph.memory.write.failed import mark_failed
from graph.memory.write.guard import (
    MAX_THREAD_ID_CHARS,
    guard_message,
    redact_context,
    redact_text,
    scan_pii,
    stored_label,
)
from graph.memory.write.llm_stages import (
    CallFailed,
    LLMSession,
    blind_extraction,
    informed_extraction,
)
from graph.memory.write.models import WriteResult
from graph.memory.write.offline import extract_offline
from graph.memory.write.planning import (
    FactItem,
    RelationItem,
    find_evidence,
    mentions,
)
from graph.memory.write.reads import load_context
from graph.memory.write.reconcile import (
    FactDecision,
)
from graph.memory.write.store import (
    AlreadyExtracted,
    Fence,
    WriteConflict,
    log_event,
)
from graph.memory.write.trace import WriteRun, last_items
from graph.providers import ChatLLM, Embedder

__all__ = ["WritePipeline"]

log = logging.getLogger(__name__)

# Keyed writes store their event under an id derived from the key, so a retry (after a crash
# or an expired claim) finds the event it logged before instead of logging a second one.
_EVENT_NS = uuid.UUID("8b1d6a52-3c7e-4f0a-9d2b-6e5f4a3c2b10")
# Decide-again rounds when the commit's re-check finds a concurrent write (WriteConflict).
CONFLICT_RETRIES = 3


class WritePipeline:
    """``await WritePipeline(executor, embedder, llm).write(agent_id, message, speaker)``.

    ``llm=None`` selects the offline path (spaCy extraction, rule-based reconciliation).
    """

    def __init__(
        self,
        executor: Executor,
        embedder: Embedder,
        llm: ChatLLM | None,
        config: WriteConfig | None = None,
    ) -> None:
        self.executor = executor
        self.embedder = embedder
        self.llm = llm
        self.config = config or WriteConfig()

    async def write(
        self,
        agent_id: str,
        message: str,
        speaker_name: str,
        recent_messages: Sequence[str] | None = None,
        occurred_at: datetime | None = None,
        thread_id: str | None = None,
        dry_run: bool = False,
        verbose: bool = False,
        config_overrides: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        event_id: str | None = None,
        fence: Fence | None = None,
    ) -> WriteResult:
        """Remember one message. The stages: docs/architecture.md, Write pipeline.

        ``event_id`` names an event that is already stored (async mode: the API logged the
        message and a worker runs the extraction); no second event is created then.
        ``fence`` (job-run writes) is the lease the commit checks in its own transaction.

        An LLM outage during extraction is not a success: the result has ``success=False``
        and an error saying the message is kept; the event stays ``:PendingExtraction`` (the
        orphan sweep re-extracts it) and an idempotency claim is released, not stored.

        Raises:
            ConfigError: ``config_overrides`` has an unknown key or a wrongly typed value.
            PIIRejected: the message holds a secret that must not be stored.
            BadInput: empty agent id or speaker.
            GraphUnavailable: Neo4j is down before the event could be stored.
            WriteInProgress: another call holds this idempotency key and is not done (and
                its claim has not expired).
            FencedOut: ``fence`` was given and that lease was lost before the commit.
        """
        cfg = apply_overrides(self.config, config_overrides)
        run = WriteRun(verbose)
        if not agent_id or not agent_id.strip():
            raise BadInput("agent_id is required")
        speaker = clean_text(speaker_name or "").strip()[:200]
        if not speaker:
            raise BadInput("speaker_name is required")
        # Text work over a message of up to the body limit runs off the event loop.
        g = await asyncio.to_thread(guard_message, message, cfg.max_message_chars)
        if g.empty:
            return WriteResult(
                success=True,
                warnings=["empty message: nothing stored"],
                mode=cfg.mode,
                dry_run=dry_run,
                duration_ms=run.ms(),
                trace=run.trace,
            )
        run.warnings += g.warnings
        # raises PIIRejected before any storage
        text = (await asyncio.to_thread(scan_pii, g.text, cfg.pii_mode)).text
        if text != g.text:
            run.warnings.append("sensitive data redacted before storage")
        # The speaker becomes an entity and the event's speaker: the same policy applies, as
        # to the thread id stored on the event.
        speaker = redact_text(speaker, cfg.pii_mode, "speaker_name").text
        thread_id = stored_label(thread_id, cfg.pii_mode, "thread_id", MAX_THREAD_ID_CHARS)
        # Earlier messages reach the LLM as context: the operator's policy covers them too.
        recent = await asyncio.to_thread(
            redact_context,
            [
                m[: cfg.recent_message_chars]
                for m in last_items(list(recent_messages or []), cfg.recent_messages_max)
            ],
            cfg.pii_mode,
        )
        run.step("guard", chars=len(text))
        # Offline, the extraction needs nothing from the database: it (and the embedding of
        # its names and facts) runs while the message is embedded and its event logged.
        early = (
            asyncio.create_task(self._extract_offline(text, speaker, recent, cfg))
            if self.llm is None
            else None
        )
        try:
            return await self._log_and_run(
                agent_id,
                text,
                speaker,
                recent,
                occurred_at,
                thread_id,
                dry_run,
                cfg,
                run,
                idempotency_key,
                event_id,
                fence,
                early,
            )
        finally:
            if early is not None:  # not awaited when the write ended early (a stored answer)
                early.cancel()
                early.add_done_callback(_retrieve)

    async def _log_and_run(
        self,
        agent_id: str,
        text: str,
        speaker: str,
        recent: list[str],
        occurred_at: datetime | None,
        thread_id: str | None,
        dry_run: bool,
        cfg: WriteConfig,
        run: WriteRun,
        idempotency_key: str | None,
        event_id: str | None,
        fence: Fence | None,
        early: asyncio.Task[Prepared] | None,
    ) -> WriteResult:
        """Embed and log the event (raw first), then run the stages after it."""
        now = datetime.now(UTC)
        occurred = occurred_at or now
        if occurred.tzinfo is None:
            occurred = occurred.replace(tzinfo=UTC)
        persist = not dry_run and cfg.mode != "shadow"
        message_vec = (await self.embedder.embed([event_embedding_text(text, speaker)]))[0]
        logged = event_id is not None
        key = idempotency_digest(idempotency_key) if idempotency_key and not dry_run else None
        if event_id is None:
            event_id = (
                str(uuid.uuid5(_EVENT_NS, join_parts(agent_id, key))) if key else str(uuid.uuid4())
            )
        event = {
            "id": event_id,
            "pending": True,
            "props": {
                "text": text,
                "speaker": speaker,
                "occurred_at": occurred,
                "ingested_at": now,
                "thread_id": thread_id,
                "source": "write",
                "embedding": message_vec,
                "content_hash": content_hash(agent_id, "event", normalize(text)),
            },
        }
        token = uuid.uuid4().hex
        claim = await log_event(
            self.executor,
            agent_id,
            event if persist and not logged else None,
            (key, token) if key else None,
            now,
            pending_ttl_s=cfg.pending_receipt_ttl_s,
            embedder=embedder_name(self.embedder),
        )
        if logged and persist and claim.stored_result is None and not claim.in_progress:
            claim.event_id = event_id
        if claim.stored_result is not None:
            return WriteResult.from_dict(json.loads(claim.stored_result))
        if claim.in_progress:
            raise WriteInProgress(
                "a write with this idempotency_key is in progress; retry later (a claim whose "
                f"writer died expires after {cfg.pending_receipt_ttl_s:g} s)",
                retry_after_s=min(cfg.pending_receipt_ttl_s, 30.0),
            )
        if claim.taken_over:
            run.warnings.append(
                "an earlier call with this idempotency_key did not finish; this call ran it again"
            )
        result = WriteResult(event_id=claim.event_id, mode=cfg.mode, dry_run=dry_run)
        run.step("event", event_id=claim.event_id)
        try:
            await self._run_stages(
                agent_id,
                text,
                speaker,
                recent,
                occurred,
                now,
                message_vec,
                cfg,
                run,
                result,
                persist,
                key,
                dry_run,
                fence,
                token,
                early,
            )
        except FencedOut:
            if key:
                await self._release(agent_id, key, token)
            raise
        except Exception as exc:  # a stage bug or Neo4j outage after the event: keep the event
            # Details go to the log only: a Cypher or driver message is not for clients.
            log.exception("write pipeline failed for agent %s event %s", agent_id, result.event_id)
            result.success = False
            result.error = (
                "write pipeline failed after the event was stored "
                f"({type(exc).__name__}); the message is kept"
            )
            if result.event_id and persist and not dry_run:
                # Listed by failedMessages, re-run by retryFailedMessages (write/failed.py).
                with contextlib.suppress(Exception):
                    await mark_failed(
                        self.executor, agent_id, result.event_id, type(exc).__name__, now
                    )
            if key:
                await self._release(agent_id, key, token)
        result.warnings = run.warnings
        result.duration_ms = run.ms()
        result.trace = run.trace
        return result

    async def _release(self, agent_id: str, key: str, token: str) -> None:
        async def work(tx: Transaction) -> None:
            await tx.run("write/release_receipt", agent_id=agent_id, key=key, token=token)

        # Best effort: if this fails too, the pending claim is reported as "in progress".
        with contextlib.suppress(Exception):
            await self.executor.write(work)

    async def _extract_offline(
        self, text: str, speaker: str, recent: list[str], cfg: WriteConfig
    ) -> Prepared:
        ex = await extract_offline(text, speaker, recent, noun_phrases=cfg.offline_noun_phrase_ends)
        return await self._prepare(ex, speaker)

    async def _prepare(self, ex: Extraction, speaker: str) -> Prepared:
        """Normalise the extraction and embed its facts and names (one embedder call)."""
        ex = normalize_extraction(ex, speaker)
        ments = collect_mentions(ex)
        texts = [f.text for f in ex.facts] + [m.surface for m in ments] + [speaker]
        return Prepared(ex, ments, texts, await self.embedder.embed(texts))

    async def _extract(
        self,
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
                "extraction failed: the model returned no usable JSON "
                "(the message is kept as an event)"
            )
        return ex

    async def _run_stages(
        self,
        agent_id: str,
        text: str,
        speaker: str,
        recent: list[str],
        occurred: datetime,
        now: datetime,
        message_vec: list[float],
        cfg: WriteConfig,
        run: WriteRun,
        result: WriteResult,
        persist: bool,
        key: str | None,
        dry_run: bool,
        fence: Fence | None = None,
        token: str = "",
        early: asyncio.Task[Prepared] | None = None,
    ) -> None:
        session = LLMSession(self.llm) if self.llm is not None else None
        if session is None:
            # The context (known names and facts) only informs the LLM's extraction.
            assert early is not None
            prep = await early
        else:
            informed = cfg.enable_informed_extraction
            alias_rows, ctx_facts = await load_context(
                self.executor,
                agent_id,
                [*word_ngrams(text)[:500], fold(speaker)],
                message_vec,
                cfg.informed_extraction_topk if informed else 0,
                cfg.scan,
                cfg.context_min_similarity,
            )
            known = known_context(
                alias_rows, ctx_facts, cfg.informed_extraction_context_budget_tokens
            )
            run.step(
                "context",
                aliases=len(alias_rows),
                profiles=len(known.profiles),
                known_facts=len(known.facts),
            )
            raw = await self._extract(
                text, speaker, recent, occurred, known, cfg, session, run, result
            )
            run.warnings += session.warnings
            session.warnings = []
            if raw is None:
                # Nothing extracted (LLM down or unusable answer): not a stored answer for the
                # key — a retry runs again — and the event stays pending for the orphan sweep.
                account(session, result)
                if key and not dry_run:
                    await self._release(agent_id, key, token)
                return
            prep = await self._prepare(raw, speaker)
        ex, ments, texts, vecs = prep.ex, prep.ments, prep.texts, prep.vecs
        run.step(
            "extraction",
            entities=len(ex.entities),
            facts=len(ex.facts),
            relations=len(ex.relations),
            path="llm" if session else "offline",
        )

        run.step("embedding", texts=len(texts))
        fact_vecs = vecs[: len(ex.facts)]
        name_vecs = dict(
            zip([m.surface for m in ments] + [speaker], vecs[len(ex.facts) :], strict=True)
        )
        keep = semantic_dedup(fact_vecs, cfg.semantic_dedup_threshold)
        if len(keep) < len(ex.facts):
            run.warnings.append(f"{len(ex.facts) - len(keep)} near-duplicate fact(s) removed")
        facts = [ex.facts[i] for i in keep]
        fact_vecs = [fact_vecs[i] for i in keep]

        resolved = await resolve_mentions(
            self.executor,
            agent_id,
            ments,
            speaker,
            name_vecs,
            cfg,
            session,
            text,
            profiles=ex.profiles,
            shown=ex.known_entities if ex.known_ids is not None else None,
        )
        result.entities_resolved = resolved.report
        ents = list(resolved.entities.values())
        run.step("resolution", entities=len(ents))

        def key_of(name: str) -> str:
            return resolved.key_of(name, speaker)

        items: list[FactItem] = []
        for fact, vec in zip(facts, fact_vecs, strict=True):
            items.append(_item(agent_id, len(items), fact, key_of(fact.subject), vec, ents))
        relations: list[RelationItem] = []
        seen_rel: set[tuple[str, str, str]] = set()
        for rel in ex.relations:
            src, dst = key_of(rel.source), key_of(rel.target)
            if src == dst or (src, dst, rel.type) in seen_rel:
                continue
            seen_rel.add((src, dst, rel.type))
            relations.append(RelationItem(src, dst, rel.type, rel.confidence))
        mirrors: list[FactItem] = []
        names = {e.key: e.name for e in ents}
        for ritem in relations:
            ritem.evidence = find_evidence(ritem, items)
        if session is None:
            # Offline, a relation is read off the parse of a sentence whose fact names both
            # ends; one no fact supports came from a sentence that made no fact (small talk,
            # "I hear ya"): kept as an edge it would need an invented mirror fact, so it goes.
            dropped = [r for r in relations if r.evidence is None]
            relations = [r for r in relations if r.evidence is not None]
            if dropped:
                log.debug("offline: %d relation(s) without a supporting fact dropped", len(dropped))
        for ritem in relations:
            if ritem.evidence is None:  # mirror fact for an unsupported relation
                mirror = ExtractedFact(
                    f"{names[ritem.source_key]} {ritem.type.replace('_', ' ')} "
                    f"{names[ritem.target_key]}",
                    names[ritem.source_key],
                    cfg.mirror_fact_confidence,
                    source_context="inferred_from_relation",
                )
                item = _item(
                    agent_id, len(items) + len(mirrors), mirror, ritem.source_key, [], ents
                )
                item.is_mirror = True
                mirrors.append(item)
                ritem.evidence = item.index
        if mirrors:
            for item, vec in zip(
                mirrors, await self.embedder.embed([m.text for m in mirrors]), strict=True
            ):
                item.embedding = vec
            items += mirrors

        # Reconcile stage.
        low = [i for i in items if i.fact.confidence < cfg.min_fact_confidence_for_write]
        for item in low:
            item.decision = FactDecision("ADD", reason="below min_fact_confidence_for_write")
            item.blocked = "low_confidence"
        live = [i for i in items if i.blocked is None]
        for attempt in range(CONFLICT_RETRIES + 1):
            try:
                await decide_and_commit(
                    self.executor,
                    agent_id,
                    items,
                    live,
                    relations,
                    resolved,
                    ex,
                    cfg,
                    session,
                    run,
                    result,
                    persist,
                    key,
                    dry_run,
                    now,
                    occurred,
                    speaker,
                    fence,
                    embedder_name(self.embedder),
                )
                return
            except WriteConflict as exc:
                # A concurrent write committed first: decide again on fresh reads.
                if attempt >= CONFLICT_RETRIES:
                    raise
                run.step("conflict", attempt=attempt + 1, reason=str(exc))
                # The informed answer's UPDATE/DELETE/NONE targets were read before the other
                # write: stale now. Decide like the blind path (thresholds + reconcile call).
                ex.known_ids = None
                for item in live:
                    item.candidates, item.decision, item.blocked = [], None, None
            except AlreadyExtracted:
                # Another run (retry, job or orphan sweep) committed this message's facts.
                run.warnings.append(
                    "this message was already extracted by another run; nothing new was written"
                )
                result.facts_added, result.facts_updated = [], []
                result.facts_unchanged, result.facts_deleted = [], []
                result.relations = []
                if key:
                    result.warnings = run.warnings
                    result.duration_ms = run.ms()
                    stored = await save_receipt(self.executor, agent_id, key, result, now)
                    if stored is not result:  # the first call's answer, as for any retry
                        copy_into(result, stored)
                        run.warnings = stored.warnings
                return


@dataclass
class Prepared:
    """An extraction, normalised, with its names and the vectors of its facts and names."""

    ex: Extraction
    ments: list[Mention]
    texts: list[str]
    vecs: list[list[float]]


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Done callback of a task nobody awaits: its exception is read, not logged as lost."""
    if not task.cancelled():
        task.exception()


def _item(
    agent_id: str,
    index: int,
    fact: ExtractedFact,
    subject_key: str,
    vec: list[float],
    ents: list[Any],
) -> FactItem:
    norm = normalize(fact.text)
    return FactItem(
        index=index,
        fact=fact,
        subject_key=subject_key,
        text=fact.text,
        normalized=norm,
        content_hash=content_hash(agent_id, subject_key, norm),
        mentioned=[k for k in mentions(fact.text, ents) if k != subject_key],
        embedding=list(vec),
    )
