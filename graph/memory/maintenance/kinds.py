"""The maintenance job kinds, and the job a request for one queues (pure).

The handlers behind the kinds are registered by the composition root
(``server.composition.default_handlers``); the periodic schedule of each kind is a deployment
setting (``server.composition.jobs_config``)."""

from __future__ import annotations

from graph.memory.jobs.queue import JobSpec
from graph.memory.write.guard import stored_label

__all__ = ["MAINTENANCE_KINDS", "SUBJECT_KINDS", "maintenance_spec"]

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
