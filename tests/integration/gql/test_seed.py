"""The demo seed loads the whole story and a second run changes nothing."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.spaces import recorded_space
from graph.providers import Embedder
from seed import story
from seed.loader import load_demo
from tests.cypher import load_query
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j


async def test_seed_is_complete_and_idempotent(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    first = await load_demo(memory_for(executor, embedder), agent_id, progress=False)
    assert not first.already_loaded and first.steps[-1] == "marker"
    counts = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    second = await load_demo(memory_for(executor, embedder), agent_id, progress=False)
    assert second.already_loaded
    assert (
        await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
        == counts
    )

    services = memory_for(executor, embedder)
    res = await gql(
        services,
        """query($a: ID!) {
      me: entity(agentId: $a, key: "person:guilherme_maturana") {
        aliases relationships(includeInvalidated: true) { type targetKey active } }
      helena: entity(agentId: $a, key: "person:helena_maturana") {
        relationships(includeInvalidated: true) { type targetKey active invalidatedAt } }
      mergeCandidates(agentId: $a) { keepKey dropKey }
      moves: facts(agentId: $a, includeInvalidated: true, entityKey: "person:guilherme_maturana",
                   first: 50) { edges { node { id text active } } } }""",
        {"a": agent_id},
    )
    assert res.errors is None
    me = res.data["me"]
    assert {"Guili", "Gui Maturana"} <= set(me["aliases"])
    homes = {(r["targetKey"], r["active"]) for r in me["relationships"] if r["type"] == "lives_in"}
    assert ("place:lisboa", True) in homes and ("place:curitiba", False) in homes
    jobs = {(r["targetKey"], r["active"]) for r in me["relationships"] if r["type"] == "works_at"}
    assert jobs >= {("organization:orion_tech", True), ("organization:vertix", False)}
    porto = [r for r in res.data["helena"]["relationships"] if r["targetKey"] == "place:porto"]
    assert porto and porto[0]["active"] is False and porto[0]["invalidatedAt"]
    assert {
        "keepKey": "person:guilherme_maturana",
        "dropKey": "person:guilherme_maturanna",
    } in res.data["mergeCandidates"]
    ended = [e["node"] for e in res.data["moves"]["edges"] if not e["node"]["active"]]
    assert ended, "the moves and the job change must leave superseded versions"
    chain = await gql(
        services,
        "query($a: ID!, $id: ID!) { factHistory(agentId: $a, id: $id) { id } }",
        {"a": agent_id, "id": ended[0]["id"]},
    )
    assert len(chain.data["factHistory"]) >= 2
    assert story.AGENT == "demo"


async def test_a_demo_of_another_embedding_model_is_loaded_anew(
    executor: Executor, embedder: Embedder, hash_embedder: Embedder, agent_id: str
) -> None:
    await load_demo(memory_for(executor, hash_embedder), agent_id, progress=False)
    again = await load_demo(memory_for(executor, embedder), agent_id, progress=False)
    assert not again.already_loaded
    assert again.steps[0] == "removed the earlier demo load" and again.steps[-1] == "marker"
    assert await recorded_space(executor, agent_id) == embedder.name
    third = await load_demo(memory_for(executor, embedder), agent_id, progress=False)
    assert third.already_loaded


async def test_a_demo_of_an_older_seed_version_is_loaded_anew(
    executor: Executor, embedder: Embedder, agent_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(story, "SEED_VERSION", story.SEED_VERSION - 1)
    await load_demo(memory_for(executor, embedder), agent_id, progress=False)
    counts = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    monkeypatch.undo()
    again = await load_demo(memory_for(executor, embedder), agent_id, progress=False)
    assert not again.already_loaded and again.steps[0] == "removed the earlier demo load"
    after = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    assert after == counts  # the story once, not twice
