"""Facts: the atomic statements memory holds, with their validity and version chain."""

from __future__ import annotations

from datetime import datetime

import strawberry

from gql.context import Info
from gql.loaders import FactKey
from gql.types.common import PageInfo, page_info
from gql.types.enums import FactKind, to_api
from gql.types.event import Event
from gql.types.relationship import Relationship
from graph.memory.browse import FactRow, Page

__all__ = ["Fact", "FactConnection", "FactEdge", "fact_connection"]


@strawberry.type(description="One statement the agent remembers, e.g. 'Clara works at Vertix'.")
class Fact:
    agent_id: strawberry.Private[str]
    id: strawberry.ID = strawberry.field(description="Stable fact id (UUID).")
    text: str = strawberry.field(description="The fact as a sentence.")
    subject_key: str | None = strawberry.field(
        description="Key of the entity the fact is about (`person:clara_rezende`)."
    )
    kind: FactKind | None = strawberry.field(
        description="What kind of statement it is (null for a kind this version does not know)."
    )
    confidence: float | None = strawberry.field(description="Extraction confidence, 0..1.")
    importance: float | None = strawberry.field(description="Importance, 0..1.")
    importance_category: str | None = strawberry.field(
        description="Coarse importance bucket (e.g. core, useful, trivia)."
    )
    temporal_class: str | None = strawberry.field(
        description="`persistent`, or `temporal` (true for a while; see `validUntil`)."
    )
    categories: list[str] = strawberry.field(description="Topic categories.")
    language: str | None = strawberry.field(description="Language code of the text.")
    speaker: str | None = strawberry.field(description="Who said it.")
    valid_from: datetime | None = strawberry.field(description="When it became true.")
    valid_to: datetime | None = strawberry.field(
        description="When it stopped being true (set when a newer version supersedes it)."
    )
    valid_until: datetime | None = strawberry.field(
        description="Expiry announced by the fact itself (time-bound facts)."
    )
    invalidated_at: datetime | None = strawberry.field(
        description="When the system learned it was wrong (retraction / forget)."
    )
    created_at: datetime | None = strawberry.field(description="When memory stored it.")
    last_confirmed_at: datetime | None = strawberry.field(
        description="When it was last repeated or confirmed."
    )
    reinforcement_count: int | None = strawberry.field(description="How many times it was stated.")
    review_needed: bool = strawberry.field(
        description="A reconciliation decision on it was uncertain; a human should check."
    )
    primary: bool | None = strawberry.field(
        description="Within an entity's facts: true when the entity is the fact's subject."
    )
    supersedes: list[strawberry.ID] = strawberry.field(
        description="Within a history: ids of the versions this one replaced."
    )

    @strawberry.field(description="True when neither ended (`validTo`) nor invalidated.")
    def active(self) -> bool:
        return self.valid_to is None and self.invalidated_at is None

    @strawberry.field(
        description="The evidence: the messages this fact was extracted from, oldest first (at "
        "most 20), as stored, so redacted when the PII policy redacts. Empty for a fact "
        "imported without a message."
    )
    async def evidence(self, info: Info) -> list[Event]:
        rows = await info.context.loaders.evidence.load(FactKey(self.agent_id, str(self.id)))
        return [Event.from_row(e) for e in rows]

    @strawberry.field(
        description="Relationships this fact is evidence for, current and past, oldest first "
        "(at most 100), each seen from its source. Forgetting the fact ends those of them "
        "that no other active fact supports."
    )
    async def cascades(self, info: Info) -> list[Relationship]:
        rows = await info.context.loaders.cascades.load(FactKey(self.agent_id, str(self.id)))
        return [Relationship.from_row(r, r.source_key) for r in rows]

    @classmethod
    def from_row(cls, row: FactRow, agent_id: str) -> Fact:
        return cls(
            agent_id=agent_id,
            id=strawberry.ID(row.id),
            text=row.text,
            subject_key=row.subject_key,
            kind=to_api(FactKind, row.kind),
            confidence=row.confidence,
            importance=row.importance,
            importance_category=row.importance_category,
            temporal_class=row.temporal_class,
            categories=list(row.categories or []),
            language=row.language,
            speaker=row.speaker,
            valid_from=row.valid_from,
            valid_to=row.valid_to,
            valid_until=row.valid_until,
            invalidated_at=row.invalidated_at,
            created_at=row.created_at,
            last_confirmed_at=row.last_confirmed_at,
            reinforcement_count=row.reinforcement_count,
            review_needed=bool(row.review_needed),
            primary=row.primary,
            supersedes=[strawberry.ID(s) for s in row.supersedes],
        )


@strawberry.type(description="A fact and its cursor.")
class FactEdge:
    node: Fact = strawberry.field(description="The fact.")
    cursor: str = strawberry.field(description="Opaque cursor of this fact.")


@strawberry.type(description="A page of facts (Relay connection), newest first.")
class FactConnection:
    edges: list[FactEdge] = strawberry.field(description="The facts of this page.")
    page_info: PageInfo = strawberry.field(description="Pagination state.")


def fact_connection(agent_id: str, page: Page[FactRow]) -> FactConnection:
    edges = [
        FactEdge(node=Fact.from_row(f, agent_id), cursor=c)
        for f, c in zip(page.items, page.cursors, strict=True)
    ]
    return FactConnection(
        edges=edges,
        page_info=page_info(page),
    )
