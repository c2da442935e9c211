"""The registry of job kinds → handlers that a standard worker runs."""

from __future__ import annotations

from graph.memory.documents.ingest import chunk_extract_handler, document_ingest_handler
from graph.memory.jobs.async_write import extract_handler
from graph.memory.jobs.context import Handler
from graph.memory.jobs.queue import JobSpec
from graph.memory.maintenance.consolidate import consolidate_handler
from graph.memory.maintenance.duplicates import dedup_handler
from graph.memory.maintenance.importance import decay_handler, importance_handler
from graph.memory.maintenance.profiles import profile_handler
from graph.memory.maintenance.retention import retention_handler
from graph.memory.write.guard import stored_label

__all__ = ["KINDS", "MAINTENANCE_KINDS", "SUBJECT_KINDS", "default_handlers", "maintenance_spec"]

MAINTENANCE_KINDS = (
    "profile",
    "consolidate",
    "importance",
    "decay",
    "dedup_entities",
    "retention",
)
KINDS = ("extract", "document_ingest", "chunk_extract", *MAINTENANCE_KINDS)
# Maintenance kinds that work on one subject (an entity key); the others work on the whole agent.
SUBJECT_KINDS = ("profile",)


def maintenance_spec(
    kind: str, agent_id: str, subject: str | None, pii_mode: str = "redact"
) -> JobSpec:
    """The job a maintenance request queues. A whole-agent kind ignores the subject, so it is
    dropped: the dedup key is then ``kind|agent`` and any number of requests with different
    subjects queue one job, not one LLM-calling whole-agent run each. A kept subject is stored
    on the job: at most 1,000 characters, under the operator's ``pii_mode``.

    Raises:
        BadInput: the subject is too long; PIIRejected: reject mode and it holds PII.
    """
    if kind not in SUBJECT_KINDS:
        return JobSpec(kind=kind, agent_id=agent_id, subject=None)
    return JobSpec(kind=kind, agent_id=agent_id, subject=stored_label(subject, pii_mode, "subject"))


def default_handlers(*, with_extraction: bool = True) -> dict[str, Handler]:
    """Every built-in job kind. ``with_extraction=False`` leaves out the kinds that need the
    write pipeline (a worker without one must not lease them)."""
    handlers: dict[str, Handler] = {
        "document_ingest": document_ingest_handler,
        "profile": profile_handler,
        "consolidate": consolidate_handler,
        "importance": importance_handler,
        "decay": decay_handler,
        "dedup_entities": dedup_handler,
        "retention": retention_handler,
    }
    if with_extraction:
        handlers["extract"] = extract_handler
        handlers["chunk_extract"] = chunk_extract_handler
    return handlers
