"""One agent's memory at a glance: counts, most important entities, newest observations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor
from graph.memory.browse.queries import check_limit, observations
from graph.memory.browse.rows import ObservationRow

__all__ = ["AgentOverview", "agent_overview"]


@dataclass(frozen=True)
class AgentOverview:
    """Counts of what the agent's memory holds and what matters most in it."""

    agent_id: str
    entities: int = 0
    active_facts: int = 0
    events: int = 0
    documents: int = 0
    top_entities: list[dict[str, Any]] = field(default_factory=list)
    observations: list[ObservationRow] = field(default_factory=list)


async def agent_overview(
    ex: Executor, agent_id: str, top: int = 15, recent_observations: int = 10
) -> AgentOverview:
    """The agent's counts, its ``top`` most important entities (with a summary and the number
    of active facts about each) and its newest observations."""
    check_limit(top, "top", 100)
    rows = await ex.run("browse/agent_overview", {"agent_id": agent_id, "top": top}, read=True)
    r = rows[0] if rows else {}
    return AgentOverview(
        agent_id=agent_id,
        entities=int(r.get("entities") or 0),
        active_facts=int(r.get("active_facts") or 0),
        events=int(r.get("events") or 0),
        documents=int(r.get("documents") or 0),
        top_entities=[dict(e) for e in r.get("top") or []],
        observations=await observations(ex, agent_id, recent_observations)
        if recent_observations
        else [],
    )
