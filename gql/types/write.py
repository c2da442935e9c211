"""Types of `write` and `remember`: per-message outcomes, async writes, structured imports."""

from __future__ import annotations

from datetime import datetime

import strawberry

from gql.errors import UserError
from gql.types.enums import FactKind, RememberSection, WriteAction, WriteMode
from graph.memory.write.models import FactChange as WriteFactChange
from graph.memory.write.models import WriteResult

__all__ = [
    "EntityInput",
    "FactChange",
    "FactInput",
    "QueuedWrite",
    "RelationInput",
    "RememberPayload",
    "RememberSummary",
    "WriteOutcome",
    "WritePayload",
    "write_outcome_from",
]


@strawberry.type(description="One fact decision made by `write`.")
class FactChange:
    id: strawberry.ID = strawberry.field(description="Fact id.")
    text: str = strawberry.field(description="Fact text.")
    subject_key: str = strawberry.field(description="Subject entity key.")
    action: WriteAction = strawberry.field(description="ADD, UPDATE, NOOP or DELETE.")
    target_id: strawberry.ID | None = strawberry.field(description="Fact it replaced or removed.")
    reason: str | None = strawberry.field(description="Why.")
    review_needed: bool = strawberry.field(description="Uncertain decision: check it.")


@strawberry.type(description="What one `write` did.")
class WriteOutcome:
    success: bool = strawberry.field(description="False when nothing usable could be stored.")
    error: str | None = strawberry.field(
        default=None,
        description="Why `success` is false, e.g. the LLM was unavailable: the message is kept "
        "and extracted again later (null on success).",
    )
    event_id: strawberry.ID | None = strawberry.field(description="The stored message.")
    facts_added: list[FactChange] = strawberry.field(description="New facts.")
    facts_updated: list[FactChange] = strawberry.field(description="Facts superseded by new ones.")
    facts_unchanged: list[FactChange] = strawberry.field(description="Facts already known.")
    facts_deleted: list[FactChange] = strawberry.field(description="Facts retracted.")
    entities: list[str] = strawberry.field(description="Keys of entities resolved or created.")
    warnings: list[str] = strawberry.field(description="Stages that degraded (never fatal).")
    llm_calls: int = strawberry.field(description="LLM calls made (0 in offline mode).")
    tokens_used: int = strawberry.field(description="LLM tokens used.")
    mode: WriteMode = strawberry.field(description="Write mode in force.")
    dry_run: bool = strawberry.field(description="True when nothing was persisted.")
    duration_ms: float = strawberry.field(description="Server-side time taken.")


def _change(c: WriteFactChange) -> FactChange:
    return FactChange(
        id=strawberry.ID(c.id),
        text=c.text,
        subject_key=c.subject_key,
        action=WriteAction(c.action),
        target_id=strawberry.ID(c.target_id) if c.target_id else None,
        reason=c.reason,
        review_needed=bool(c.review_needed),
    )


def write_outcome_from(r: WriteResult) -> WriteOutcome:
    """Map ``graph.memory.write.WriteResult`` to the API type."""
    keys = [str(e.get("key")) for e in r.entities_resolved if isinstance(e, dict) and e.get("key")]
    return WriteOutcome(
        success=r.success,
        error=r.error,
        event_id=strawberry.ID(r.event_id) if r.event_id else None,
        facts_added=[_change(c) for c in r.facts_added],
        facts_updated=[_change(c) for c in r.facts_updated],
        facts_unchanged=[_change(c) for c in r.facts_unchanged],
        facts_deleted=[_change(c) for c in r.facts_deleted],
        entities=keys,
        warnings=list(r.warnings),
        llm_calls=r.llm_calls,
        tokens_used=r.tokens_used.total,
        mode=WriteMode(r.mode),
        dry_run=r.dry_run,
        duration_ms=r.duration_ms,
    )


