"""Periodic maintenance: enqueue profile/consolidation/importance/decay/dedup jobs per agent.

The scheduler lives inside a worker and is ticked from its loop. Any number of processes may run
one: a tick first takes the cluster's lease, a ``(:SchedulerLease {name})`` node with a holder and
an expiry, in a write transaction that also records when each kind was last scheduled (Neo4j's
clock). So one holder enqueues per period, whichever process it is; when the holder stops
(:meth:`Scheduler.release`) or dies (the lease expires after ``lease_ttl_s``), the next process
to tick takes over and keeps the recorded periods. Enqueues also use the default dedup key
(``kind|agent|*``), so a job still pending is never doubled.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graph.executor import Transaction
from graph.memory.jobs.queue import JobQueue, JobSpec

__all__ = ["DEFAULT_LEASE", "Scheduler", "TickResult", "due_kinds"]

DEFAULT_LEASE = "periodic"


def due_kinds(intervals: dict[str, float], last_run: dict[str, float], now: float) -> list[str]:
    """Kinds whose interval has elapsed since their last scheduling (never-run kinds are due).

    Args:
        intervals: kind → seconds between runs; 0 or less disables the kind.
        last_run: kind → time it was last scheduled (seconds, same clock as ``now``).
        now: current time.
    """
    return sorted(
        kind
        for kind, every in intervals.items()
        if every > 0 and now - last_run.get(kind, float("-inf")) >= every
    )


@dataclass(frozen=True)
class TickResult:
    """One tick: whether this scheduler held the lease, the kinds it scheduled, jobs created."""

    held: bool
    kinds: list[str] = field(default_factory=list)
    created: int = 0


class Scheduler:
    """Enqueues due periodic jobs for every agent with entities, once per cluster.

    Args:
        queue: the job queue.
        intervals: kind → seconds (see :class:`~graph.memory.jobs.jobs_config.JobsConfig.schedule`).
        holder: this scheduler's name in the lease (a worker id: host:pid:random).
        tick_s: minimum time between two ticks of this scheduler.
        lease_ttl_s: how long a lease outlives its last renewal (default ``3 * tick_s``, at
            least 30 s): the takeover delay after a holder dies without releasing.
        lease_name: the lease node's name (default ``periodic``, or ``periodic:<agent>`` for a
            dedicated scheduler, which must not hold back the cluster's own).
        agent_id: only plan this agent (a dedicated scheduler; tests).
        max_agents: agents planned per tick.
        clock: monotonic clock for the tick pacing (tests pass a fake).
    """

    def __init__(
        self,
        queue: JobQueue,
        intervals: dict[str, float],
        *,
        holder: str,
        tick_s: float = 60.0,
        lease_ttl_s: float | None = None,
        lease_name: str | None = None,
        agent_id: str | None = None,
        max_agents: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.queue = queue
        self.intervals = dict(intervals)
        self.holder = holder
        self.tick_s = tick_s
        self.lease_ttl_s = lease_ttl_s if lease_ttl_s is not None else max(30.0, 3 * tick_s)
        self.lease_name = lease_name or (
            DEFAULT_LEASE if agent_id is None else f"{DEFAULT_LEASE}:{agent_id}"
        )
        self.agent_id = agent_id
        self.max_agents = max_agents
        self.clock = clock
        self._next_tick = float("-inf")

    async def maybe_tick(self) -> int:
        """Tick when ``tick_s`` has passed; returns the number of jobs newly created."""
        now = self.clock()
        if now < self._next_tick:
            return 0
        self._next_tick = now + self.tick_s
        return (await self.tick()).created

    async def tick(self) -> TickResult:
        """Take (or renew) the lease; when held, claim the due kinds and enqueue them."""
        claimed = await self.queue.executor.write(self._claim)
        if claimed is None:
            return TickResult(held=False)
        if not claimed:
            return TickResult(held=True)
        rows = await self.queue.executor.run(
            "jobs/active_agents",
            {"limit": self.max_agents, "agent_id": self.agent_id},
            read=True,
        )
        specs = [JobSpec(kind=k, agent_id=r["agent_id"]) for r in rows for k in claimed]
        created = sum(e.created for e in await self.queue.enqueue_many(specs))
        return TickResult(held=True, kinds=claimed, created=created)

    async def _claim(self, tx: Transaction) -> list[str] | None:
        """In one write tx: lock the lease; None when another live holder has it, else the
        due kinds, recorded as scheduled now (Neo4j's clock, shared by every process)."""
        (row,) = await tx.run("jobs/scheduler_lock", lease=self.lease_name)
        now_ms = int(row["now_ms"])
        if (
            row["holder"] not in (None, self.holder)
            and row["expires_ms"] is not None
            and int(row["expires_ms"]) >= now_ms
        ):
            return None
        last_run: dict[str, Any] = json.loads(row["last_run"] or "{}")
        last_s = {k: float(v) / 1000 for k, v in last_run.items()}
        kinds = due_kinds(self.intervals, last_s, now_ms / 1000)
        last_run.update({k: now_ms for k in kinds})
        held = await tx.run(
            "jobs/scheduler_claim",
            lease=self.lease_name,
            holder=self.holder,
            ttl_ms=int(self.lease_ttl_s * 1000),
            last_run=json.dumps(last_run, sort_keys=True),
        )
        return kinds if held else None

    async def release(self) -> bool:
        """Give the lease up (on stop) so another process takes over at its next tick."""
        rows = await self.queue.executor.run(
            "jobs/scheduler_release", {"lease": self.lease_name, "holder": self.holder}
        )
        return bool(rows)
