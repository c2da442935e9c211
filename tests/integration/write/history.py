"""Test helpers: facts/relationships as of an instant, one fact, a fact's version chain.

Only tests use these (the API reads through ``graph.memory.browse``), so their Cypher lives in
``tests/cypher``; the version chain is the API's own ``browse.fact_history`` query.

``as_of`` is bitemporal (docs/data-model.md): visible when the system knew it
(``created_at <= T < invalidated_at``) and it was valid then (``valid_from <= T < valid_to``).
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from graph.errors import NotFound
from graph.executor import Executor
from graph.memory.browse.queries import fact_history as browse_fact_history
from tests.cypher import load_query

__all__ = ["fact_history", "facts_as_of", "get_fact", "relationships_as_of"]


def _aware(ts: datetime) -> datetime:
    return ts if ts.tzinfo is not None else ts.replace(tzinfo=UTC)


async def facts_as_of(
    executor: Executor,
    agent_id: str,
    as_of: datetime,
    subject_key: str | None = None,
    limit: int = 1000,
) -> list[dict[str, Any]]:
    """Facts of ``agent_id`` known and valid at ``as_of`` (optionally one subject), oldest first."""
    rows = await executor.run_text(
        load_query("history_facts_as_of"),
        {"agent_id": agent_id, "as_of": _aware(as_of), "subject_key": subject_key, "limit": limit},
        read=True,
    )
    return rows


async def relationships_as_of(
    executor: Executor,
    agent_id: str,
    as_of: datetime,
    entity_key: str | None = None,
    limit: int = 1000,
) -> list[dict[str, Any]]:
    """Entity relationships known and valid at ``as_of`` (optionally touching one entity)."""
    rows = await executor.run_text(
        load_query("history_relationships_as_of"),
        {"agent_id": agent_id, "as_of": _aware(as_of), "entity_key": entity_key, "limit": limit},
        read=True,
    )
    return rows


async def fact_history(executor: Executor, agent_id: str, fact_id: str) -> list[dict[str, Any]]:
    """Every version of a fact over SUPERSEDES (older and newer), oldest first.

    Raises:
        NotFound: no such fact for this agent.
    """
    return [
        dataclasses.asdict(row) for row in await browse_fact_history(executor, agent_id, fact_id)
    ]


async def get_fact(executor: Executor, agent_id: str, fact_id: str) -> dict[str, Any]:
    """One fact (without its embedding).

    Raises:
        NotFound: no such fact for this agent.
    """
    rows = await executor.run_text(
        load_query("history_fact_by_id"), {"agent_id": agent_id, "fact_id": fact_id}, read=True
    )
    if not rows:
        raise NotFound(f"fact {fact_id!r} not found")
    fact = dict(rows[0]["fact"])
    fact.pop("embedding", None)
    return fact