@strawberry.type(description="An async write: the event is stored, a worker job extracts it.")
class QueuedWrite:
    event_id: strawberry.ID | None = strawberry.field(
        description="The stored message (null when the message was empty)."
    )
    job_id: strawberry.ID | None = strawberry.field(
        description="The `extract` job to poll with `job(agentId, id: jobId)`."
    )
    created: bool = strawberry.field(
        description="False when the same idempotency key was seen before (same event and job)."
    )
    warnings: list[str] = strawberry.field(description="Guard and PII notes (never fatal).")


@strawberry.type(description="Result of `write`: the outcome (or the queued job), or errors.")
class WritePayload:
    outcome: WriteOutcome | None = strawberry.field(
        default=None, description="What was stored (null for `async: true`)."
    )
    queued: QueuedWrite | None = strawberry.field(
        default=None, description="The event and extraction job of an `async: true` write."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.input(description="An entity given directly (no extraction).")
class EntityInput:
    name: str = strawberry.field(description="Display name.")
    type: str = strawberry.field(default="thing", description="Lowercase type (person, city...).")
    aliases: list[str] = strawberry.field(default_factory=list, description="Other names.")
    key: str | None = strawberry.field(default=None, description="Key; default `type:slug(name)`.")
    importance: float = strawberry.field(default=0.5, description="Importance, 0..1.")


@strawberry.input(description="A fact given directly. Names, aliases or keys refer to entities.")
class FactInput:
    text: str = strawberry.field(description="The fact as a sentence.")
    subject: str = strawberry.field(description="Entity it is about (name, alias or key).")
    entities: list[str] = strawberry.field(
        default_factory=list, description="Other entities it mentions."
    )
    kind: FactKind = strawberry.field(default=FactKind.FACT, description="Fact kind.")
    confidence: float = strawberry.field(default=0.9, description="Confidence, 0..1.")
    importance: float = strawberry.field(default=0.5, description="Importance, 0..1.")
    valid_from: datetime | None = strawberry.field(default=None, description="When it became true.")
    valid_to: datetime | None = strawberry.field(default=None, description="When it ended.")
    categories: list[str] = strawberry.field(default_factory=list, description="Topics.")


@strawberry.input(description="A relationship between two entities (names, aliases or keys).")
class RelationInput:
    source: str = strawberry.field(description="Source entity.")
    target: str = strawberry.field(description="Target entity.")
    type: str = strawberry.field(description="Relationship type; normalised to snake_case.")
    strength: float = strawberry.field(default=0.8, description="Strength, 0..1.")
    valid_from: datetime | None = strawberry.field(default=None, description="When it began.")


@strawberry.type(description="An input item of `remember` that was not stored, and why.")
class RememberRefusal:
    section: RememberSection = strawberry.field(description="The input list it came from.")
    index: int | None = strawberry.field(
        description="Its position in that list (null: an entity created from a reference)."
    )
    key: str | None = strawberry.field(description="The entity key concerned, when known.")
    reason: str = strawberry.field(description="Why it was not stored.")


@strawberry.type(description="What a structured import did.")
class RememberSummary:
    entities_created: int = strawberry.field(description="New entities.")
    facts_added: int = strawberry.field(description="New facts.")
    facts_unchanged: int = strawberry.field(description="Facts already known (idempotent).")
    relations: int = strawberry.field(description="Relationships created or confirmed.")
    fact_ids: list[strawberry.ID] = strawberry.field(
        description="Ids of the stored facts in input order (an already known fact's id)."
    )
    warnings: list[str] = strawberry.field(description="Inputs that were skipped and why.")
    complete: bool = strawberry.field(
        default=True,
        description="False when a batch failed after earlier batches were stored (each batch "
        "is one transaction): `refused` lists every item not stored and `error` says why.",
    )
    error: str | None = strawberry.field(
        default=None, description="Why the import stopped early (null when complete)."
    )
    refused: list[RememberRefusal] = strawberry.field(
        default_factory=list,
        description="Inputs not stored, and why (skipped relations, or a failed batch).",
    )


@strawberry.type(description="Result of `remember`.")
class RememberPayload:
    summary: RememberSummary | None = strawberry.field(default=None, description="What was stored.")
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )
