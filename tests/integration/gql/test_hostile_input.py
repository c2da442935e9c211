"""Hostile requests: none delays a concurrent request, and the big ones are refused whole (or
bounded) before any work.

The hostile ``retrieve`` is held inside the planner's text work until the test has received the
answer of a concurrent ``health`` query. When that text work runs in a worker thread the loop
serves ``health`` meanwhile; if it ran on the event loop, the loop itself would be the one
waiting, ``health`` could not be answered, and the planner's wait would end by its own timeout
(recorded as a failure). The outcome does not depend on timing luck.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever, planner
from graph.providers import HashEmbedder
from server.app import create_app
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import http_client, load_story, memory_for
from tests.unit.gql.test_fragment_chains import chain

pytestmark = pytest.mark.neo4j

HOSTILE = "k" * 24 + " x"  # 3 s of backtracking in the old casual-query regex, doubling per 2 chars
HOLD_S = 8.0


async def test_hostile_retrieve_does_not_delay_a_concurrent_health_query(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await load_story(executor, hash_embedder, agent_id)
    entered, release = threading.Event(), threading.Event()
    released_by_test: list[bool] = []
    real_casual_plan = planner.casual_plan

    def held_casual_plan(query: str) -> Any:
        if query == HOSTILE and not entered.is_set():
            entered.set()
            released_by_test.append(release.wait(HOLD_S))
        return real_casual_plan(query)

    monkeypatch.setattr(planner, "casual_plan", held_casual_plan)
    app = create_app(Settings(auth_disabled=True), memory=memory_for(executor, hash_embedder))
    hostile = {
        "query": "query($a: ID!, $q: String!) { retrieve(agentId: $a, query: $q) "
        "{ plan { strategy } } }",
        "variables": {"a": agent_id, "q": HOSTILE},
    }
    async with http_client(app) as client:
        slow = asyncio.create_task(client.post("/graphql", json=hostile))
        while not entered.is_set():  # the hostile request is inside the planner now
            await asyncio.sleep(0.01)
            assert not slow.done(), slow.result().text
        health = await client.post("/graphql", json={"query": "{ health { embedder } }"})
        assert health.json()["data"]["health"]["embedder"] == hash_embedder.name
        assert not slow.done()  # the hostile request is still being held
        release.set()
        answer = (await slow).json()
    assert released_by_test == [True]  # released by the test, not by the hold timeout
    assert answer["data"]["retrieve"]["plan"]["strategy"] == "MULTI_SIGNAL"


async def test_a_fragment_chain_is_refused_over_http_and_the_app_keeps_answering(
    executor: Executor,
    hash_embedder: HashEmbedder,
) -> None:
    # 30 fragments, each spreading the next twice: 2^30 paths for a walk that expands spreads.
    # Refused as BAD_INPUT by the linear pre-pass (an exponential walk would not return here).
    app = create_app(Settings(auth_disabled=True), memory=memory_for(executor, hash_embedder))
    async with http_client(app) as client:
        refused = await client.post("/graphql", json={"query": chain(30)})
        health = await client.post("/graphql", json={"query": "{ health { embedder } }"})
    errors = refused.json()["errors"]
    assert [e["extensions"]["code"] for e in errors] == ["BAD_INPUT"]
    assert errors[0]["extensions"]["reason"] == "fragments"
    assert "data" not in refused.json() or refused.json()["data"] is None
    assert health.json()["data"]["health"]["embedder"] == hash_embedder.name


REMEMBER = """mutation($a: ID!, $f: [FactInput!]) {
  remember(agentId: $a, facts: $f) { summary { factsAdded } errors { code message } } }"""


async def test_a_big_remember_does_not_hold_the_event_loop(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``remember`` prepares its rows (names resolved, texts normalised, languages detected:
    ~0.4 s for a 2 MB call) in a worker thread: held there, a concurrent health query is
    answered (same reasoning as above)."""
    import importlib

    remember_module = importlib.import_module("graph.memory.remember.prepare")
    entered, release = threading.Event(), threading.Event()
    released_by_test: list[bool] = []
    real_fact_props = remember_module.fact_props

    def held_fact_props(*args: Any, **kwargs: Any) -> Any:
        if not entered.is_set():
            entered.set()
            released_by_test.append(release.wait(HOLD_S))
        return real_fact_props(*args, **kwargs)

    monkeypatch.setattr(remember_module, "fact_props", held_fact_props)
    app = create_app(Settings(auth_disabled=True), memory=memory_for(executor, hash_embedder))
    facts = [{"text": f"Ana fact {i}: " + "words " * 300, "subject": "Ana"} for i in range(500)]
    async with http_client(app) as client:
        slow = asyncio.create_task(
            client.post(
                "/graphql", json={"query": REMEMBER, "variables": {"a": agent_id, "f": facts}}
            )
        )
        while not entered.is_set():
            await asyncio.sleep(0.01)
            assert not slow.done(), slow.result().text
        health = await client.post("/graphql", json={"query": "{ health { embedder } }"})
        assert health.json()["data"]["health"]["embedder"] == hash_embedder.name
        assert not slow.done()
        release.set()
        answer = (await slow).json()
    assert released_by_test == [True]
    assert answer["data"]["remember"]["summary"]["factsAdded"] == 500


