"""What the `agents` listing reads (PROFILE database hits, not timings): a key naming its agents
reads only those agents' data (no scan of every agent's entities and messages); a key for every
agent (admin, operator) counts every agent's facts, entities, relations and messages on each
call, so its cost grows with the database (a documented cost of the admin view:
docs/operations.md)."""

from __future__ import annotations

from typing import Any, LiteralString, cast

import pytest

import cypher
from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact
from graph.providers import Embedder

pytestmark = pytest.mark.neo4j

OTHER_FACTS = 300


def _db_hits(plan: Any) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(c) for c in plan.get("children", []))


async def _profile_hits(executor: Executor, params: dict[str, Any]) -> int:
    raw = executor.driver  # type: ignore[attr-defined]
    async with raw.session(database=executor.database) as session:  # type: ignore[attr-defined]
        query = cast(LiteralString, "PROFILE " + cypher.load("browse/agents_summary"))
        summary = await (await session.run(query, params)).consume()
    assert summary.profile is not None
    return _db_hits(summary.profile)


async def test_a_named_listing_reads_its_agents_and_an_all_agents_one_reads_all(
    executor: Executor, agent_id: str, other_agent: str, hash_embedder: Embedder
) -> None:
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity("Ana", "person")],
        facts=[StructuredFact("Ana lives in Porto", "Ana")],
    )
    await remember(
        executor,
        hash_embedder,
        other_agent,
        entities=[StructuredEntity("Rui", "person")],
        facts=[StructuredFact(f"Rui repaired bicycle number {i}", "Rui") for i in range(300)],
    )
    named = await _profile_hits(executor, {"agent_ids": [agent_id], "tenant": None})
    everyone = await _profile_hits(executor, {"agent_ids": None, "tenant": None})
    assert named < OTHER_FACTS  # the other agent's facts are never read
    assert everyone >= OTHER_FACTS  # every agent's facts are counted, on every call
