"""The worker: an asyncio loop that leases jobs and dispatches them to handlers by kind.

Run one per process (in-process inside the API, or ``hippograph worker``) or many: the lease is
atomic in Neo4j, so N workers on M hosts never run the same job at once. A worker also reaps
stale leases (crashed peers) and, when given a :class:`~graph.memory.jobs.scheduler.Scheduler`,
enqueues periodic maintenance jobs.

Shutdown: :meth:`Worker.stop` stops leasing, gives the current job ``shutdown_grace_s`` to
finish, then cancels it and releases its lease (the attempt is not counted), so nothing is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import time
import uuid
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from neo4j.exceptions import DriverError, Neo4jError

from graph import tracing
from graph.errors import FencedOut, GraphError
from graph.memory.jobs.context import (
    Handler,
    JobContext,
    JobDeps,
    LeaseLost,
    PermanentJobError,
    job_error,
)
from graph.memory.jobs.orphans import sweep_orphans
from graph.memory.jobs.policy import backoff_delay
from graph.memory.jobs.queue import Job

if TYPE_CHECKING:
    from graph.memory.jobs.scheduler import Scheduler

__all__ = ["Worker", "worker_id"]

log = logging.getLogger(__name__)

_INFRA_ERRORS = (GraphError, Neo4jError, DriverError, OSError)


def worker_id() -> str:
    """A lease owner name that tells operators where a job runs: host:pid:random."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Worker:
    """Leases and runs jobs until stopped.

    Args:
        deps: shared dependencies handed to every handler.
        handlers: kind → handler; the worker only leases kinds it can run.
        owner: lease owner name (default: host:pid:random).
        agent_id: only lease this agent's jobs (``hippograph jobs run``); None = all agents.
        scheduler: optional periodic-job scheduler ticked from the loop.
        on_progress: callback receiving each progress fraction (CLI progress bars).
    """

    def __init__(
        self,
        deps: JobDeps,
        handlers: dict[str, Handler],
        *,
        owner: str | None = None,
        agent_id: str | None = None,
        scheduler: Scheduler | None = None,
        on_progress: Callable[[Job, float], None] | None = None,
    ) -> None:
        self.deps = deps
        self.handlers = dict(handlers)
        self.owner = owner or worker_id()
        self.agent_id = agent_id
        self.scheduler = scheduler
        self.on_progress = on_progress
        self.stats: Counter[str] = Counter()
        self._stop = asyncio.Event()
        self._current: tuple[Job, asyncio.Task[None]] | None = None
        self._rng = random.Random()

    @property
    def kinds(self) -> list[str]:
        return sorted(self.handlers)

    @property
    def _sweeps(self) -> bool:
        """Workers that run extractions also sweep for orphaned events (of their agent only,
        when they are dedicated to one)."""
        return "extract" in self.handlers and self.deps.config.worker.orphan_sweep_interval_s > 0

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    # --- the loop ------------------------------------------------------------------------
    async def run(self) -> None:
        """Lease and run jobs until :meth:`stop`; infrastructure errors back off, never crash."""
        cfg = self.deps.config.worker
        next_reap = 0.0
        next_sweep = 0.0
        failures = 0
        while not self._stop.is_set():
            try:
                if time.monotonic() >= next_reap:
                    reaped = await self.deps.queue.reap_stale(
                        cfg.lease_timeout_s, agent_id=self.agent_id
                    )
                    if reaped:
                        log.warning("reaped stale leases: %s", reaped)
                        self.stats.update({f"reaped_{k}": v for k, v in reaped.items()})
                    next_reap = time.monotonic() + cfg.reaper_interval_s
                if time.monotonic() >= next_sweep and self._sweeps:
                    queued = await sweep_orphans(
                        self.deps.queue,
                        older_than_s=cfg.orphan_after_s,
                        limit=cfg.orphan_batch,
                        max_attempts=cfg.max_attempts,
                        agent_id=self.agent_id,
                    )
                    if queued:
                        log.warning("orphan sweep: queued extraction of %d event(s)", queued)
                        self.stats["orphans_queued"] += queued
                    next_sweep = time.monotonic() + cfg.orphan_sweep_interval_s
                if self.scheduler is not None:
                    await self.scheduler.maybe_tick()
                ran = await self.run_once()
                failures = 0
            except _INFRA_ERRORS as exc:
                failures += 1
                delay = backoff_delay(failures, rng=self._rng)
                log.warning("worker %s: %s; retrying in %.1fs", self.owner, exc, delay)
                await self._sleep(delay)
                continue
            if not ran:
                await self._sleep(cfg.poll_interval_s * self._rng.uniform(0.75, 1.25))

    async def run_once(self) -> bool:
        """Lease one due job and run it to the end; False when there was nothing to do."""
        if self._stop.is_set():
            return False
        job = await self.deps.queue.lease(self.owner, kinds=self.kinds, agent_id=self.agent_id)
        if job is None:
            return False
        await self.process(job)
        return True

    async def run_until_idle(self, *, max_jobs: int | None = None) -> int:
        """Run jobs until none is due (or ``max_jobs``); returns how many ran. For CLI/tests."""
        count = 0
        while (max_jobs is None or count < max_jobs) and await self.run_once():
            count += 1
        return count

    async def process(self, job: Job) -> None:
        """Run a job this worker has leased, as a task :meth:`stop` can cancel and release."""
        task = asyncio.create_task(self._execute(job), name=f"job-{job.kind}-{job.id}")
        self._current = (job, task)
        try:
            await task
        except asyncio.CancelledError:
            # Our stop() cancelled the job (already released); anything else cancels us too.
            if not (self._stop.is_set() and task.cancelled()):
                raise
        finally:
            self._current = None

    @tracing.traced_job
    async def _execute(self, job: Job) -> None:
        queue = self.deps.queue
        handler = self.handlers.get(job.kind)
        if handler is None:
            await queue.fail(
                job,
                self.owner,
                f"no handler for kind {job.kind!r}",
                code="BAD_PAYLOAD",
                permanent=True,
            )
            self.stats["dead"] += 1
            return

        def report(fraction: float) -> None:
            if self.on_progress is not None:
                self.on_progress(job, fraction)

        ctx = JobContext(job=job, deps=self.deps, owner=self.owner, on_progress=report)
        keeper = asyncio.create_task(self._keep_lease(job), name=f"lease-{job.id}")
        try:
            result = await handler(ctx)
        except asyncio.CancelledError:
            await asyncio.shield(queue.release(job, self.owner))
            self.stats["released"] += 1
            raise
        except (LeaseLost, FencedOut):
            log.warning("job %s (%s): lease lost; another worker takes over", job.id, job.kind)
            self.stats["lease_lost"] += 1
            return
        except PermanentJobError as exc:
            err = job_error(exc)
            await queue.fail(job, self.owner, err.message, code=err.code, permanent=True)
            self.stats["dead"] += 1
            return
        except Exception as exc:  # a handler bug must not kill the worker
            log.warning(
                "job %s (%s) attempt %d failed: %s",
                job.id,
                job.kind,
                job.attempts,
                exc,
                exc_info=not isinstance(exc, _INFRA_ERRORS),
            )
            err = job_error(exc)
            status = await queue.fail(job, self.owner, err.message, code=err.code, rng=self._rng)
            self.stats[status or "lease_lost"] += 1
            return
        finally:
            keeper.cancel()
        if await queue.complete(job, self.owner, result):
            self.stats["done"] += 1
        else:
            self.stats["lease_lost"] += 1

    async def _keep_lease(self, job: Job) -> None:
        """Heartbeat: renew the lease of a running job every ``lease_timeout_s`` × fraction,
        so a long extraction is not reaped while its worker is alive. Stops when the lease
        was lost (the job's commit is then refused by its fencing token)."""
        cfg = self.deps.config.worker
        every = max(0.05, cfg.lease_timeout_s * cfg.heartbeat_fraction)
        while True:
            await asyncio.sleep(every)
            try:
                if not await self.deps.queue.heartbeat(job, self.owner, None):
                    log.warning(
                        "job %s (%s): lease lost; its commit will be refused", job.id, job.kind
                    )
                    return
            except _INFRA_ERRORS as exc:  # Neo4j blip: try again at the next beat
                log.warning("job %s: heartbeat failed: %s", job.id, exc)

    # --- stopping ------------------------------------------------------------------------
    async def stop(self, grace_s: float | None = None) -> None:
        """Stop leasing; let the current job finish within ``grace_s`` or release it."""
        self._stop.set()
        current = self._current
        if current is None:
            return
        _, task = current
        grace = self.deps.config.worker.shutdown_grace_s if grace_s is None else grace_s
        done, _ = await asyncio.wait({task}, timeout=max(0.0, grace))
        if not done:
            task.cancel()
            await asyncio.wait({task})

    async def _sleep(self, seconds: float) -> None:
        """Sleep, waking at once when stopped."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), timeout=max(0.0, seconds))
