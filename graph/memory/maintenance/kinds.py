"""The job kinds and what each does (the GraphQL enums ``JobKind`` / ``MaintenanceJob`` are
made from them), the maintenance ones, and the job a request for one queues (pure).

The handlers behind the kinds are registered by the composition root
(``server.composition.default_handlers``); the periodic schedule of each kind is a deployment
setting (``server.composition.jobs_config``)."""

from __future__ import annotations

from graph.memory.jobs.queue import JobSpec
from graph.memory.write.guard import stored_label

__all__ = ["JOB_KINDS", "MAINTENANCE_KINDS", "SUBJECT_KINDS", "maintenance_spec"]

# Every job kind the worker runs → what it does (the composition root registers the handlers).
JOB_KINDS: dict[str, str] = {
    "extract": "Extract facts from a stored message.",
    "document_ingest": "Fetch, parse and chunk a document.",
    "chunk_extract": "Extract facts from one document chunk.",
    "profile": "Rebuild entity profiles.",
    "consolidate": "Consolidate facts into observations.",
    "importance": "Recompute importance.",
    "decay": "Expire and decay stale facts.",
    "dedup_entities": "Propose merge candidates for duplicate entities.",
    "retention": "Delete what has outlived its retention period (old messages, "
    "idempotency receipts, finished jobs, dedup slots) and audit text past its period.",
}

MAINTENANCE_KINDS = (
    "profile",
    "consolidate",
    "importance",
    "decay",
    "dedup_entities",
    "retention",
)
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
