"""The write pipeline (docs/architecture.md): message → guard → event → extraction →
resolution → reconciliation → one write transaction. This module checks the call and logs the
event; the stages after it run in ``sequence`` (``extract/``, ``resolve/``, ``reconcile/``,
``commit/``)."""

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

from graph import tracing
from graph.errors import BadInput, FencedOut, WriteInProgress
from graph.executor import Executor, Transaction
from graph.memory.ontology.store import OntologyCache
from graph.memory.spaces import embedder_name
from graph.memory.text import (
    clean_text,
    content_hash,
    event_embedding_text,
    idempotency_digest,
    join_parts,
    normalize,
)
from graph.memory.write.commit.store import EventClaim, Fence, log_event
from graph.memory.write.config import WriteConfig, apply_overrides
from graph.memory.write.extract.stage import Prepared, prepare_offline
from graph.memory.write.failed import mark_failed
from graph.memory.write.guard import (
    MAX_THREAD_ID_CHARS,
    GuardResult,
    guard_message,
    redact_context,
    redact_text,
    scan_pii,
    stored_label,
)
from graph.memory.write.models import WriteResult
from graph.memory.write.sequence import WriteCall, run_stages
from graph.memory.write.trace import WriteRun, last_items
from graph.providers import ChatLLM, Embedder, similarity_floor

__all__ = ["WritePipeline"]

log = logging.getLogger(__name__)

