"""Async write mode: log the event now (raw-first), extract in the worker.

:func:`write_async` runs the cheap, safe stages inline — guard (empty → no event, no job;
oversized → truncated), PII (redact/reject) and the event log — then enqueues an ``extract``
job for the event and returns its id. The ``extract`` job hands the stored event to the write
pipeline with ``idempotency_key = "job:<job id>"``, so a worker killed after the pipeline's
commit but before the job was marked done re-runs into the stored receipt, not into duplicate
facts. Nothing is lost: the event is committed before the job exists.

The job runs ``JobDeps.writer`` (the process's ``WritePipeline``, built from settings by the
composition root) with ``event_id=`` so no second event is created.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput, FencedOut
from graph.executor import Executor, Transaction
from graph.memory.jobs.context import (
    JobContext,
    JobFailed,
    LeaseLost,
    PermanentJobError,
    extraction_failed,
)
from graph.memory.jobs.queue import JobQueue, JobSpec
from graph.memory.spaces import claim_space, embedder_name
from graph.memory.text import (
    content_hash,
    event_embedding_text,
    idempotency_digest,
    join_parts,
    normalize,
)
from graph.memory.write.commit.store import Fence
from graph.memory.write.guard import (
    MAX_THREAD_ID_CHARS,
    guard_message,
    redact_context,
    redact_text,
    scan_pii,
    stored_label,
)
from graph.memory.write.models import WriteResult
from graph.memory.write.pipeline import WritePipeline
from graph.memory.write.trace import last_items
from graph.providers import Embedder

__all__ = ["AsyncWriteAccepted", "extract_handler", "run_pipeline", "write_async"]

_NS = uuid.UUID("3f4c2b1a-8e7d-4c6b-9a5f-1e2d3c4b5a69")


@dataclass(frozen=True)
class AsyncWriteAccepted:
    """The answer of an async write: the stored event and the job that will extract it."""

    event_id: str | None
    job_id: str | None
    created: bool  # False: the same idempotency key was seen before (same event and job)
    warnings: list[str] = field(default_factory=list)


async def write_async(
    executor: Executor,
    queue: JobQueue,
    agent_id: str,
    message: str,
    speaker_name: str,
    *,
    embedder: Embedder | None = None,
    occurred_at: datetime | None = None,
    thread_id: str | None = None,
    recent_messages: list[str] | None = None,
    config_overrides: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
    pii_mode: str = "redact",
    max_chars: int = 12_000,
    recent_max: int = 5,
    recent_chars: int = 2_000,
) -> AsyncWriteAccepted:
    """Log the message as an Event and enqueue its extraction. The job keeps what the prompt
    will get of ``recent_messages``: the last ``recent_max``, each cut to ``recent_chars``
    (``WriteConfig.recent_messages_max`` / ``recent_message_chars``), redacted.

    Raises:
        BadInput: empty agent id or speaker.
        PIIRejected: the message holds a secret and ``pii_mode`` rejects it.
        EmbedderMismatch: the agent's vectors come from another model than ``embedder``.
    """
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    guarded = await asyncio.to_thread(guard_message, message, max_chars)
    if guarded.empty:
        return AsyncWriteAccepted(None, None, False, ["empty message: nothing stored"])
    warnings = list(guarded.warnings)
    pii = await asyncio.to_thread(scan_pii, guarded.text, pii_mode)
    text = pii.text
    if pii.findings:
        warnings.append(f"redacted {len(pii.findings)} sensitive span(s)")
    # The job payload is stored in Neo4j and its messages reach the LLM: redact them now.
    recent = await asyncio.to_thread(
        redact_context,
        [m[:recent_chars] for m in last_items(list(recent_messages or []), recent_max)],
        pii_mode,
    )
    speaker = redact_text((speaker_name or "").strip() or "user", pii_mode, "speaker_name").text
    thread_id = stored_label(thread_id, pii_mode, "thread_id", MAX_THREAD_ID_CHARS)
    event_id = (
        str(uuid.uuid5(_NS, join_parts(agent_id, idempotency_key)))
        if idempotency_key
        else str(uuid.uuid4())
    )
    props = await _event_props(agent_id, text, speaker, embedder, occurred_at, thread_id)

    async def store(tx: Transaction) -> list[dict[str, Any]]:
        if embedder is not None:  # the event's vector: the agent's model or nothing stored
            await claim_space(tx, agent_id, embedder_name(embedder))
        return await tx.run("jobs/log_event", agent_id=agent_id, id=event_id, props=props)

    rows = await executor.write(store)
    created = bool(rows and rows[0]["created"])
    queued = await queue.enqueue(
        JobSpec(
            kind="extract",
            agent_id=agent_id,
            subject=event_id,
            payload={
                "event_id": event_id,
                "recent_messages": recent,
                "config_overrides": config_overrides or {},
            },
        )
    )
    return AsyncWriteAccepted(event_id, queued.job_id, created, warnings)


async def _event_props(
    agent_id: str,
    text: str,
    speaker: str,
    embedder: Embedder | None,
    occurred_at: datetime | None,
    thread_id: str | None,
) -> dict[str, Any]:
    """The stored event's properties (its vector when there is an embedder)."""
    now = datetime.now(UTC)
    vector = (
        (await embedder.embed([event_embedding_text(text, speaker)]))[0]
        if embedder is not None
        else None
    )
    return {
        "text": text,
        "speaker": speaker,
        "occurred_at": occurred_at or now,
        "ingested_at": now,
        "thread_id": thread_id,
        "source": "async",
        "embedding": vector,
        "content_hash": content_hash(agent_id, "event", normalize(text)),
    }


async def run_pipeline(
    writer: WritePipeline,
    agent_id: str,
    event: dict[str, Any],
    *,
    idempotency_key: str,
    recent_messages: list[str] | None = None,
    config_overrides: dict[str, Any] | None = None,
    fence: Fence | None = None,
) -> WriteResult:
    """Run the write pipeline's extraction for an already-logged event (no second event)."""
    return await writer.write(
        agent_id,
        event["text"],
        event["speaker"] or "user",
        recent_messages=recent_messages or None,
        occurred_at=event.get("occurred_at"),
        thread_id=event.get("thread_id"),
        config_overrides=config_overrides or None,
        idempotency_key=idempotency_key,
        event_id=event["id"],
        fence=fence,
    )


def _summary(result: WriteResult) -> dict[str, Any]:
    """A small JSON-able summary of a WriteResult."""
    out: dict[str, Any] = {
        "success": result.success,
        "error": result.error,
        "event_id": result.event_id,
        "llm_calls": result.llm_calls,
    }
    for name in ("facts_added", "facts_updated", "facts_unchanged", "facts_deleted"):
        out[name] = len(getattr(result, name))
    if result.warnings:
        out["warnings"] = list(result.warnings)[:20]
    return out


async def extract_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``extract`` (subject: the event id; also queued by the orphan sweep).

    An extraction that did not succeed (LLM down, unusable answer, Neo4j lost mid-way) raises,
    so the job is retried with backoff and ends ``dead`` with ``last_error`` after its last
    attempt; the event is kept. The commit checks this job's lease (fencing token) in its
    transaction: a lease lost to another worker commits nothing (``LeaseLost``)."""
    pipeline = ctx.deps.writer
    if pipeline is None:
        raise JobFailed("no write pipeline configured for extraction jobs")
    event_id = ctx.payload.get("event_id") or ctx.job.subject
    if not event_id:
        raise PermanentJobError("extract job without an event id")
    rows = await ctx.deps.executor.run(
        "jobs/event", {"agent_id": ctx.job.agent_id, "id": event_id}, read=True
    )
    if not rows:
        raise PermanentJobError(f"event {event_id} not found")
    key = f"job:{ctx.job.id}"
    if ctx.job.attempts > 1:
        # A previous attempt died between claiming the receipt and committing (one transaction,
        # so it wrote nothing else); we hold the lease, so the claim is ours to drop. A
        # completed receipt is kept: the pipeline then returns the stored result.
        await ctx.deps.executor.run(
            "jobs/release_pending_receipt",
            {"agent_id": ctx.job.agent_id, "key": idempotency_digest(key)},
        )
    await ctx.progress(0.1, force=True)
    try:
        result = await run_pipeline(
            pipeline,
            ctx.job.agent_id,
            rows[0],
            idempotency_key=key,
            recent_messages=ctx.payload.get("recent_messages"),
            config_overrides=ctx.payload.get("config_overrides"),
            fence=ctx.fence,
        )
    except FencedOut as exc:
        raise LeaseLost(ctx.job.id) from exc
    if not result.success:
        raise extraction_failed(result.error)
    return _summary(result)
