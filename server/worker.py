"""Wiring of the background worker into a process (API lifespan or ``hippograph worker``).

``start_worker(services)`` builds the job dependencies from the composition root, starts
``settings.worker_concurrency`` worker loops as asyncio tasks (the first one also runs the
periodic-job scheduler when ``scheduler_enabled``) and returns a handle; ``await handle.stop()``
(or ``stop_worker(handle)``) stops leasing, lets running jobs finish within the grace period and
releases the rest.

The API app's lifespan starts it when ``settings.worker_enabled``::

    handle = await start_worker(svc) if settings.worker_enabled else None
    ...
    if handle: await handle.stop()
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from graph.memory.jobs import (
    DocumentConfig,
    JobDeps,
    JobQueue,
    JobsConfig,
    MaintenanceConfig,
    Scheduler,
    Worker,
    WorkerConfig,
    worker_id,
)
from graph.memory.jobs.handlers import default_handlers
from server.services import Services
from server.settings import Settings

__all__ = ["WorkerHandle", "build_job_deps", "jobs_config", "start_worker", "stop_worker",
           "write_pipeline_for"]

log = logging.getLogger("hippograph.worker")


def jobs_config(settings: Settings) -> JobsConfig:
    """The job system's configuration from settings."""
    return JobsConfig(
        worker=WorkerConfig(
            poll_interval_s=settings.worker_poll_interval_s,
            lease_timeout_s=settings.job_lease_timeout_s,
            reaper_interval_s=settings.job_reaper_interval_s,
            shutdown_grace_s=settings.worker_shutdown_grace_s,
            max_attempts=settings.job_max_attempts,
        ),
        maintenance=MaintenanceConfig(
            merge_candidate_threshold=settings.merge_candidate_threshold,
            merge_auto_threshold=settings.merge_auto_threshold,
        ),
        documents=DocumentConfig(
            chunk_chars=settings.document_chunk_chars,
            chunk_overlap=settings.document_chunk_overlap,
            max_bytes=settings.document_max_bytes,
            fetch_timeout_s=settings.url_fetch_timeout_s,
            allow_private_urls=settings.url_fetch_allow_private,
        ),
        schedule={
            "profile": settings.schedule_profile_s,
            "consolidate": settings.schedule_consolidate_s,
            "importance": settings.schedule_importance_s,
            "decay": settings.schedule_decay_s,
            "dedup_entities": settings.schedule_dedup_s,
        },
        scheduler_tick_s=settings.scheduler_tick_s,
    )


def write_pipeline_for(services: Services) -> Any | None:
    """The write pipeline extraction jobs use: ``services.extras["write_pipeline"]`` when the
    composition root put one there, else one built from ``graph.memory.write.WritePipeline``
    (None when that package has no pipeline yet)."""
    existing = services.extras.get("write_pipeline")
    if existing is not None:
        return existing
    try:
        from graph.memory.write import WritePipeline  # type: ignore[attr-defined]
    except ImportError:
        return None
    pipeline = WritePipeline(services.executor, services.embedder, services.llm)
    services.extras["write_pipeline"] = pipeline
    return pipeline


def build_job_deps(services: Services) -> JobDeps:
    """Job dependencies (queue, providers, config, write pipeline) from the services."""
    extras: dict[str, Any] = {}
    pipeline = write_pipeline_for(services)
    if pipeline is not None:
        extras["write_pipeline"] = pipeline
    return JobDeps(
        executor=services.executor,
        queue=JobQueue(services.executor),
        embedder=services.embedder,
        llm=services.llm,
        config=jobs_config(services.settings),
        extras=extras,
    )


@dataclass
class WorkerHandle:
    """Running worker loops of this process."""

    workers: list[Worker]
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def stop(self, grace_s: float | None = None) -> None:
        """Stop every loop: running jobs finish within the grace period or are released."""
        await asyncio.gather(*(w.stop(grace_s) for w in self.workers))
        await asyncio.gather(*self.tasks, return_exceptions=True)

    def stats(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for w in self.workers:
            for k, v in w.stats.items():
                total[k] = total.get(k, 0) + v
        return total


async def start_worker(
    services: Services,
    *,
    concurrency: int | None = None,
    scheduler: bool | None = None,
    kinds: list[str] | None = None,
    agent_id: str | None = None,
) -> WorkerHandle:
    """Start worker loops as asyncio tasks in the running event loop.

    Args:
        services: the process's composition root.
        concurrency: loops to run (default ``settings.worker_concurrency``).
        scheduler: run the periodic-job scheduler (default ``settings.scheduler_enabled``).
        kinds: restrict to these job kinds (default: every kind this process can run).
        agent_id: only run this agent's jobs (a dedicated worker; tests).
    """
    settings = services.settings
    deps = build_job_deps(services)
    handlers = default_handlers(with_extraction="write_pipeline" in deps.extras)
    if kinds is not None:
        handlers = {k: h for k, h in handlers.items() if k in set(kinds)}
    use_scheduler = settings.scheduler_enabled if scheduler is None else scheduler
    base = worker_id()
    workers = []
    for i in range(concurrency or settings.worker_concurrency):
        sched = (Scheduler(deps.queue, deps.config.schedule, tick_s=deps.config.scheduler_tick_s)
                 if use_scheduler and i == 0 else None)
        workers.append(Worker(deps, handlers, owner=f"{base}/{i}", scheduler=sched,
                              agent_id=agent_id))
    handle = WorkerHandle(workers)
    handle.tasks = [asyncio.create_task(w.run(), name=f"hippograph-worker-{i}")
                    for i, w in enumerate(workers)]
    log.info("started %d worker loop(s) for kinds %s", len(workers), sorted(handlers))
    return handle


async def stop_worker(handle: WorkerHandle | None, grace_s: float | None = None) -> None:
    """Stop a handle from :func:`start_worker` (None is accepted and ignored)."""
    if handle is not None:
        await handle.stop(grace_s)
