"""A page of 100 entities with nested facts, aliases and relationships costs a bounded number
of Cypher round trips (DataLoaders batch the nested fields)."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import HashEmbedder
from tests.fakes import RecordingExecutor
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j


async def test_page_of_100_entities_costs_five_queries(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    people = [f"Person Number {i:03d}" for i in range(100)]
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[
            StructuredEntity(name=p, type="person", aliases=[f"P{i:03d}x"])
            for i, p in enumerate(people)
        ],
        facts=[
            StructuredFact(text=f"{p} likes hiking in the mountains", subject=p) for p in people
        ],
        relations=[
            StructuredRelation(source=people[i], target=people[i + 1], type="knows")
            for i in range(99)
        ],
    )
    recording = RecordingExecutor(executor)
    services = memory_for(recording, hash_embedder)
    res = await gql(
        services,
        """query($a: ID!) { entities(agentId: $a, first: 100) {
        totalCount edges { node { key aliases facts { text } relationships { type } } } } }""",
        {"a": agent_id},
    )
    assert res.errors is None
    edges = res.data["entities"]["edges"]
    assert len(edges) == 100 and all(len(e["node"]["facts"]) == 1 for e in edges)
    assert all(len(e["node"]["aliases"]) >= 1 for e in edges)
    assert sorted(recording.names) == [
        "browse/aliases_by_entities",
        "browse/entities_count",
        "browse/entities_page",
        "browse/facts_by_entities",
        "browse/relationships_by_entities",
    ]
    assert recording.round_trips == 5


async def test_history_of_a_page_of_entities_is_one_query(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    """``Entity.history`` is batched (it cost one query per entity)."""
    people = [f"Person Number {i:03d}" for i in range(50)]
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity(name=p, type="person") for p in people],
        facts=[
            StructuredFact(text=f"{p} likes hiking in the mountains", subject=p) for p in people
        ],
        relations=[
            StructuredRelation(source=people[i], target=people[i + 1], type="knows")
            for i in range(49)
        ],
    )
    recording = RecordingExecutor(executor)
    services = memory_for(recording, hash_embedder)
    res = await gql(
        services,
        """query($a: ID!) { entities(agentId: $a, first: 50) {
        edges { node { key history(limit: 5) { change text } } } } }""",
        {"a": agent_id},
    )
    assert res.errors is None, res.errors
    edges = res.data["entities"]["edges"]
    assert len(edges) == 50
    # fact added + relationship(s) added, newest first, per entity
    assert all(1 <= len(e["node"]["history"]) <= 5 for e in edges)
    assert any(len(e["node"]["history"]) == 3 for e in edges)  # 1 fact + 2 relationships
    assert sorted(recording.names) == [
        "browse/entities_count",
        "browse/entities_page",
        "browse/history_by_entities",
    ]
    assert recording.round_trips == 3


async def test_relationships_are_capped_per_entity(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    """``Entity.relationships`` takes ``first`` (1..500), newest first."""
    hub, spokes = "Hub Person", [f"Spoke {i:02d}" for i in range(12)]
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity(name=n, type="person") for n in [hub, *spokes]],
        relations=[StructuredRelation(source=hub, target=s, type="knows") for s in spokes],
    )
    services = memory_for(executor, hash_embedder)
    query = """query($a: ID!, $n: Int!) { entity(agentId: $a, key: "person:hub_person") {
        relationships(first: $n) { type } } }"""
    res = await gql(services, query, {"a": agent_id, "n": 5})
    assert res.errors is None, res.errors
    assert len(res.data["entity"]["relationships"]) == 5
    res = await gql(services, query, {"a": agent_id, "n": 100})
    assert len(res.data["entity"]["relationships"]) == 12
    res = await gql(services, query, {"a": agent_id, "n": 501})
    assert res.errors[0].extensions["code"] == "BAD_INPUT"
