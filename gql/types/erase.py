"""Payload of the erase mutations (``eraseFact``, ``eraseEntity``, ``eraseAgent``)."""

from __future__ import annotations

import strawberry

from gql.errors import UserError
from graph.memory.erase import EraseReport

__all__ = ["ErasePayload", "EraseSummary", "erase_summary_from"]


@strawberry.type(description="What an erase removed from the database (counts).")
class EraseSummary:
    scope: str = strawberry.field(description="`fact`, `entity` or `agent`.")
    facts: int = strawberry.field(description="Fact nodes deleted (older versions included).")
    events: int = strawberry.field(
        description="Messages deleted (the sources of those facts, or naming the erased subject)."
    )
    documents: int = strawberry.field(description="Documents deleted with their chunks.")
    entities: int = strawberry.field(description="Entities deleted with their aliases.")
    relations_deleted: int = strawberry.field(
        description="Relationships deleted (evidenced only by erased facts, or of an erased "
        "entity)."
    )
    relations_updated: int = strawberry.field(
        description="Relationships kept with the erased facts removed from their evidence."
    )
    observations: int = strawberry.field(
        description="Observations deleted (derived from erased facts)."
    )
    audits_scrubbed: int = strawberry.field(
        description="Audit records whose text was replaced by its hash (ids kept)."
    )
    receipts: int = strawberry.field(description="Idempotency receipts deleted.")
    jobs: int = strawberry.field(description="Jobs deleted (their payload named erased data).")
    job_contexts: int = strawberry.field(
        description="Jobs kept whose earlier messages (the context of a later async write) "
        "lost the erased messages."
    )
    profiles_cleared: int = strawberry.field(
        description="Entity profiles cleared (derived from erased facts; rebuilt by a job)."
    )
    nodes: int = strawberry.field(description="Nodes deleted by an agent erase.")
    keys_revoked: int = strawberry.field(
        description="API keys revoked by an agent erase (they named only that agent)."
    )
    audit_id: strawberry.ID | None = strawberry.field(
        description="The audit record of this erase (fact and entity scopes)."
    )


def erase_summary_from(r: EraseReport) -> EraseSummary:
    return EraseSummary(
        scope=r.scope,
        facts=r.facts,
        events=r.events,
        documents=r.documents,
        entities=r.entities,
        relations_deleted=r.relations_deleted,
        relations_updated=r.relations_updated,
        observations=r.observations,
        audits_scrubbed=r.audits_scrubbed,
        receipts=r.receipts,
        jobs=r.jobs,
        job_contexts=r.job_contexts,
        profiles_cleared=r.profiles_cleared,
        nodes=r.nodes,
        keys_revoked=r.keys_revoked,
        audit_id=strawberry.ID(r.audit_id) if r.audit_id else None,
    )


@strawberry.type(description="Result of an erase.")
class ErasePayload:
    summary: EraseSummary | None = strawberry.field(
        default=None, description="What was removed (null on error)."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )
