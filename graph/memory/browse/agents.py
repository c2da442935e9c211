"""The agents a caller may read, with how much each remembers (the explorer's first view).

The caller's scope is given as plain values (named agent ids or every agent, a tenant or none)
so this stays free of the API's key model; ``gql`` maps an API key's principal onto them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor

__all__ = ["MAX_PAGE", "AgentPage", "AgentSummary", "agent_page", "agent_summaries"]

MAX_PAGE = 200


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


@dataclass(frozen=True)
class AgentPage:
    """One page of agents (ordered by id) and how many match in all."""

    agents: list[AgentSummary]
    total: int
    has_next: bool

    @property
    def end_cursor(self) -> str | None:
        """The cursor of the next page: the last agent id of this one."""
        return self.agents[-1].agent_id if self.agents else None


def _summary(r: dict[str, Any]) -> AgentSummary:
    return AgentSummary(
        agent_id=str(r["agent_id"]),
        facts=int(r["facts"] or 0),
        entities=int(r["entities"] or 0),
        relations=int(r["relations"] or 0),
        events=int(r["events"] or 0),
    )


async def agent_page(
    ex: Executor,
    agent_ids: list[str] | None,
    tenant: str | None,
    *,
    search: str | None = None,
    after: str | None = None,
    first: int = 25,
) -> AgentPage:
    """A page of :func:`agent_summaries`' agents: those whose id contains ``search`` (any
    case), after the id ``after``, at most ``first``; only the page's agents are counted.

    Raises:
        BadInput: ``first`` outside 1..200, or a search over 200 characters.
    """
    if not 1 <= first <= MAX_PAGE:
        raise BadInput(f"first must be between 1 and {MAX_PAGE}")
    if search is not None and len(search) > 200:
        raise BadInput("search has at most 200 characters")
    (row,) = await ex.run(
        "browse/agents_page",
        {
            "agent_ids": sorted(agent_ids) if agent_ids is not None else None,
            "tenant": tenant,
            "search": search or None,
            "after": after,
            "first": first,
        },
        read=True,
    )
    return AgentPage([_summary(a) for a in row["agents"]], int(row["total"]), bool(row["more"]))
