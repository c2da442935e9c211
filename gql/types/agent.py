"""An agent the caller may read, with the size of its memory (``Query.agents``), and what the
caller's key grants (``Query.viewer``)."""

from __future__ import annotations

import strawberry

from graph.memory.browse.agents import AgentPage as AgentPageRow
from graph.memory.browse.agents import AgentSummary as AgentSummaryRow

__all__ = ["AgentPage", "AgentSummary", "Viewer"]


@strawberry.type(
    description="What the calling API key grants, so a client offers only what it may do."
)
class Viewer:
    admin: bool = strawberry.field(
        description="An admin key: may read every agent and erase (`eraseFact`, "
        "`eraseEntity`, `eraseAgent`). Also true when authentication is off."
    )
    all_agents: bool = strawberry.field(
        description="The key covers every agent of its tenant rather than a named list."
    )
    agents: list[str] = strawberry.field(
        description="The agent ids the key names (empty for an admin or all-agents key)."
    )


@strawberry.type(description="An agent the API key may read and how much it remembers.")
class AgentSummary:
    agent_id: strawberry.ID = strawberry.field(description="The agent (memory owner) id.")
    facts: int = strawberry.field(description="Active facts (not superseded or forgotten).")
    entities: int = strawberry.field(description="Entities (merged duplicates not counted).")
    relations: int = strawberry.field(description="Active relationships between its entities.")
    events: int = strawberry.field(description="Stored messages (events).")

    @classmethod
    def from_row(cls, row: AgentSummaryRow) -> AgentSummary:
        return cls(
            agent_id=strawberry.ID(row.agent_id),
            facts=row.facts,
            entities=row.entities,
            relations=row.relations,
            events=row.events,
        )


@strawberry.type(description="A page of the agents the API key may read, ordered by id.")
class AgentPage:
    items: list[AgentSummary] = strawberry.field(description="The agents of this page.")
    total_count: int = strawberry.field(description="Agents matching, on every page.")
    has_next_page: bool = strawberry.field(description="Another page follows.")
    end_cursor: str | None = strawberry.field(
        description="Pass as `after` for the next page (null: this page is empty)."
    )

    @classmethod
    def from_page(cls, page: AgentPageRow) -> AgentPage:
        return cls(
            items=[AgentSummary.from_row(a) for a in page.agents],
            total_count=page.total,
            has_next_page=page.has_next,
            end_cursor=page.end_cursor,
        )
