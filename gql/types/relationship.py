"""Relationships between entities: typed, versioned edges, seen from one of their ends."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from graph.memory.browse import RelationshipRow

__all__ = ["Relationship", "RelationshipDirection", "direction_of"]


@strawberry.enum(description="Which way an edge runs, seen from the entity it was asked about.")
class RelationshipDirection(Enum):
    OUTGOING = strawberry.enum_value(
        "OUTGOING", description="The entity is the source: `entity -[type]-> other`."
    )
    INCOMING = strawberry.enum_value(
        "INCOMING", description="The entity is the target: `other -[type]-> entity`."
    )


def direction_of(row: RelationshipRow, entity_key: str) -> RelationshipDirection:
    """OUTGOING when the entity starts the edge (self-loops included), else INCOMING."""
    if row.source_key == entity_key:
        return RelationshipDirection.OUTGOING
    return RelationshipDirection.INCOMING


@strawberry.type(
    description="A typed, versioned relationship between two entities, read as "
    "`source -[type]-> target` (e.g. `Guilherme -[lives_in]-> Lisboa`), with its direction "
    "and other end as seen from the entity whose relationships were asked for."
)
class Relationship:
    id: strawberry.ID | None = strawberry.field(description="Relationship id.")
    type: str = strawberry.field(description="snake_case relationship type, e.g. `works_at`.")
    source_key: str = strawberry.field(description="Key of the entity the edge starts at.")
    source_name: str | None = strawberry.field(description="Name of the source entity.")
    target_key: str = strawberry.field(
        description="Key of the entity the edge points to. For an INCOMING edge this is the "
        "entity asked about; `otherKey` is the far end either way."
    )
    target_name: str | None = strawberry.field(description="Name of the target entity.")
    direction: RelationshipDirection = strawberry.field(
        description="OUTGOING when the entity asked about is the source, INCOMING when it is "
        "the target."
    )
    other_key: str = strawberry.field(
        description="Key of the entity at the other end (the target of an OUTGOING edge, the "
        "source of an INCOMING one)."
    )
    other_name: str | None = strawberry.field(description="Name of the entity at the other end.")
    strength: float | None = strawberry.field(description="Strength, 0..1.")
    mentions: int | None = strawberry.field(description="How often it was mentioned.")
    confidence: float | None = strawberry.field(description="Confidence, 0..1.")
    valid_from: datetime | None = strawberry.field(description="When it became true.")
    valid_to: datetime | None = strawberry.field(description="When it ended.")
    invalidated_at: datetime | None = strawberry.field(
        description="When it was invalidated (e.g. its evidence fact was retracted)."
    )
    evidence_fact_id: strawberry.ID | None = strawberry.field(
        description="The fact that supports this relationship."
    )
    created_at: datetime | None = strawberry.field(description="When memory stored it.")

    @strawberry.field(description="True when neither ended nor invalidated.")
    def active(self) -> bool:
        return self.valid_to is None and self.invalidated_at is None

    @classmethod
    def from_row(cls, r: RelationshipRow, entity_key: str) -> Relationship:
        """The edge ``r`` as seen from ``entity_key`` (one of its two ends)."""
        direction = direction_of(r, entity_key)
        outgoing = direction is RelationshipDirection.OUTGOING
        return cls(
            id=strawberry.ID(r.id) if r.id else None,
            type=r.type,
            source_key=r.source_key,
            source_name=r.source_name,
            target_key=r.target_key,
            target_name=r.target_name,
            direction=direction,
            other_key=r.target_key if outgoing else r.source_key,
            other_name=r.target_name if outgoing else r.source_name,
            strength=r.strength,
            mentions=r.mentions,
            confidence=r.confidence,
            valid_from=r.valid_from,
            valid_to=r.valid_to,
            invalidated_at=r.invalidated_at,
            evidence_fact_id=strawberry.ID(r.evidence_fact_id) if r.evidence_fact_id else None,
            created_at=r.created_at,
        )
