"""The orphan sweep: messages that were logged but never extracted get an ``extract`` job.

A synchronous write logs its event first and commits the extraction later; a process killed
(or a Neo4j lost) in between leaves the event ``:PendingExtraction``. So does an LLM outage.
The sweep, run by workers every ``orphan_sweep_interval_s``, queues ``extract`` for at most
``orphan_batch`` such events older than ``orphan_after_s``. The job's dedup key is the default
``extract|agent|event`` (the same as an async write's), so a still-queued job is not doubled,
and each event is swept once (``orphan_swept_at``): if that job dies too, it stays visible as
``dead`` instead of being re-queued forever. The extraction's commit marks the event extracted
under a lock, so a late original writer and the sweep's job cannot both commit facts.
"""

from __future__ import annotations

from graph.memory.jobs.queue import JobQueue, JobSpec
from graph.memory.write.failed import MAX_LISTED, failed_messages

__all__ = ["retry_failed", "sweep_orphans"]


async def sweep_orphans(
    queue: JobQueue,
    *,
    older_than_s: float,
    limit: int,
    max_attempts: int = 3,
    agent_id: str | None = None,
) -> int:
    """Queue ``extract`` for orphaned events (of ``agent_id`` only, when given); returns how
    many jobs were created."""
    rows = await queue.executor.run(
        "jobs/orphan_events",
        {
            "older_ms": max(0, int(older_than_s * 1000)),
            "limit": max(1, limit),
            "agent_id": agent_id,
        },
        read=True,
    )
    if not rows:
        return 0
    specs = [
        JobSpec(
            kind="extract",
            agent_id=r["agent_id"],
            subject=r["id"],
            payload={"event_id": r["id"], "orphan": True},
            max_attempts=max_attempts,
        )
        for r in rows
    ]
    created = sum(e.created for e in await queue.enqueue_many(specs))
    await queue.executor.run("jobs/mark_swept", {"ids": [r["id"] for r in rows]})
    return created


async def retry_failed(
    queue: JobQueue, agent_id: str, event_ids: list[str] | None = None, limit: int = MAX_LISTED
) -> list[str]:
    """Queue an ``extract`` job for each of the agent's messages whose extraction failed (all,
    or those of ``event_ids``), e.g. once the cause is fixed; a job already pending for a
    message is not doubled. Returns the job ids."""
    failed = await failed_messages(queue.executor, agent_id, limit, event_ids)
    queued = await queue.enqueue_many(
        [
            JobSpec(
                kind="extract",
                agent_id=agent_id,
                subject=m.event_id,
                payload={"event_id": m.event_id},
            )
            for m in failed
        ]
    )
    return [q.job_id for q in queued]
