"""Background work: a job queue in Neo4j, the worker that runs it, and its rules.

``queue`` (``(:Job)`` nodes: enqueue, lease, finish), ``worker`` (lease and dispatch by kind),
``scheduler`` (periodic maintenance per agent, under a cluster-wide lease), ``policy`` (pure
retry/backoff/dedup decisions), ``context`` (what a handler receives), ``config``;
``async_write`` (the ``extract`` job: a message logged now, extracted by
the worker) and ``orphans`` (logged messages never extracted get an ``extract`` job) keep writes
from being lost. The maintenance jobs themselves live in ``graph.memory.maintenance``; the composition root
(``server.composition``) maps each job kind to its handler."""

from graph.memory.jobs.context import Handler, JobContext, JobDeps, LeaseLost, PermanentJobError
from graph.memory.jobs.jobs_config import (
    DocumentConfig,
    JobsConfig,
    MaintenanceConfig,
    RetentionConfig,
    WebhookConfig,
    WorkerConfig,
)
from graph.memory.jobs.policy import backoff_delay, on_failure
from graph.memory.jobs.queue import Enqueued, Job, JobQueue, JobSpec
from graph.memory.jobs.scheduler import Scheduler
from graph.memory.jobs.worker import Worker, worker_id

__all__ = [
    "DocumentConfig",
    "Enqueued",
    "Handler",
    "Job",
    "JobContext",
    "JobDeps",
    "JobQueue",
    "JobSpec",
    "JobsConfig",
    "LeaseLost",
    "MaintenanceConfig",
    "PermanentJobError",
    "RetentionConfig",
    "Scheduler",
    "WebhookConfig",
    "Worker",
    "WorkerConfig",
    "backoff_delay",
    "on_failure",
    "worker_id",
]
