"""What a job handler receives: the job, its dependencies, and a progress reporter."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from neo4j.exceptions import DriverError, Neo4jError

from graph.executor import Executor
from graph.memory.jobs.jobs_config import JobsConfig
from graph.memory.jobs.queue import Job, JobQueue
from graph.memory.write.commit.store import Fence
from graph.memory.write.models import PIIRejected
from graph.memory.write.pipeline import WritePipeline
from graph.providers import ChatLLM, Embedder

__all__ = [
    "JOB_ERROR_CODES",
    "SAFE_ERRORS",
    "Handler",
    "JobContext",
    "JobDeps",
    "JobError",
    "JobFailed",
    "LeaseLost",
    "PermanentJobError",
    "extraction_failed",
    "job_error",
]


class PermanentJobError(Exception):
    """Raised by a handler when retrying cannot help (bad payload, missing subject): the job
    goes straight to ``dead`` with this message. ``code`` (default: from the exception it was
    raised from, else ``BAD_PAYLOAD``) is the job's ``last_error_code``."""

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class JobFailed(RuntimeError):
    """Raised by a handler for a failure it describes itself (e.g. "extraction failed: LLM
    unavailable"): retried like any error, and its message is the job's ``last_error``
    (``code``, default ``EXTRACTION_FAILED``, its ``last_error_code``)."""

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


# Messages written by our handlers; any other exception (a provider's or driver's, with its
# request details) is stored as a code and a fixed message, and logged in full by the worker.
SAFE_ERRORS: tuple[type[BaseException], ...] = (PermanentJobError, JobFailed)
MAX_ERROR_CHARS = 500

# The codes a failed job can carry (``jobs { lastErrorCode }``), with the message kept for an
# exception whose own text is not ours.
JOB_ERROR_CODES: dict[str, str] = {
    "LLM_UNAVAILABLE": "the language model endpoint failed",
    "STORE_UNAVAILABLE": "the memory store was unavailable",
    "TIMEOUT": "the job timed out",
    "FETCH_REFUSED": "the URL was refused",
    "PII_REJECTED": "the content holds sensitive data the policy rejects",
    "QUOTA_EXCEEDED": "the key's document quota is exhausted",
    "BAD_PAYLOAD": "the job cannot run as queued",
    "EXTRACTION_FAILED": "extraction failed",
    "LEASE_EXPIRED": "lease expired (worker died or stalled)",
    "INTERNAL": "internal error",
}


@dataclass(frozen=True)
class JobError:
    """What a failed job keeps for clients: a code of :data:`JOB_ERROR_CODES` and a short
    message (the handler's own description, or a fixed text)."""

    code: str
    message: str


def extraction_failed(error: str | None) -> JobFailed:
    """The error an extraction job raises for a write that did not succeed (``error`` is the
    write result's own text): ``LLM_UNAVAILABLE`` for an outage, else ``EXTRACTION_FAILED``."""
    text = error or "no result"
    return JobFailed(
        f"extraction failed: {text}",
        code="LLM_UNAVAILABLE" if text.startswith("LLM unavailable") else "EXTRACTION_FAILED",
    )


# The codes of exceptions that do not carry one (``job_error_code``): the driver's, the
# runtime's and the write pipeline's PII refusal.
_FOREIGN_CODES: tuple[tuple[type[BaseException], str], ...] = (
    (DriverError, "STORE_UNAVAILABLE"),
    (Neo4jError, "STORE_UNAVAILABLE"),
    (TimeoutError, "TIMEOUT"),
    (PIIRejected, "PII_REJECTED"),
)


def _code_of(exc: BaseException) -> str:
    """The job error code of ``exc``: its own ``job_error_code`` (a class attribute of the
    exceptions raised on purpose: ``LLMError``, ``GraphUnavailable``, ``UrlRefused``,
    ``DocumentQuotaExceeded``), else by its type, else ``INTERNAL``."""
    own = getattr(exc, "job_error_code", None)
    if isinstance(own, str) and own in JOB_ERROR_CODES:
        return own
    for kind, code in _FOREIGN_CODES:
        if isinstance(exc, kind):
            return code
    return "INTERNAL"


def job_error(exc: BaseException) -> JobError:
    """The ``last_error`` / ``last_error_code`` a job keeps (and ``jobs{lastError}`` shows) for
    ``exc`` (pure): our handlers' descriptions keep their text (cut to 500 characters); any
    other exception keeps only its class and a fixed message, never its text."""
    if isinstance(exc, (PermanentJobError, JobFailed)):
        code = exc.code or (_code_of(exc.__cause__) if exc.__cause__ is not None else "INTERNAL")
        if code == "INTERNAL":
            code = "BAD_PAYLOAD" if isinstance(exc, PermanentJobError) else "EXTRACTION_FAILED"
        text = str(exc).strip() or JOB_ERROR_CODES[code]
        message = f"{type(exc).__name__}: {text}"
        if len(message) > MAX_ERROR_CHARS:
            message = message[: MAX_ERROR_CHARS - 1] + "…"
        return JobError(code, message)
    code = _code_of(exc)
    if code == "INTERNAL":
        return JobError(code, f"{type(exc).__name__} (details in the worker log)")
    return JobError(
        code, f"{JOB_ERROR_CODES[code]} ({type(exc).__name__}; details in the worker log)"
    )


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