# Keyed writes store their event under an id derived from the key, so a retry (after a crash
# or an expired claim) finds the event it logged before instead of logging a second one.
_EVENT_NS = uuid.UUID("8b1d6a52-3c7e-4f0a-9d2b-6e5f4a3c2b10")


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
        self.similarity_floor = similarity_floor(embedder)
        # The ontology in force per agent (types, single-valued relations), kept a few seconds.
        self.ontologies = OntologyCache(executor)

    @tracing.traced("write")
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
        cfg = apply_overrides(self.config, config_overrides).on_scale(self.similarity_floor)
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
        msg = await _guarded(g, speaker, thread_id, recent_messages, cfg, run)
        # Offline, the extraction needs nothing from the database: it (and the embedding of
        # its names and facts) runs while the message is embedded and its event logged.
        early = (
            asyncio.create_task(
                prepare_offline(msg.text, msg.speaker, msg.recent, cfg, self.embedder)
            )
            if self.llm is None
            else None
        )
        try:
            return await self._log_and_run(
                agent_id,
                msg,
                occurred_at,
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
        msg: _Message,
        occurred_at: datetime | None,
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
        message_vec = (await self.embedder.embed([event_embedding_text(msg.text, msg.speaker)]))[0]
        logged = event_id is not None
        key = idempotency_digest(idempotency_key) if idempotency_key and not dry_run else None
        if event_id is None:
            event_id = (
                str(uuid.uuid5(_EVENT_NS, join_parts(agent_id, key))) if key else str(uuid.uuid4())
            )
        token = uuid.uuid4().hex
        claim = await log_event(
            self.executor,
            agent_id,
            _event(agent_id, event_id, msg, occurred, now, message_vec)
            if persist and not logged
            else None,
            (key, token) if key else None,
            now,
            pending_ttl_s=cfg.pending_receipt_ttl_s,
            embedder=embedder_name(self.embedder),
        )
        if logged and persist and claim.stored_result is None and not claim.in_progress:
            claim.event_id = event_id
        if claim.ontology_rows is not None:  # read with the event: no read of its own
            self.ontologies.keep(agent_id, claim.ontology_rows)
        stored = _stored_answer(claim, cfg, run)
        if stored is not None:
            return stored
        result = WriteResult(event_id=claim.event_id, mode=cfg.mode, dry_run=dry_run)
        run.step("event", event_id=claim.event_id)
        call = WriteCall(
            agent_id,
            msg.text,
            msg.speaker,
            msg.recent,
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
            None if claim.space_claimed else embedder_name(self.embedder),
        )
        await self._run_after_event(call, early)
        result.warnings = run.warnings
        result.duration_ms = run.ms()
        result.trace = run.trace
        return result

    async def _run_after_event(self, call: WriteCall, early: asyncio.Task[Prepared] | None) -> None:
        """The stages after the event; a failure keeps the event (marked failed, listed by
        ``failedMessages``) and releases the idempotency claim. A lost lease is raised."""
        result = call.result
        try:
            await self._run_stages(call, early)
        except FencedOut:
            if call.key:
                await self._release(call.agent_id, call.key, call.token)
            raise
        except Exception as exc:  # a stage bug or Neo4j outage after the event: keep the event
            # Details go to the log only: a Cypher or driver message is not for clients.
            log.exception(
                "write pipeline failed for agent %s event %s", call.agent_id, result.event_id
            )
            result.success = False
            result.error = (
                "write pipeline failed after the event was stored "
                f"({type(exc).__name__}); the message is kept"
            )
            if result.event_id and call.persist and not call.dry_run:
                # Listed by failedMessages, re-run by retryFailedMessages (write/failed.py).
                with contextlib.suppress(Exception):
                    await mark_failed(
                        self.executor, call.agent_id, result.event_id, type(exc).__name__, call.now
                    )
            if call.key:
                await self._release(call.agent_id, call.key, call.token)

    async def _run_stages(self, call: WriteCall, early: asyncio.Task[Prepared] | None) -> None:
        """The stages after the event (``sequence.run_stages``), under the agent's ontology."""
        call.ontology = await self.ontologies.get(call.agent_id)
        call.cfg = call.cfg.under(call.ontology)
        await run_stages(
            self.executor,
            self.embedder,
            self.llm,
            call,
            early,
            lambda: self._release(call.agent_id, call.key or "", call.token),
        )

    async def _release(self, agent_id: str, key: str, token: str) -> None:
        async def work(tx: Transaction) -> None:
            await tx.run("write/release_receipt", agent_id=agent_id, key=key, token=token)

        # Best effort: if this fails too, the pending claim is reported as "in progress".
        with contextlib.suppress(Exception):
            await self.executor.write(work)


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Done callback of a task nobody awaits: its exception is read, not logged as lost."""
    if not task.cancelled():
        task.exception()


@dataclass(frozen=True)
class _Message:
    """A message past the guard: its text, speaker, thread id and earlier messages, each under
    the operator's PII policy."""

    text: str
    speaker: str
    thread_id: str | None
    recent: list[str]


async def _guarded(
    g: GuardResult,
    speaker: str,
    thread_id: str | None,
    recent_messages: Sequence[str] | None,
    cfg: WriteConfig,
    run: WriteRun,
) -> _Message:
    """The guarded message under the PII policy (the ``guard`` step of the trace).

    Raises:
        PIIRejected: the message, speaker, thread id or an earlier message holds a secret
            that must not be stored (before any storage).
        BadInput: the thread id is too long.
    """
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
    return _Message(text, speaker, thread_id, recent)


def _event(
    agent_id: str,
    event_id: str,
    msg: _Message,
    occurred: datetime,
    now: datetime,
    message_vec: list[float],
) -> dict[str, Any]:
    """The event row the raw-first log stores (pending until its extraction is committed)."""
    return {
        "id": event_id,
        "pending": True,
        "props": {
            "text": msg.text,
            "speaker": msg.speaker,
            "occurred_at": occurred,
            "ingested_at": now,
            "thread_id": msg.thread_id,
            "source": "write",
            "embedding": message_vec,
            "content_hash": content_hash(agent_id, "event", normalize(msg.text)),
        },
    }


def _stored_answer(claim: EventClaim, cfg: WriteConfig, run: WriteRun) -> WriteResult | None:
    """The stored result of a finished call with the same idempotency key (None: run this
    call; a warning when it takes over an expired claim).

    Raises:
        WriteInProgress: another call holds the key and is not done.
    """
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
    return None