class CountingRetriever(Retriever):
    """The real retriever, counting its calls."""

    calls = 0

    async def retrieve(self, *args: Any, **kwargs: Any) -> Any:
        CountingRetriever.calls += 1
        return await super().retrieve(*args, **kwargs)


async def test_an_alias_battery_is_refused_whole_before_any_retrieval(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
) -> None:
    """30 aliased retrieves, each reranked by the LLM: 150 requests of a 60-a-minute budget.
    Refused whole (RATE_LIMITED) before any retrieval runs; a concurrent key is unaffected."""
    import dataclasses

    from tests.fakes import ScriptedLLM

    memory = memory_for(executor, hash_embedder, llm=ScriptedLLM().chat())
    memory = dataclasses.replace(
        memory,
        retriever=CountingRetriever(executor, hash_embedder, memory.llm, memory.retrieve_config),
    )
    app = create_app(Settings(auth_disabled=True, rate_limit_per_minute=60), memory=memory)
    battery = " ".join(
        f'r{i}: retrieve(agentId: "{agent_id}", query: "q{i}") {{ context }}' for i in range(30)
    )
    CountingRetriever.calls = 0
    async with http_client(app) as client:
        body = (await client.post("/graphql", json={"query": f"{{ {battery} }}"})).json()
        assert body["data"] is None
        assert body["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        health = await client.post("/graphql", json={"query": "{ health { embedder } }"})
        assert health.status_code == 200
    assert CountingRetriever.calls == 0


async def test_huge_recent_messages_are_bounded_in_an_async_write(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
) -> None:
    """A write carrying 200 earlier messages of 9,400 characters (1.9 MB): one event stored,
    and its job keeps what a prompt would get (5 messages of at most 2,000 characters)."""
    from graph.memory.jobs import JobQueue

    app = create_app(Settings(auth_disabled=True), memory=memory_for(executor, hash_embedder))
    write = (
        'mutation($a: ID!, $r: [String!]) { write(agentId: $a, speakerName: "Ana", '
        'message: "I live in Porto.", recentMessages: $r, async: true) '
        "{ queued { jobId } errors { code } } }"
    )
    huge = [f"m{i} " + "x " * 4_700 for i in range(200)]
    async with http_client(app) as client:
        body = (
            await client.post(
                "/graphql", json={"query": write, "variables": {"a": agent_id, "r": huge}}
            )
        ).json()
    assert body["data"]["write"]["errors"] == [], body
    job = await JobQueue(executor).get(body["data"]["write"]["queued"]["jobId"])
    assert job is not None
    kept = job.payload["recent_messages"]
    assert len(kept) == 5 and all(len(m) <= 2_000 for m in kept)
    counts = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    assert sum(r["nodes"] for r in counts if r["label"] == "Event") == 1


async def test_a_40k_item_remember_facts_over_mcp_is_refused_whole(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
) -> None:
    """40,000 facts in one MCP ``remember_facts`` call over HTTP (1.2 MB, under the body
    limit): a BAD_INPUT tool error before any work, nothing written."""
    from tests.integration.mcp.test_mcp_http import mcp_client

    facts = [{"text": f"f{i}", "subject": "A"} for i in range(40_000)]
    async with mcp_client(executor, hash_embedder, {}, auth_disabled=True) as client:
        res = await client.call_tool("remember_facts", {"agent_id": agent_id, "facts": facts})
        assert res.is_error
        assert json.loads(res.content[0].text)["error"]["code"] == "BAD_INPUT"
        ok = await client.call_tool("list_facts", {"agent_id": agent_id})
        assert not ok.is_error
    counts = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    assert [r for r in counts if r["nodes"]] == []
