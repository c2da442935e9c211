"""Payloads of curation and job mutations: forget, merge, review, documents, jobs."""

from __future__ import annotations

from datetime import datetime

import strawberry

from gql.errors import UserError
from gql.types.enums import MaintenanceJob, MergeCandidateStatus
from graph.memory.curation.edits import MergeResult

__all__ = [
    "ForgetPayload",
    "IngestDocumentPayload",
    "MaintenanceJob",
    "MergeEntitiesPayload",
    "MergeSummary",
    "ResolveMergeCandidatePayload",
    "RunJobPayload",
    "merge_summary_from",
]


@strawberry.type(description="Result of `forget`.")
class ForgetPayload:
    fact_id: strawberry.ID | None = strawberry.field(
        default=None, description="The fact invalidated."
    )
    invalidated_relationships: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="Relationships invalidated in cascade (the fact was their evidence).",
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="What a merge moved from the dropped entity to the kept one.")
class MergeSummary:
    keep_key: str = strawberry.field(description="The surviving entity.")
    drop_key: str = strawberry.field(description="The merged entity (kept, with `mergedInto`).")
    aliases_moved: int = strawberry.field(description="Aliases moved.")
    links_moved: int = strawberry.field(description="Fact links (ABOUT) moved.")
    facts_resubjected: int = strawberry.field(description="Facts whose subject changed.")
    relationships_moved: int = strawberry.field(description="Relationships moved.")
    relationships_closed: int = strawberry.field(
        description="Relationships closed because the survivor already had them."
    )


def merge_summary_from(m: MergeResult) -> MergeSummary:
    return MergeSummary(
        keep_key=m.keep_key,
        drop_key=m.drop_key,
        aliases_moved=m.aliases_moved,
        links_moved=m.links_moved,
        facts_resubjected=m.facts_resubjected,
        relationships_moved=m.relationships_moved,
        relationships_closed=m.relationships_closed,
    )


@strawberry.type(description="Result of `mergeEntities`.")
class MergeEntitiesPayload:
    merge: MergeSummary | None = strawberry.field(default=None, description="What moved.")
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="Result of `resolveMergeCandidate`.")
class ResolveMergeCandidatePayload:
    status: MergeCandidateStatus | None = strawberry.field(
        default=None, description="MERGED or REJECTED."
    )
    merge: MergeSummary | None = strawberry.field(
        default=None, description="What moved, when merged."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="Result of `ingestDocument`: poll `job(agentId, id: jobId)`.")
class IngestDocumentPayload:
    document_id: strawberry.ID | None = strawberry.field(default=None, description="The document.")
    job_id: strawberry.ID | None = strawberry.field(
        default=None, description="The ingest job to poll."
    )
    created: bool = strawberry.field(
        default=False, description="False when the same content was already registered."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="Result of `runJob`: poll `job(agentId, id: jobId)`.")
class RunJobPayload:
    job_id: strawberry.ID | None = strawberry.field(default=None, description="The job to poll.")
    created: bool = strawberry.field(
        default=False,
        description="False when an equivalent job was already pending (its id is returned).",
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(
    description="A stored message whose extraction failed: kept, but without facts "
    "until `retryFailedMessages` re-runs it successfully."
)
class FailedMessage:
    event_id: strawberry.ID = strawberry.field(description="The stored message (Event) id.")
    speaker: str = strawberry.field(description="Who said it.")
    text: str = strawberry.field(description="The message as stored (after the PII policy).")
    occurred_at: datetime | None = strawberry.field(description="When it was said.")
    error: str = strawberry.field(
        description="The kind of failure (an error class, never a provider or driver message)."
    )
    failed_at: datetime | None = strawberry.field(description="When the last attempt failed.")


@strawberry.type(description="Result of `retryFailedMessages`: one extract job per message.")
class RetryFailedPayload:
    job_ids: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="The extract jobs (poll `job(agentId, id)`); a job already pending for a "
        "message is returned instead of a second one.",
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )
