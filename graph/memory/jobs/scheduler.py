"""Periodic maintenance: enqueue profile/consolidation/importance/decay/dedup jobs per agent.

The scheduler lives inside a worker and is ticked from its loop. Enqueues use the default dedup
key (``kind|agent|*``), so several workers ticking at once still leave one pending job per agent
and kind.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from graph.memory.jobs.queue import JobQueue, JobSpec

__all__ = ["Scheduler", "due_kinds"]


def due_kinds(
    intervals: dict[str, float], last_run: dict[str, float], now: float
) -> list[str]:
    """Kinds whose interval has elapsed since their last scheduling (never-run kinds are due).

    Args:
        intervals: kind → seconds between runs; 0 or less disables the kind.
        last_run: kind → monotonic time it was last scheduled.
        now: current monotonic time.
    """
    return sorted(
        kind
        for kind, every in intervals.items()
        if every > 0 and now - last_run.get(kind, float("-inf")) >= every
    )


class Scheduler:
    """Enqueues due periodic jobs for every agent with entities.

    Args:
        queue: the job queue.
        intervals: kind → seconds (see :class:`~graph.memory.jobs.config.JobsConfig.schedule`).
        tick_s: minimum time between two looks at the clock's due list.
        max_agents: agents planned per tick.
        clock: monotonic clock (tests pass a fake).
    """

    def __init__(
        self,
        queue: JobQueue,
        intervals: dict[str, float],
        *,
        tick_s: float = 60.0,
        max_agents: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.queue = queue
        self.intervals = dict(intervals)
        self.tick_s = tick_s
        self.max_agents = max_agents
        self.clock = clock
        self.last_run: dict[str, float] = {}
        self._next_tick = float("-inf")

    async def maybe_tick(self) -> int:
        """Tick when ``tick_s`` has passed; returns the number of jobs newly created."""
        now = self.clock()
        if now < self._next_tick:
            return 0
        self._next_tick = now + self.tick_s
        return await self.tick(now)

    async def tick(self, now: float | None = None) -> int:
        now = self.clock() if now is None else now
        kinds = due_kinds(self.intervals, self.last_run, now)
        if not kinds:
            return 0
        rows = await self.queue.executor.run(
            "jobs/active_agents", {"limit": self.max_agents}, read=True
        )
        specs = [JobSpec(kind=k, agent_id=r["agent_id"]) for r in rows for k in kinds]
        created = sum(e.created for e in await self.queue.enqueue_many(specs))
        for kind in kinds:
            self.last_run[kind] = now
        return created
