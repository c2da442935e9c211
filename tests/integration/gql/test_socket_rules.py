"""The WebSocket door at /graphql keeps the rules HTTP keeps, over the real Neo4j and uvicorn in
the test's event loop: every operation sent over a socket takes the key's rate budget, a
message is bounded like a body, each operation resolves the key again and reads with loaders
of its own, a revoked key or an erased agent ends the socket's subscriptions (and another
tenant that claims the erased id is never watched), sockets are capped per key and per
address, a socket that never authenticates times out as a failed authentication, and an idle
socket closes while a listening subscriber stays."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
import websockets

from graph.executor import Executor
from graph.memory.changes import Position, encode_cursor
from graph.memory.erase import erase_target
from graph.memory.write.models import StructuredFact
from graph.providers import HashEmbedder
from server import auth
from server.app import create_app
from server.auth import ApiKeyStore
from tests.cypher import load_query
from tests.integration.gql.support import memory_for
from tests.integration.gql.ws import (
    ADMIN,
    MEMORY_CHANGED,
    PROTOCOL,
    Served,
    Subscriber,
    connected,
    refusal,
    serving,
    ws_settings,
)

pytestmark = pytest.mark.neo4j

WRITE = """mutation($a: ID!) { write(agentId: $a, speakerName: "Ana",
  message: "I live in Porto.") { outcome { success } } }"""
TWO_REMEMBERS = """mutation($a: ID!) {
  one: remember(agentId: $a, facts: [{text: "Ana lives in Porto", subject: "Ana"}]) { errors { code } }
  two: remember(agentId: $a, facts: [{text: "Ana works at Acme", subject: "Ana"}]) { errors { code } }
}"""
FACTS = """query($a: ID!, $k: String!) { entity(agentId: $a, key: $k) { facts { id text } } }"""
HEALTH = "{ health { ready } }"

KeyMaker = Callable[[list[str]], Awaitable[tuple[str, str]]]


@asynccontextmanager
async def api_with(
    executor: Executor, embedder: HashEmbedder, **settings: Any
) -> AsyncIterator[Served]:
    """The API served with the test settings and ``settings`` over them."""
    memory = memory_for(executor, embedder)
    app = create_app(ws_settings(**settings), memory=memory)
    async with serving(app) as url:
        yield Served(url, memory, app.state.change_feed, app)


@pytest.fixture
async def keys(executor: Executor) -> AsyncIterator[KeyMaker]:
    """Makes ``(key_id, key)`` of a fresh tenant covering the agents given (claimed by it);
    the keys go after the test."""
    tenants: list[str] = []

    async def make(agents: list[str]) -> tuple[str, str]:
        tenants.append(f"tenant-{uuid.uuid4().hex[:8]}")
        return await ApiKeyStore(executor).create(tenants[-1], agents)

    yield make
    for tenant in tenants:
        await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


def outcome(message: dict[str, Any]) -> str:
    """``answered``, or the code of the error an operation's message carries."""
    if message["type"] == "error":
        return str(message["payload"][0]["extensions"]["code"])
    errors = message["payload"].get("errors")
    return str(errors[0]["extensions"]["code"]) if errors else "answered"


def retry_after(message: dict[str, Any]) -> int:
    errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
    return int(errors[0]["extensions"]["retryAfterSeconds"])


async def _fact(memory: Any, agent_id: str, text: str, subject: str = "Lia") -> Any:
    return await memory.admin.remember(
        agent_id, max_items=10, facts=[StructuredFact(text=text, subject=subject)]
    )


async def test_socket_operations_spend_the_keys_rate_budget(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, keys: KeyMaker
) -> None:
    """Five requests a minute: the connection takes one, two aliased mutations take two, so of
    twelve writes after them two are answered; the rest, and a subscription, are refused."""
    _, key = await keys([agent_id])
    async with (
        api_with(executor, hash_embedder, rate_limit_per_minute=5) as api,
        connected(api.url, {"apiKey": key}) as sub,
    ):
        assert outcome(await sub.run("both", TWO_REMEMBERS, {"a": agent_id})) == "answered"
        answers = [await sub.run(f"w{i}", WRITE, {"a": agent_id}) for i in range(12)]
        watch = await sub.run("watch", MEMORY_CHANGED, {"agentId": agent_id})
    assert [outcome(m) for m in answers] == ["answered"] * 2 + ["RATE_LIMITED"] * 10
    assert all(retry_after(m) >= 1 for m in answers[2:])
    assert outcome(watch) == "RATE_LIMITED"


