"""The job queue, stored in Neo4j as ``(:Job)`` nodes.

Guarantees (each backed by one write transaction):

* **enqueue with dedup** — at most one pending/leased job per ``dedup_key``. Each key has a
  ``(:JobDedup {key})`` slot (unique constraint, so concurrent MERGEs converge on one node); the
  enqueue transaction write-locks the slot before it checks whether the slot's active job is
  still pending/leased, so two concurrent enqueues cannot both create a job.
* **atomic lease** — due candidates are read, one is write-locked and re-checked in the same
  transaction (a separate statement, so the re-check reads the committed state after the lock
  was granted). Two workers never lease the same job; a leasing transaction holds at most one
  job lock, so leasing transactions cannot deadlock each other.
* **fair lease** — the lease first picks WHOSE job runs, then which: among the tenants with due
  jobs the least recently served one (round robin), within it the least recently served agent
  (agents without a tenant count as their own tenant), then one of that agent's oldest due
  jobs. One tenant's 2 MB document (hundreds of chunk jobs) therefore delays another tenant's
  job by at most one lease per busy tenant and worker. "Served" is remembered per queue object
  (one per process): each process round-robins on its own, so every tenant with due work gets
  at least its share of every process's leases.
* **complete / fail / release / heartbeat** only act while the caller still holds the lease
  (same owner and same fencing token: every lease bumps ``lease_token``). Work that a job
  commits to the graph checks the token inside its own write transaction (``jobs/fence``), so
  a worker whose lease was reaped and re-leased commits nothing.
* **reaper** returns leases older than the timeout to ``pending`` (``dead`` once attempts are
  spent), so a crashed worker loses nothing.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.executor import Executor, Transaction
from graph.memory.jobs.policy import dedup_key as default_dedup_key
from graph.memory.jobs.policy import on_failure

__all__ = ["STATUSES", "Enqueued", "Job", "JobQueue", "JobSpec"]

STATUSES = ("pending", "leased", "done", "dead")
_MAX_ERROR_CHARS = 2_000


@dataclass(frozen=True)
class Job:
    """A job as stored (times are timezone-aware UTC datetimes)."""

    id: str
    kind: str
    agent_id: str
    subject: str | None
    dedup_key: str
    status: str
    attempts: int
    max_attempts: int
    payload: dict[str, Any]
    progress: float = 0.0
    run_after: datetime | None = None
    leased_at: datetime | None = None
    lease_owner: str | None = None
    last_error: str | None = None
    last_error_code: str | None = None  # a code of jobs.context.JOB_ERROR_CODES
    result: dict[str, Any] | None = None
    created_at: datetime | None = None
    finished_at: datetime | None = None
    lease_token: int | None = None  # fencing token: bumped by every lease

    @classmethod
    def from_row(cls, props: dict[str, Any]) -> Job:
        p = props
        return cls(
            id=p["id"],
            kind=p["kind"],
            agent_id=p.get("agent_id") or "",
            subject=p.get("subject"),
            dedup_key=p.get("dedup_key") or "",
            status=p["status"],
            attempts=int(p.get("attempts") or 0),
            max_attempts=int(p.get("max_attempts") or 3),
            payload=json.loads(p["payload"]) if p.get("payload") else {},
            progress=float(p.get("progress") or 0.0),
            run_after=p.get("run_after"),
            leased_at=p.get("leased_at"),
            lease_owner=p.get("lease_owner"),
            last_error=p.get("last_error"),
            last_error_code=p.get("last_error_code"),
            result=json.loads(p["result"]) if p.get("result") else None,
            created_at=p.get("created_at"),
            finished_at=p.get("finished_at"),
            lease_token=p.get("lease_token"),
        )


@dataclass(frozen=True)
class JobSpec:
    """What to enqueue. ``dedup_key`` defaults to ``kind|agent|subject``; pass ``unique=True``
    for jobs that must never be deduplicated (every spec gets its own slot)."""

    kind: str
    agent_id: str
    subject: str | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    dedup_key: str | None = None
    unique: bool = False
    delay_s: float = 0.0
    max_attempts: int = 3


@dataclass(frozen=True)
class Enqueued:
    """The answer to one enqueue: the job that now covers the request."""

    job_id: str
    created: bool  # False: an equivalent pending/leased job already existed (its id is given)


class JobQueue:
    """Queue operations over an :class:`Executor`. Stateless: any number may share a database."""

    def __init__(
        self,
        executor: Executor,
        *,
        lease_scan: int = 16,
        lease_attempts: int = 6,
        fair_scan: int = 1_000,
        rng: random.Random | None = None,
    ) -> None:
        self.executor = executor
        self.lease_scan = lease_scan
        self.lease_attempts = lease_attempts
        self.fair_scan = fair_scan
        self._rng = rng or random.Random()
        self._served: dict[str, int] = {}  # "t:<tenant>" / "a:<agent>" → sequence of last pick
        self._serial = 0

    # --- producing ---------------------------------------------------------------------
    async def enqueue(self, spec: JobSpec) -> Enqueued:
        """Enqueue one job (or find the equivalent pending/leased one)."""
        return (await self.enqueue_many([spec]))[0]

    async def enqueue_many(self, specs: list[JobSpec]) -> list[Enqueued]:
        """Enqueue a batch in one transaction; answers are in the order of ``specs``."""
        if not specs:
            return []
        rows: list[dict[str, Any]] = []
        for spec in specs:
            job_id = str(uuid.uuid4())
            key = spec.dedup_key or (
                f"unique|{job_id}"
                if spec.unique
                else default_dedup_key(spec.kind, spec.agent_id, spec.subject)
            )
            rows.append(
                {
                    "id": job_id,
                    "kind": spec.kind,
                    "agent_id": spec.agent_id,
                    "subject": spec.subject,
                    "dedup_key": key,
                    "payload": json.dumps(spec.payload, default=str),
                    "max_attempts": max(1, spec.max_attempts),
                    "delay_ms": max(0, int(spec.delay_s * 1000)),
                }
            )
        # Two specs with one key in the same batch: the first wins, the rest point at it.
        first_by_key: dict[str, dict[str, Any]] = {}
        for row in rows:
            first_by_key.setdefault(row["dedup_key"], row)
        unique_rows = sorted(first_by_key.values(), key=lambda r: r["dedup_key"])
        locks = [{"dedup_key": r["dedup_key"], "agent_id": r["agent_id"]} for r in unique_rows]

        async def work(tx: Transaction) -> dict[str, tuple[str, bool]]:
            await tx.run("jobs/dedup_lock", rows=locks)
            out = await tx.run("jobs/enqueue", rows=unique_rows)
            return {r["requested_id"]: (r["job_id"], bool(r["created"])) for r in out}

        by_requested = await self.executor.write(work)
        answers: list[Enqueued] = []
        for row in rows:
            winner = first_by_key[row["dedup_key"]]
            job_id, created = by_requested[winner["id"]]
            answers.append(Enqueued(job_id, created and winner is row))
        return answers

    # --- consuming ---------------------------------------------------------------------
    async def lease(
        self, owner: str, *, kinds: list[str] | None = None, agent_id: str | None = None
    ) -> Job | None:
        """Lease a due pending job (of ``kinds`` / ``agent_id`` when given), or None.

        Each attempt is one transaction: it picks the least recently served tenant and agent
        with due jobs (see the module docstring), then locks ONE job picked at random among
        that agent's oldest ``lease_scan`` due ones, so concurrent workers rarely queue on the
        same lock and a transaction never holds one lock while waiting for another (no
        deadlocks). A lost race simply tries again.
        """

        async def work(tx: Transaction) -> tuple[Job | None, bool]:
            agent = agent_id
            if agent is None:
                agents = await tx.run("jobs/lease_agents", kinds=kinds, limit=self.fair_scan)
                if not agents:
                    return None, False
                agent = self._pick_agent(agents)
            candidates = await tx.run(
                "jobs/lease_candidates", kinds=kinds, agent_id=agent, limit=self.lease_scan
            )
            if not candidates:
                return None, True  # drained meanwhile: the next attempt looks again
            pick = self._rng.choice(candidates)["id"]
            await tx.run("jobs/lock_job", id=pick)
            got = await tx.run("jobs/lease_locked", id=pick, owner=owner, due_only=True)
            return (Job.from_row(got[0]["job"]) if got else None), True

        for _ in range(self.lease_attempts):
            job, had_candidates = await self.executor.write(work)
            if job is not None or not had_candidates:
                return job
        return None

    def _pick_agent(self, rows: list[dict[str, Any]]) -> str | None:
        """Round robin: the least recently served tenant, then its least recently served agent
        (never served first; ties at random so concurrent workers spread out). None: a job
        without an agent id won (the candidates query then takes any agent's)."""
        by_tenant: dict[str, list[str]] = {}
        for row in rows:
            agent = "" if row["agent_id"] is None else str(row["agent_id"])
            tenant = f"t:{row['tenant']}" if row.get("tenant") else f"a:{agent}"
            by_tenant.setdefault(tenant, []).append(agent)

        def least_served(keys: list[str]) -> str:
            low = min(self._served.get(k, -1) for k in keys)
            return self._rng.choice(sorted(k for k in keys if self._served.get(k, -1) == low))

        tenant = least_served(list(by_tenant))
        agent = least_served([f"a:{a}" for a in by_tenant[tenant]])[2:]
        self._serial += 1
        self._served[tenant] = self._served[f"a:{agent}"] = self._serial
        if len(self._served) > 20_000:  # forget the longest-idle half (bounded memory)
            keep = sorted(self._served.items(), key=lambda kv: kv[1])[10_000:]
            self._served = dict(keep)
        return agent or None

    async def lease_id(self, job_id: str, owner: str) -> Job | None:
        """Lease one named job now (even if not yet due); None when it is not pending."""

        async def work(tx: Transaction) -> Job | None:
            if not await tx.run("jobs/lock_job", id=job_id):
                return None
            got = await tx.run("jobs/lease_locked", id=job_id, owner=owner, due_only=False)
            return Job.from_row(got[0]["job"]) if got else None

        return await self.executor.write(work)

    async def complete(self, job: Job, owner: str, result: dict[str, Any] | None = None) -> bool:
        """Mark done. False when the lease was lost (reaped): the work was still idempotent."""
        rows = await self.executor.run(
            "jobs/complete",
            {
                "id": job.id,
                "owner": owner,
                "token": job.lease_token,
                "result": json.dumps(result or {}, default=str),
            },
        )
        return bool(rows)

    async def fail(
        self,
        job: Job,
        owner: str,
        error: str,
        *,
        code: str = "INTERNAL",
        permanent: bool = False,
        rng: random.Random | None = None,
    ) -> str | None:
        """Record a failed attempt (``error``/``code``: what clients see, see
        ``jobs.context.job_error``); returns the new status ('pending' or 'dead'), None if the
        lease was lost. ``job.attempts`` already counts this attempt (it is bumped at lease)."""
        outcome = on_failure(job.attempts, job.max_attempts, permanent=permanent, rng=rng)
        rows = await self.executor.run(
            "jobs/fail",
            {
                "id": job.id,
                "owner": owner,
                "token": job.lease_token,
                "status": outcome.status,
                "delay_ms": int(outcome.delay_s * 1000),
                "error": error[:_MAX_ERROR_CHARS],
                "code": code,
            },
        )
        return rows[0]["status"] if rows else None

    async def release(self, job: Job, owner: str) -> bool:
        """Give a leased job back without counting the attempt (shutdown)."""
        return bool(await self.executor.run("jobs/release", {"id": job.id, "owner": owner}))

    async def heartbeat(self, job: Job, owner: str, progress: float | None) -> bool:
        """Store progress (0..1; None keeps it) and renew the lease; False when the lease
        was lost."""
        value = None if progress is None else min(1.0, max(0.0, float(progress)))
        rows = await self.executor.run(
            "jobs/heartbeat",
            {"id": job.id, "owner": owner, "token": job.lease_token, "progress": value},
        )
        return bool(rows)

    async def reap_stale(
        self, lease_timeout_s: float, *, agent_id: str | None = None, limit: int = 500
    ) -> dict[str, int]:
        """Return leases older than ``lease_timeout_s`` to pending (or dead); counts by status.
        ``agent_id`` limits the reaper to one agent's jobs (workers dedicated to one agent)."""
        lease_ms = max(1, int(lease_timeout_s * 1000))

        async def work(tx: Transaction) -> list[dict[str, Any]]:
            locked = await tx.run(
                "jobs/stale_lock", lease_ms=lease_ms, agent_id=agent_id, limit=limit
            )
            if not locked:
                return []
            return await tx.run("jobs/reap", ids=[r["id"] for r in locked], lease_ms=lease_ms)

        counts: dict[str, int] = {}
        for row in await self.executor.write(work):
            counts[row["status"]] = counts.get(row["status"], 0) + 1
        return counts

    # --- inspecting --------------------------------------------------------------------
    async def get(self, job_id: str) -> Job | None:
        rows = await self.executor.run("jobs/get", {"id": job_id}, read=True)
        return Job.from_row(rows[0]["job"]) if rows else None

    async def list_jobs(
        self,
        *,
        agent_id: str | None = None,
        status: str | None = None,
        kind: str | None = None,
        limit: int = 50,
    ) -> list[Job]:
        rows = await self.executor.run(
            "jobs/list",
            {"agent_id": agent_id, "status": status, "kind": kind, "limit": max(1, limit)},
            read=True,
        )
        return [Job.from_row(r["job"]) for r in rows]

    async def counts(
        self, *, agent_id: str | None = None, kind: str | None = None
    ) -> dict[str, int]:
        rows = await self.executor.run(
            "jobs/counts", {"agent_id": agent_id, "kind": kind}, read=True
        )
        return {r["status"]: int(r["n"]) for r in rows}
