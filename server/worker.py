"""Wiring of the background worker into a process (API lifespan or ``hippograph worker``).

``start_worker(memory)`` starts ``memory.jobs.concurrency`` worker loops as asyncio tasks over
``memory.job_deps()`` (the first one also runs the periodic-job scheduler when
``memory.jobs.scheduler_enabled``; its lease in Neo4j makes it run once per cluster however many
processes start one) and returns a handle; ``await handle.stop()`` (or
``stop_worker(handle)``) stops leasing, lets running jobs finish within the grace period and
releases the rest. Extraction jobs run ``memory.writer``: the same write pipeline, with the same
settings-derived ``WriteConfig``, as the API's ``write`` mutation.

The API app's lifespan starts it when ``settings.worker_enabled``::

    handle = await start_worker(memory) if settings.worker_enabled else None
    ...
    if handle: await handle.stop()

Beside it runs the webhook sender (``start_webhook_sender``: one asyncio task that dispatches
new memory events into deliveries and sends them, ``graph.memory.webhooks.sender``) wherever
the worker runs, unless ``settings.webhook_sender`` says otherwise (:func:`sender_wanted`).
Its leases in Neo4j make any number of senders safe, like the job worker's.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from graph.memory.facade import Memory
from graph.memory.jobs import Scheduler, Worker, worker_id
from graph.memory.webhooks import WebhookSender
from server.composition import default_handlers
from server.settings import Settings

__all__ = [
    "SenderHandle",
    "WorkerHandle",
    "sender_wanted",
    "start_webhook_sender",
    "start_worker",
    "stop_sender",
    "stop_worker",
]

log = logging.getLogger("hippograph.worker")


@dataclass
class WorkerHandle:
    """Running worker loops of this process."""

    workers: list[Worker]
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def stop(self, grace_s: float | None = None) -> None:
        """Stop every loop: running jobs finish within the grace period or are released."""
        await asyncio.gather(*(w.stop(grace_s) for w in self.workers))
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for w in self.workers:  # hand the scheduler lease over now, not at its expiry
            if w.scheduler is not None:
                try:
                    await w.scheduler.release()
                except Exception as exc:  # Neo4j down at shutdown: the lease simply expires
                    log.warning("scheduler lease not released: %s", exc)

    def stats(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for w in self.workers:
            for k, v in w.stats.items():
                total[k] = total.get(k, 0) + v
        return total


async def start_worker(
    memory: Memory,
    *,
    concurrency: int | None = None,
    scheduler: bool | None = None,
    kinds: list[str] | None = None,
    agent_id: str | None = None,
) -> WorkerHandle:
    """Start worker loops as asyncio tasks in the running event loop.

    Args:
        memory: the process's services (``server.composition.build_memory``).
        concurrency: loops to run (default ``memory.jobs.concurrency``).
        scheduler: run the periodic-job scheduler (default ``memory.jobs.scheduler_enabled``).
        kinds: restrict to these job kinds (default: every kind).
        agent_id: only run this agent's jobs (a dedicated worker; tests).
    """
    deps = memory.job_deps()
    handlers = default_handlers()
    if kinds is not None:
        handlers = {k: h for k, h in handlers.items() if k in set(kinds)}
    use_scheduler = deps.config.scheduler_enabled if scheduler is None else scheduler
    base = worker_id()
    workers = []
    for i in range(concurrency or deps.config.concurrency):
        sched = (
            Scheduler(
                deps.queue,
                deps.config.schedule,
                holder=f"{base}/scheduler",
                tick_s=deps.config.scheduler_tick_s,
                agent_id=agent_id,
            )
            if use_scheduler and i == 0
            else None
        )
        workers.append(
            Worker(deps, handlers, owner=f"{base}/{i}", scheduler=sched, agent_id=agent_id)
        )
    handle = WorkerHandle(workers)
    handle.tasks = [
        asyncio.create_task(w.run(), name=f"hippograph-worker-{i}") for i, w in enumerate(workers)
    ]
    log.info("started %d worker loop(s) for kinds %s", len(workers), sorted(handlers))
    return handle


async def stop_worker(handle: WorkerHandle | None, grace_s: float | None = None) -> None:
    """Stop a handle from :func:`start_worker` (None is accepted and ignored)."""
    if handle is not None:
        await handle.stop(grace_s)


@dataclass
class SenderHandle:
    """The running webhook sender of this process."""

    sender: WebhookSender
    task: asyncio.Task[None]

    async def stop(self) -> None:
        """Stop after the current round (attempts in flight finish or time out)."""
        await self.sender.stop()
        await asyncio.gather(self.task, return_exceptions=True)


def sender_wanted(settings: Settings, worker_running: bool) -> bool:
    """Whether this process runs the webhook sender: ``settings.webhook_sender``, or, unset,
    wherever the job worker runs."""
    return worker_running if settings.webhook_sender is None else settings.webhook_sender


async def start_webhook_sender(memory: Memory) -> SenderHandle:
    """Start the webhook sender as an asyncio task in the running loop."""
    sender = WebhookSender(memory.executor, memory.jobs.webhooks)
    task = asyncio.create_task(sender.run(), name="hippograph-webhooks")
    log.info("started the webhook sender (%s)", sender.owner)
    return SenderHandle(sender, task)


async def stop_sender(handle: SenderHandle | None) -> None:
    """Stop a handle from :func:`start_webhook_sender` (None is accepted and ignored)."""
    if handle is not None:
        await handle.stop()
