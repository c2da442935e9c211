"""A page of 100 entities with nested facts, aliases and relationships costs a bounded number
of Cypher round trips (DataLoaders batch the nested fields)."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation, remember
from graph.providers import HashEmbedder
from tests.fakes import RecordingExecutor
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j


async def test_page_of_100_entities_costs_five_queries(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    people = [f"Person Number {i:03d}" for i in range(100)]
    await remember(
        executor, hash_embedder, agent_id,
        entities=[StructuredEntity(name=p, type="person", aliases=[f"P{i:03d}x"])
                  for i, p in enumerate(people)],
        facts=[StructuredFact(text=f"{p} likes hiking in the mountains", subject=p)
               for p in people],
        relations=[StructuredRelation(source=people[i], target=people[i + 1], type="knows")
                   for i in range(99)],
    )
    recording = RecordingExecutor(executor)
    services = memory_for(recording, hash_embedder)
    res = await gql(services, """query($a: ID!) { entities(agentId: $a, first: 100) {
        totalCount edges { node { key aliases facts { text } relationships { type } } } } }""",
                    {"a": agent_id})
    assert res.errors is None
    edges = res.data["entities"]["edges"]
    assert len(edges) == 100 and all(len(e["node"]["facts"]) == 1 for e in edges)
    assert all(len(e["node"]["aliases"]) >= 1 for e in edges)
    assert sorted(recording.names) == [
        "api/aliases_by_entities", "api/entities_count", "api/entities_page",
        "api/facts_by_entities", "api/relationships_by_entities",
    ]
    assert recording.round_trips == 5
