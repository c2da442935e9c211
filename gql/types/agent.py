"""An agent the caller may read, with the size of its memory (``Query.agents``)."""

from __future__ import annotations

import strawberry

from graph.memory.browse.agents import AgentSummary as AgentSummaryRow

__all__ = ["AgentSummary"]


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
