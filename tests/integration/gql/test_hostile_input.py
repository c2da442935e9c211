"""A hostile query does not delay a concurrent request (issue 12, point 2).

The hostile ``retrieve`` is held inside the planner's text work until the test has received the
answer of a concurrent ``health`` query. When that text work runs in a worker thread the loop
serves ``health`` meanwhile; if it ran on the event loop, the loop itself would be the one
waiting, ``health`` could not be answered, and the planner's wait would end by its own timeout
(recorded as a failure). The outcome does not depend on timing luck.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.read import planner
from graph.providers import HashEmbedder
from server.app import create_app
from server.settings import Settings
from tests.integration.gql.support import http_client, load_story, memory_for

pytestmark = pytest.mark.neo4j

HOSTILE = "k" * 24 + " x"  # 3 s of backtracking in the old casual-query regex, doubling per 2 chars
HOLD_S = 8.0


async def test_hostile_retrieve_does_not_delay_a_concurrent_health_query(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str,
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
    hostile = {"query": "query($a: ID!, $q: String!) { retrieve(agentId: $a, query: $q) "
                        "{ plan { strategy } } }",
               "variables": {"a": agent_id, "q": HOSTILE}}
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


REMEMBER = """mutation($a: ID!, $f: [FactInput!]) {
  remember(agentId: $a, facts: $f) { summary { factsAdded } errors { code message } } }"""


async def test_a_big_remember_does_not_hold_the_event_loop(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``remember`` prepares its rows (names resolved, texts normalised, languages detected:
    ~0.4 s for a 2 MB call) in a worker thread: held there, a concurrent health query is
    answered (same reasoning as above)."""
    import importlib

    remember_module = importlib.import_module("graph.memory.write.remember")
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
        slow = asyncio.create_task(client.post("/graphql", json={
            "query": REMEMBER, "variables": {"a": agent_id, "f": facts}}))
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
