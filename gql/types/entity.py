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
from gql.types.relationship import Relationship
from graph.memory import browse
from graph.memory.browse import EntityRow, HistoryRow, Page

__all__ = [
    "Entity",
    "EntityChange",
    "EntityConnection",
    "EntityProfile",
    "entity_connection",
]


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
