"""Retention: what outlives its time-to-live is deleted by a periodic ``retention`` job.

Each kind of record has its own time-to-live
(:class:`~graph.memory.jobs.jobs_config.RetentionConfig`, 0 keeps it forever):

* ``events`` — stored messages (facts drawn from them stay, without that provenance; a message
  still waiting for its extraction is never deleted);
* ``receipts`` — idempotency receipts (a retry after that returns a fresh write, not the stored
  result);
* ``jobs`` — finished jobs (done or dead);
* ``dedup`` — job dedup slots whose job is no longer pending or leased;
* ``audit_text`` — the text and reason of audit records (the record stays, with a hash);
* ``audits`` — audit records themselves (off by default: the decision history is kept).

The job works on one agent (the scheduler queues one per agent) in bounded batches: at most
``max_batches`` statements of ``batch`` rows per kind and run, so a backlog is worked off over
several runs instead of one long transaction.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graph.executor import Executor
from graph.memory.erase.plan import erase_key, scrub_rows
from graph.memory.jobs.context import JobContext
from graph.memory.jobs.jobs_config import RetentionConfig

__all__ = ["RETENTION_KINDS", "RetentionConfig", "cutoffs", "retention_handler", "run_retention"]

RETENTION_KINDS = ("events", "receipts", "jobs", "dedup", "audits", "audit_text")

_STATEMENTS = {
    "events": "retention/delete_events",
    "receipts": "retention/delete_receipts",
    "jobs": "retention/delete_jobs",
    "dedup": "retention/delete_dedup",
    "audits": "retention/delete_audits",
}


def cutoffs(now: datetime, cfg: RetentionConfig) -> dict[str, datetime]:
    """Kind → the instant before which its records go; kinds kept forever are left out."""
    ttl = {
        "events": cfg.events_s,
        "receipts": cfg.receipts_s,
        "jobs": cfg.jobs_s,
        "dedup": cfg.dedup_s,
        "audits": cfg.audits_s,
        "audit_text": cfg.audit_text_s,
    }
    return {kind: now - timedelta(seconds=s) for kind, s in ttl.items() if s > 0}


async def run_retention(
    executor: Executor, agent_id: str, cfg: RetentionConfig, now: datetime
) -> dict[str, int]:
    """Apply ``cfg`` to one agent's records as of ``now``; returns how many went per kind."""
    done = dict.fromkeys(RETENTION_KINDS, 0)
    for kind, cutoff in cutoffs(now, cfg).items():
        params: dict[str, Any] = {"agent_id": agent_id, "cutoff": cutoff, "batch": cfg.batch}
        for _ in range(cfg.max_batches):
            if kind == "audit_text":
                rows = await executor.run("retention/audit_text", params, read=True)
                if rows:
                    await executor.run(
                        "erase/scrub_audits", {"rows": scrub_rows(rows, (), None, key=erase_key())}
                    )
                n = len(rows)
            else:
                rows = await executor.run(_STATEMENTS[kind], params)
                n = int(rows[0]["deleted"]) if rows else 0
            done[kind] += n
            if n < cfg.batch:
                break
    return done


async def retention_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``retention`` (one agent; no subject)."""
    return await run_retention(
        ctx.deps.executor, ctx.job.agent_id, ctx.deps.config.retention, datetime.now(UTC)
    )
