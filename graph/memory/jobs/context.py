"""What a job handler receives: the job, its dependencies, and a progress reporter."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor
from graph.memory.jobs.config import JobsConfig
from graph.memory.jobs.queue import Job, JobQueue
from graph.memory.write.pipeline import WritePipeline
from graph.memory.write.store import Fence
from graph.providers import ChatLLM, Embedder

__all__ = ["SAFE_ERRORS", "Handler", "JobContext", "JobDeps", "JobFailed", "LeaseLost",
           "PermanentJobError", "job_error"]


class PermanentJobError(Exception):
    """Raised by a handler when retrying cannot help (bad payload, missing subject): the job
    goes straight to ``dead`` with this message."""


class JobFailed(RuntimeError):
    """Raised by a handler for a failure it describes itself (e.g. "extraction failed: LLM
    unavailable"): retried like any error, and its message is the job's ``last_error``."""


# Messages written by our handlers; any other exception (a provider's or driver's, with its
# request details) is stored as its class name only and logged in full by the worker.
SAFE_ERRORS: tuple[type[BaseException], ...] = (PermanentJobError, JobFailed)


def job_error(exc: BaseException) -> str:
    """The ``last_error`` a job keeps (and ``jobs{lastError}`` shows) for ``exc``."""
    text = str(exc).strip()
    if isinstance(exc, SAFE_ERRORS) and text:
        return f"{type(exc).__name__}: {text}"[:500]
    return f"{type(exc).__name__} (details in the worker log)"


class LeaseLost(Exception):
    """The job's lease expired and was taken over; the handler should stop (its work so far is
    idempotent, the new holder redoes it)."""


@dataclass
class JobDeps:
    """Everything handlers share (``Memory.job_deps()`` builds it from the composition root).
    ``writer`` runs the extraction kinds (``extract``, ``chunk_extract``); a worker without one
    does not lease them."""

    executor: Executor
    queue: JobQueue
    embedder: Embedder | None = None
    llm: ChatLLM | None = None
    config: JobsConfig = field(default_factory=JobsConfig)
    writer: WritePipeline | None = None


@dataclass
class JobContext:
    """One running job. Handlers call :meth:`progress` as they go (renews the lease)."""

    job: Job
    deps: JobDeps
    owner: str
    on_progress: Callable[[float], None] | None = None
    min_interval_s: float = 0.5
    _last_beat: float = field(default=0.0, repr=False)

    @property
    def payload(self) -> dict[str, Any]:
        return self.job.payload

    @property
    def fence(self) -> Fence:
        """This lease, for writes that must commit only while it is still held."""
        return Fence(self.job.id, self.owner, self.job.lease_token)

    async def progress(self, fraction: float, *, force: bool = False) -> None:
        """Report progress in [0, 1]; written at most every ``min_interval_s`` (or forced).

        Raises:
            LeaseLost: another worker reaped this job's lease.
        """
        fraction = min(1.0, max(0.0, fraction))
        if self.on_progress is not None:
            self.on_progress(fraction)
        now = time.monotonic()
        if not force and now - self._last_beat < self.min_interval_s:
            return
        self._last_beat = now
        if not await self.deps.queue.heartbeat(self.job, self.owner, fraction):
            raise LeaseLost(self.job.id)


Handler = Callable[[JobContext], Awaitable[dict[str, Any] | None]]
