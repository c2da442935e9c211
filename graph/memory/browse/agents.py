"""The agents a caller may read, with how much each remembers (the explorer's first view).

The caller's scope is given as plain values (named agent ids or every agent, a tenant or none)
so this stays free of the API's key model; ``gql`` maps an API key's principal onto them.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.executor import Executor

__all__ = ["AgentSummary", "agent_summaries"]


@dataclass(frozen=True)
class AgentSummary:
    """One agent's id and the size of its memory (active facts and relations)."""

    agent_id: str
    facts: int = 0
    entities: int = 0
    relations: int = 0
    events: int = 0


async def agent_summaries(
    ex: Executor, agent_ids: list[str] | None, tenant: str | None
) -> list[AgentSummary]:
    """Agents with counts, ordered by id.

    Args:
        agent_ids: the agents a key names (listed even when empty); ``None`` for every agent
            holding data.
        tenant: only agents this tenant owns (named but unclaimed agents are kept); ``None``
            for any tenant (admin).
    """
    rows = await ex.run(
        "browse/agents_summary",
        {"agent_ids": sorted(agent_ids) if agent_ids is not None else None, "tenant": tenant},
        read=True,
    )
    return [
        AgentSummary(
            agent_id=str(r["agent_id"]),
            facts=int(r["facts"] or 0),
            entities=int(r["entities"] or 0),
            relations=int(r["relations"] or 0),
            events=int(r["events"] or 0),
        )
        for r in rows
    ]
