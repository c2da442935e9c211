"""Entities (people, places, organisations, ...) with their facts, relationships and aliases."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry

from gql.context import Info
from gql.loaders import AliasKey, FactsKey, HistoryKey, RelsKey
from gql.types.common import PageInfo, page_info
from gql.types.enums import FactKind, to_pipeline
from gql.types.fact import Fact
from graph.memory import browse
from graph.memory.browse import EntityRow, HistoryRow, Page, RelationshipRow

__all__ = [
    "Entity",
    "EntityChange",
    "EntityConnection",
    "EntityProfile",
    "Relationship",
    "RelationshipDirection",
    "direction_of",
    "entity_connection",
]


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


@strawberry.type(description="Generated descriptions of an entity.")
class EntityProfile:
    text: str | None = strawberry.field(description="Profile paragraph built from its facts.")
    summary: str | None = strawberry.field(description="One-line summary.")
    refreshed_at: datetime | None = strawberry.field(description="When the profile was rebuilt.")


@strawberry.enum(description="What happened in one step of an entity's history.")
class ChangeKind(Enum):
    FACT_ADDED = "FACT_ADDED"
    FACT_ENDED = "FACT_ENDED"
    RELATIONSHIP_ADDED = "RELATIONSHIP_ADDED"
    RELATIONSHIP_ENDED = "RELATIONSHIP_ENDED"


@strawberry.type(description="One change in an entity's timeline.")
class EntityChange:
    at: datetime = strawberry.field(description="When it happened (system time).")
    change: ChangeKind = strawberry.field(description="What happened.")
    text: str = strawberry.field(description="The fact text or 'A type B' for relationships.")
    fact_id: strawberry.ID | None = strawberry.field(description="The fact, for fact changes.")
    relationship_id: strawberry.ID | None = strawberry.field(
        description="The relationship, for relationship changes."
    )

    @classmethod
    def from_row(cls, r: HistoryRow) -> EntityChange:
        return cls(
            at=r.at,
            change=ChangeKind(r.change),
            text=r.text,
            fact_id=strawberry.ID(r.fact_id) if r.fact_id else None,
            relationship_id=strawberry.ID(r.rel_id) if r.rel_id else None,
        )


@strawberry.type(description="A person, place, organisation, project... the agent knows about.")
class Entity:
    agent_id: strawberry.Private[str]
    key: str = strawberry.field(description="Stable key `type:slug`, e.g. `person:clara_rezende`.")
    name: str | None = strawberry.field(description="Display name.")
    type: str | None = strawberry.field(description="Free-form lowercase type (person, city...).")
    mentions: int | None = strawberry.field(description="How many times it was mentioned.")
    importance: float | None = strawberry.field(description="Importance, 0..1.")
    source: str | None = strawberry.field(description="How it was created (extraction, import).")
    created_at: datetime | None = strawberry.field(description="When memory first stored it.")
    updated_at: datetime | None = strawberry.field(description="Last change.")
    merged_into: str | None = strawberry.field(
        description="When merged into another entity: that entity's key."
    )
    profile: EntityProfile = strawberry.field(description="Generated profile and summary.")

    @classmethod
    def from_row(cls, agent_id: str, row: EntityRow) -> Entity:
        return cls(
            agent_id=agent_id,
            key=row.key,
            name=row.name,
            type=row.type,
            mentions=row.mentions,
            importance=row.importance,
            source=row.source,
            created_at=row.created_at,
            updated_at=row.updated_at,
            merged_into=row.merged_into,
            profile=EntityProfile(
                text=row.profile_text,
                summary=row.summary_text,
                refreshed_at=row.profile_refreshed_at,
            ),
        )

    @strawberry.field(description="Facts about this entity, newest first.")
    async def facts(
        self,
        info: Info,
        as_of: Annotated[
            datetime | None,
            strawberry.argument(description="Time travel: facts valid and known at this instant."),
        ] = None,
        include_invalidated: Annotated[
            bool, strawberry.argument(description="Also return ended and invalidated facts.")
        ] = False,
        kind: Annotated[FactKind | None, strawberry.argument(description="Only this kind.")] = None,
        limit: Annotated[int, strawberry.argument(description="At most this many (1..100).")] = 50,
    ) -> list[Fact]:
        browse.check_limit(limit, "limit")
        key = FactsKey(
            self.agent_id, self.key, as_of, include_invalidated, to_pipeline(kind), limit
        )
        return [Fact.from_row(f, self.agent_id) for f in await info.context.loaders.facts.load(key)]

    @strawberry.field(
        description="Relationships to other entities, both directions: each says whether this "
        "entity is its source (OUTGOING) or target (INCOMING) and names the other end."
    )
    async def relationships(
        self,
        info: Info,
        as_of: Annotated[
            datetime | None,
            strawberry.argument(description="Time travel: relationships valid at this instant."),
        ] = None,
        include_invalidated: Annotated[
            bool,
            strawberry.argument(description="Also return ended and invalidated relationships."),
        ] = False,
        first: Annotated[
            int,
            strawberry.argument(
                description=f"At most this many, newest first (1..{browse.MAX_RELATIONSHIPS})."
            ),
        ] = 50,
    ) -> list[Relationship]:
        browse.check_limit(first, "first", browse.MAX_RELATIONSHIPS)
        key = RelsKey(self.agent_id, self.key, as_of, include_invalidated, first)
        rows = await info.context.loaders.relationships.load(key)
        return [Relationship.from_row(r, self.key) for r in rows]

    @strawberry.field(description="Other names this entity is known by.")
    async def aliases(self, info: Info) -> list[str]:
        return await info.context.loaders.aliases.load(AliasKey(self.agent_id, self.key))

    @strawberry.field(
        description="Timeline of facts and relationships added and ended, newest first."
    )
    async def history(
        self,
        info: Info,
        limit: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{browse.MAX_HISTORY}).")
        ] = 50,
    ) -> list[EntityChange]:
        browse.check_limit(limit, "limit", browse.MAX_HISTORY)
        rows = await info.context.loaders.history.load(HistoryKey(self.agent_id, self.key, limit))
        return [EntityChange.from_row(r) for r in rows]


@strawberry.type(description="An entity and its cursor.")
class EntityEdge:
    node: Entity = strawberry.field(description="The entity.")
    cursor: str = strawberry.field(description="Opaque cursor of this entity.")


@strawberry.type(description="A page of entities ordered by key (Relay connection).")
class EntityConnection:
    edges: list[EntityEdge] = strawberry.field(description="The entities of this page.")
    page_info: PageInfo = strawberry.field(description="Pagination state.")
    total_count: int | None = strawberry.field(description="How many entities match the filter.")


def entity_connection(agent_id: str, page: Page[EntityRow]) -> EntityConnection:
    edges = [
        EntityEdge(node=Entity.from_row(agent_id, e), cursor=c)
        for e, c in zip(page.items, page.cursors, strict=True)
    ]
    return EntityConnection(
        edges=edges,
        total_count=page.total,
        page_info=page_info(page),
    )
