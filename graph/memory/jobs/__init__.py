"""Background work: a job queue in Neo4j, the worker that runs it, and the job handlers
(async extraction, profiles, consolidation, importance, decay, duplicate entities, documents)."""

from graph.memory.jobs.config import DocumentConfig, JobsConfig, MaintenanceConfig, WorkerConfig
from graph.memory.jobs.context import Handler, JobContext, JobDeps, LeaseLost, PermanentJobError
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
    "Scheduler",
    "Worker",
    "WorkerConfig",
    "backoff_delay",
    "on_failure",
    "worker_id",
]
