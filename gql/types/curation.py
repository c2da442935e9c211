"""Curation and operations: observations, merge candidates, audit log, background jobs."""

from __future__ import annotations

from datetime import datetime

import strawberry

from gql.types.enums import (
    JobErrorCode,
    JobKind,
    JobStatus,
    MergeCandidateStatus,
    WriteAction,
    WriteMode,
    to_api,
)
from graph.memory.browse import AuditRow, JobRow, MergeCandidateRow, ObservationRow

__all__ = ["AuditEntry", "Job", "MergeCandidate", "Observation"]


@strawberry.type(description="A pattern consolidated from several facts.")
class Observation:
    id: strawberry.ID = strawberry.field(description="Observation id.")
    text: str = strawberry.field(description="The pattern as a sentence.")
    kind: str | None = strawberry.field(description="Kind of pattern (habit, preference...).")
    created_at: datetime | None = strawberry.field(description="When it was first derived.")
    updated_at: datetime | None = strawberry.field(description="When it was last refreshed.")
    fact_ids: list[strawberry.ID] = strawberry.field(description="Facts it was derived from.")

    @classmethod
    def from_row(cls, o: ObservationRow) -> Observation:
        return cls(
            id=strawberry.ID(o.id),
            text=o.text,
            kind=o.kind,
            created_at=o.created_at,
            updated_at=o.updated_at,
            fact_ids=[strawberry.ID(f) for f in o.fact_ids],
        )


@strawberry.type(description="Two entities that may be the same (e.g. a misspelt name).")
class MergeCandidate:
    id: strawberry.ID = strawberry.field(description="Candidate id.")
    keep_key: str = strawberry.field(description="Entity that would be kept.")
    keep_name: str | None = strawberry.field(description="Its name.")
    drop_key: str = strawberry.field(description="Entity that would be merged into it.")
    drop_name: str | None = strawberry.field(description="Its name.")
    confidence: float | None = strawberry.field(description="How likely they are the same, 0..1.")
    reason: str | None = strawberry.field(description="Why they were proposed.")
    status: MergeCandidateStatus | None = strawberry.field(description="Open, merged or rejected.")
    created_at: datetime | None = strawberry.field(description="When it was proposed.")

    @classmethod
    def from_row(cls, m: MergeCandidateRow) -> MergeCandidate:
        return cls(
            id=strawberry.ID(m.id),
            keep_key=m.keep_key,
            keep_name=m.keep_name,
            drop_key=m.drop_key,
            drop_name=m.drop_name,
            confidence=m.confidence,
            reason=m.reason,
            status=to_api(MergeCandidateStatus, m.status),
            created_at=m.created_at,
        )


@strawberry.type(description="One write decision (ADD, UPDATE, DELETE, MERGE, FORGET...).")
class AuditEntry:
    id: strawberry.ID = strawberry.field(description="Audit id.")
    created_at: datetime | None = strawberry.field(description="When it was decided.")
    action: WriteAction | None = strawberry.field(description="What was decided.")
    applied: bool | None = strawberry.field(
        description="False when the write mode (shadow/controlled) blocked it."
    )
    blocked_reason: str | None = strawberry.field(description="Why it was not applied.")
    event_id: strawberry.ID | None = strawberry.field(description="Message that caused it.")
    fact_id: strawberry.ID | None = strawberry.field(description="Fact it produced or touched.")
    target_id: strawberry.ID | None = strawberry.field(description="Fact it replaced/removed.")
    reason: str | None = strawberry.field(description="Explanation of the decision.")
    mode: WriteMode | None = strawberry.field(description="Write mode in force.")

    @classmethod
    def from_row(cls, a: AuditRow) -> AuditEntry:
        def ident(v: str | None) -> strawberry.ID | None:
            return strawberry.ID(v) if v else None

        return cls(
            id=strawberry.ID(a.id),
            created_at=a.created_at,
            action=to_api(WriteAction, a.action),
            applied=a.applied,
            blocked_reason=a.blocked_reason,
            event_id=ident(a.event_id),
            fact_id=ident(a.fact_id),
            target_id=ident(a.target_id),
            reason=a.reason,
            mode=to_api(WriteMode, a.mode),
        )


@strawberry.type(description="A background job (extraction, profile refresh, document ingest...).")
class Job:
    id: strawberry.ID = strawberry.field(
        description="Job id; poll `job(agentId, id)` for progress."
    )
    kind: JobKind | None = strawberry.field(description="What the job does.")
    subject: str | None = strawberry.field(description="What it works on (entity key, doc id).")
    status: JobStatus | None = strawberry.field(
        description="Pending, leased (running), done or dead."
    )
    attempts: int | None = strawberry.field(description="Attempts so far.")
    max_attempts: int | None = strawberry.field(description="Attempts before it is dead.")
    progress: float | None = strawberry.field(description="0..1 while running, when reported.")
    last_error: str | None = strawberry.field(
        description="Last failure: the handler's own description, or a fixed message with the "
        "error class (provider and driver messages stay in the worker log)."
    )
    last_error_code: JobErrorCode | None = strawberry.field(
        description="Last failure, typed (see `lastError` for the message)."
    )
    run_after: datetime | None = strawberry.field(description="Not before this time (backoff).")
    created_at: datetime | None = strawberry.field(description="When it was enqueued.")
    finished_at: datetime | None = strawberry.field(description="When it finished.")

    @classmethod
    def from_row(cls, j: JobRow) -> Job:
        return cls(
            id=strawberry.ID(j.id),
            kind=to_api(JobKind, j.kind),
            subject=j.subject,
            status=to_api(JobStatus, j.status),
            attempts=j.attempts,
            max_attempts=j.max_attempts,
            progress=j.progress,
            last_error=j.last_error,
            last_error_code=to_api(JobErrorCode, j.last_error_code),
            run_after=j.run_after,
            created_at=j.created_at,
            finished_at=j.finished_at,
        )