async def test_a_socket_message_is_bounded_like_a_body(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    async with (
        api_with(executor, hash_embedder, max_body_bytes=10_000) as api,
        connected(api.url, {"X-API-Key": ADMIN}) as sub,
    ):
        # Just under the bound: answered.
        assert outcome(await sub.run("small", HEALTH + "\n#" + "x" * 9_000)) == "answered"
        await sub.subscribe("big", HEALTH + "\n#" + "x" * 10_000, {})
        code, reason = await sub.closed()
    assert code == 4413
    assert reason.startswith("BAD_INPUT: message too large"), reason


async def test_each_operation_reads_with_loaders_of_its_own(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    """A fact forgotten between two operations of one socket is not served from the first
    operation's loaders."""
    async with (
        api_with(executor, hash_embedder) as api,
        connected(api.url, {"X-API-Key": ADMIN}) as sub,
    ):
        done = await _fact(api.memory, agent_id, "Lia plays the oboe")
        variables = {"a": agent_id, "k": done.entity_keys["Lia"]}
        first = await sub.run("1", FACTS, variables)
        assert [f["id"] for f in first["payload"]["data"]["entity"]["facts"]] == done.fact_ids
        await api.memory.admin.forget(agent_id, done.fact_ids[0], "not any more")
        second = await sub.run("2", FACTS, variables)
    assert second["payload"]["data"]["entity"]["facts"] == []


async def test_a_revoked_key_loses_its_subscriptions_and_operations(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, keys: KeyMaker
) -> None:
    key_id, key = await keys([agent_id])
    async with (
        api_with(executor, hash_embedder, subscription_recheck_s=0.2) as api,
        connected(api.url, {"apiKey": key}) as sub,
    ):
        await sub.subscribe("watch", MEMORY_CHANGED, {"agentId": agent_id})
        await api.opened(agent_id, 1)
        await api.app.state.key_store.revoke(key_id)
        ended = await sub.message(timeout=5)
        assert (ended["type"], ended["id"], outcome(ended)) == ("next", "watch", "FORBIDDEN")
        assert (await sub.message(timeout=5))["type"] == "complete"
        await api.opened(agent_id, 0)
        assert outcome(await sub.run("after", HEALTH)) == "FORBIDDEN"


async def test_an_erased_agent_ends_its_streams_and_its_next_owner_is_not_watched(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
    keys: KeyMaker,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The agent is erased outside this process (no notice reaches its change feed) and its id
    is claimed at once by another tenant, which writes: the first tenant's stream gets the
    erasure and completes, never the new owner's fact; its next operation is refused."""
    monkeypatch.setattr(auth, "CACHE_TTL_S", 0.0)  # the key's change is seen at once
    _, key = await keys([agent_id])
    async with (
        api_with(executor, hash_embedder) as api,
        connected(api.url, {"apiKey": key}) as sub,
    ):
        await sub.subscribe("watch", MEMORY_CHANGED, {"agentId": agent_id})
        await api.opened(agent_id, 1)
        await _fact(api.memory, agent_id, "Lia plays the oboe")
        assert (await sub.changes(1))[0]["text"] == "Lia plays the oboe"
        await api.memory.erase(erase_target(agent_id, everything=True))
        await keys([agent_id])  # another tenant claims the released id
        await _fact(api.memory, agent_id, "Bo plays the drums", subject="Bo")
        erased = (await sub.changes(1))[0]
        assert (erased["kind"], erased["scope"], erased["text"]) == ("ERASED", "agent", None)
        assert (await sub.message(timeout=5))["type"] == "complete"
        facts = "query($a: ID!) { facts(agentId: $a) { edges { node { text } } } }"
        assert outcome(await sub.run("read", facts, {"a": agent_id})) == "FORBIDDEN"
        # Nothing of the new owner arrives later either.
        with pytest.raises(TimeoutError):
            await sub.message(timeout=0.6)


async def test_erasing_an_agent_through_this_api_ends_its_streams(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    """An agent no tenant owns (the operator's): the erase through this process's API tells
    its change feed."""
    erase = """mutation($a: ID!, $c: String!) { eraseAgent(agentId: $a, confirmAgentId: $c) {
      summary { scope } errors { code } } }"""
    async with (
        api_with(executor, hash_embedder) as api,
        connected(api.url, {"X-API-Key": ADMIN}) as watcher,
        connected(api.url, {"X-API-Key": ADMIN}) as operator,
    ):
        await _fact(api.memory, agent_id, "Lia plays the oboe")
        await watcher.subscribe("watch", MEMORY_CHANGED, {"agentId": agent_id})
        await api.opened(agent_id, 1)
        assert (
            outcome(await operator.run("erase", erase, {"a": agent_id, "c": agent_id}))
            == "answered"
        )
        erased = (await watcher.changes(1))[0]
        assert (erased["kind"], erased["scope"]) == ("ERASED", "agent")
        assert (await watcher.message(timeout=5))["type"] == "complete"


async def test_sockets_are_capped_per_key_and_per_address(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, keys: KeyMaker
) -> None:
    _, first = await keys([agent_id])
    _, second = await keys([agent_id + "-b"])
    async with api_with(
        executor, hash_embedder, max_sockets_per_key=2, max_sockets_per_address=3
    ) as api:
        async with connected(api.url, {"apiKey": first}), connected(api.url, {"apiKey": first}):
            code, reason = await refusal(api.url, {"apiKey": first})
            assert code == 4429 and reason.startswith("RATE_LIMITED: "), (code, reason)
            assert "2 sockets" in reason
            async with connected(api.url, {"apiKey": second}):
                code, reason = await refusal(api.url, {"apiKey": second})
                assert code == 4429 and reason.startswith("RATE_LIMITED: "), (code, reason)
                assert "3 sockets" in reason
        # Closed sockets give their places back.
        async with connected(api.url, {"apiKey": first}), connected(api.url, {"apiKey": first}):
            pass


async def test_a_socket_that_never_authenticates_times_out_as_a_failure(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    """Two sockets that send no ``connection_init``: each closes after the short wait and
    counts as a failed authentication of the address, whose budget (two) is then spent."""
    async with api_with(
        executor,
        hash_embedder,
        socket_init_timeout_s=0.3,
        auth_failures_per_address_per_minute=2,
    ) as api:
        for _ in range(2):
            async with websockets.connect(f"{api.url}/graphql", subprotocols=[PROTOCOL]) as ws:
                code, _ = await Subscriber(ws).closed(timeout=3)
                assert code == 4408
        code, reason = await refusal(api.url, {"X-API-Key": ADMIN})
    assert code == 4429 and "failed authentications" in reason, (code, reason)


async def test_an_idle_socket_closes_and_a_listening_subscriber_stays(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    async with (
        api_with(executor, hash_embedder, socket_idle_timeout_s=0.5) as api,
        connected(api.url, {"X-API-Key": ADMIN}) as idle,
        connected(api.url, {"X-API-Key": ADMIN}) as listener,
    ):
        await listener.subscribe("watch", MEMORY_CHANGED, {"agentId": agent_id})
        await api.opened(agent_id, 1)
        code, reason = await idle.closed(timeout=3)
        assert (code, reason.split(":")[0]) == (1000, "IDLE")
        await asyncio.sleep(0.5)  # the listener has been silent past the idle time as well
        await _fact(api.memory, agent_id, "Lia plays the oboe")
        assert (await listener.changes(1))[0]["text"] == "Lia plays the oboe"


async def test_a_cursor_from_year_one_is_bad_input_without_a_traceback(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    ancient = encode_cursor(Position(datetime(1, 1, 1, tzinfo=UTC), "x"))
    async with (
        api_with(executor, hash_embedder) as api,
        connected(api.url, {"X-API-Key": ADMIN}) as sub,
    ):
        with caplog.at_level(logging.WARNING):
            answer = await sub.run("old", MEMORY_CHANGED, {"agentId": agent_id, "since": ancient})
    assert outcome(answer) == "BAD_INPUT", json.dumps(answer)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
