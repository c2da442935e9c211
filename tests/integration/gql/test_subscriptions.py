"""The memoryChanged subscription over graphql-transport-ws, served by uvicorn in the test's
event loop over the real Neo4j: every kind of change with the right ids and no text after a
forget or an erase, resuming from a cursor, changes written through another API instance,
and the refusals (no key, unknown key, another tenant's agent, foreign origin, bad input,
caps)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import websockets

from graph.executor import Executor, connect
from graph.memory.changes import Position, encode_cursor
from graph.memory.erase import erase_target
from graph.memory.write import WritePipeline
from graph.memory.write.models import StructuredEntity, StructuredFact
from graph.providers import HashEmbedder
from server.app import create_app
from server.auth import ApiKeyStore
from server.settings import Settings
from tests.cypher import load_query
from tests.fakes import ScriptedLLM
from tests.integration.gql.support import memory_for
from tests.integration.gql.ws import (
    ADMIN,
    MEMORY_CHANGED,
    Served,
    connected,
    refusal,
    serving,
    ws_settings,
)
from tests.integration.write.helpers import SPEAKER, extraction, informed

pytestmark = pytest.mark.neo4j

INFORMED = "Stage: extract_informed"


@pytest.fixture
async def api(executor: Executor, hash_embedder: HashEmbedder) -> AsyncIterator[Served]:
    memory = memory_for(executor, hash_embedder)
    app = create_app(ws_settings(), memory=memory)
    async with serving(app) as url:
        yield Served(url, memory, app.state.change_feed, app)


def _scripted_writes() -> ScriptedLLM:
    """Two messages: two facts, then an update of one and the retraction of the other."""
    return ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Curitiba", "place"), ("Acme", "organization")],
                    [(SPEAKER, "Rafael lives in Curitiba"), (SPEAKER, "Rafael works at Acme")],
                ),
                informed(
                    extraction(
                        [("Recife", "place"), ("Acme", "organization")],
                        [(SPEAKER, "Rafael lives in Recife now"), (SPEAKER, "Rafael left Acme")],
                    ),
                    {
                        "Rafael lives in Recife now": ("UPDATE", "Rafael lives in Curitiba"),
                        "Rafael left Acme": ("DELETE", "Rafael works at Acme"),
                    },
                ),
            ]
        }
    )


async def test_every_kind_of_change_and_no_text_after_forget_or_erase(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, api: Served
) -> None:
    url, memory = api.url, api.memory
    auth = {"Authorization": f"Bearer {ADMIN}"}
    async with connected(url, auth) as sub:
        await sub.subscribe("1", MEMORY_CHANGED, {"agentId": agent_id})
        await api.opened(agent_id, 1)
        pipe = WritePipeline(executor, hash_embedder, _scripted_writes().chat())
        since = encode_cursor(Position(datetime.now(UTC)))
        for text in ("I live in Curitiba and work at Acme", "I moved to Recife, left Acme"):
            assert (await pipe.write(agent_id, text, SPEAKER)).success
        # One write's changes share their time: their order is by id.
        first = {c["text"]: c for c in await sub.changes(2)}
        added, acme = first["Rafael lives in Curitiba"], first["Rafael works at Acme"]
        assert added["kind"] == acme["kind"] == "FACT_ADDED"
        second = {c["kind"]: c for c in await sub.changes(2)}
        updated, left = second["FACT_UPDATED"], second["FACT_INVALIDATED"]
        assert updated["previousFactId"] == added["factId"]
        assert updated["text"] == "Rafael lives in Recife now"
        assert (left["kind"], left["factId"], left["text"]) == (
            "FACT_INVALIDATED",
            acme["factId"],
            None,
        )

        done = await memory.admin.remember(
            agent_id,
            max_items=10,
            entities=[StructuredEntity(name="Globex", type="organization")],
            facts=[StructuredFact(text="Globex is based in Porto", subject="Globex")],
        )
        # Delivered before the erase: an event read after it carries no text any more.
        (remembered,) = await sub.changes(1)
        await memory.admin.forget(agent_id, updated["factId"], "moved again")
        await memory.admin.merge_entities(agent_id, "organization:acme", done.entity_keys["Globex"])
        await memory.erase(erase_target(agent_id, fact_id=done.fact_ids[0]))
        forgotten, merged, erased = await sub.changes(3)
    assert (remembered["kind"], remembered["factId"]) == ("FACT_ADDED", done.fact_ids[0])
    assert remembered["text"] == "Globex is based in Porto"
    assert (forgotten["kind"], forgotten["factId"], forgotten["text"]) == (
        "FACT_FORGOTTEN",
        updated["factId"],
        None,
    )
    assert merged["kind"] == "ENTITY_MERGED" and merged["entityKey"] == "organization:acme"
    assert merged["mergedEntityKey"] == done.entity_keys["Globex"]
    assert (erased["kind"], erased["scope"], erased["factId"], erased["text"]) == (
        "ERASED",
        "fact",
        None,
        None,
    )

    # Resuming from before the first write: every change again, and the forgotten and erased
    # facts' text is gone from their earlier events too.
    async with connected(url, auth) as sub:
        await sub.subscribe("1", MEMORY_CHANGED, {"agentId": agent_id, "since": since})
        replay = {c["id"]: c for c in await sub.changes(8)}
    assert replay[added["id"]]["text"] == "Rafael lives in Curitiba"
    assert replay[updated["id"]]["text"] is None  # forgotten since
    assert replay[remembered["id"]]["text"] is None  # erased since
    assert replay[acme["id"]]["text"] == "Rafael works at Acme"  # retracted, not forgotten
    assert [c["kind"] for c in replay.values()][-4:] == [
        "FACT_ADDED",
        "FACT_FORGOTTEN",
        "ENTITY_MERGED",
        "ERASED",
    ]


async def test_a_write_through_another_api_instance_reaches_the_subscriber(
    settings: Settings, hash_embedder: HashEmbedder, agent_id: str, api: Served
) -> None:
    """Two API instances share only Neo4j (the writer has its own driver): the change reaches
    the other instance's subscriber through the database."""
    url = api.url
    own = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    writer = create_app(ws_settings(), memory=memory_for(own, hash_embedder))
    mutation = """mutation($a: ID!) { remember(agentId: $a, facts: [{text: "Lia plays the oboe",
      subject: "Lia"}]) { summary { factIds } errors { message } } }"""
    try:
        async with connected(url, {"X-API-Key": ADMIN}) as sub:
            await sub.subscribe("w", MEMORY_CHANGED, {"agentId": agent_id})
            await api.opened(agent_id, 1)
            async with writer.router.lifespan_context(writer):
                transport = httpx.ASGITransport(app=writer, client=("127.0.0.1", 5555))
                async with httpx.AsyncClient(
                    transport=transport, base_url="http://127.0.0.1"
                ) as client:
                    answer = await client.post(
                        "/graphql",
                        json={"query": mutation, "variables": {"a": agent_id}},
                        headers={"Authorization": f"Bearer {ADMIN}"},
                    )
            (change,) = await sub.changes(1)
    finally:
        await own.close()
    fact_id = answer.json()["data"]["remember"]["summary"]["factIds"][0]
    assert (change["kind"], change["factId"], change["text"]) == (
        "FACT_ADDED",
        fact_id,
        "Lia plays the oboe",
    )


@pytest.fixture
async def tenant_key(executor: Executor, agent_id: str) -> AsyncIterator[str]:
    """A key of a fresh tenant covering ``agent_id`` (which the tenant claims)."""
    tenant = f"tenant-{uuid.uuid4().hex[:8]}"
    _, key = await ApiKeyStore(executor).create(tenant, [agent_id])
    yield key
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


async def test_refusals_are_typed(
    executor: Executor, agent_id: str, other_agent: str, tenant_key: str, api: Served
) -> None:
    url, memory = api.url, api.memory
    assert await refusal(url) == (
        4401,
        "FORBIDDEN: Missing API key (Authorization: Bearer <key> or X-API-Key).",
    )
    code, reason = await refusal(url, {"Authorization": "Bearer hg_unknown"})
    assert (code, reason) == (4401, "FORBIDDEN: Unknown or revoked API key.")
    # A key in the upgrade's headers is checked before the upgrade.
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(
            f"{url}/graphql",
            subprotocols=["graphql-transport-ws"],
            additional_headers={"Authorization": "Bearer hg_unknown"},
        ):
            pass
    assert refused.value.response.status_code == 401

    other = f"other-{uuid.uuid4().hex[:6]}"
    await ApiKeyStore(executor).create(other, [other_agent])  # the other tenant owns it
    async with connected(url, headers={"X-API-Key": tenant_key}) as sub:
        # Another tenant's agent: FORBIDDEN; the connection stays usable.
        await sub.subscribe("x", MEMORY_CHANGED, {"agentId": other_agent})
        error = await sub.message()
        assert (error["type"], error["id"]) == ("error", "x")
        assert error["payload"][0]["extensions"]["code"] == "FORBIDDEN"
        await sub.subscribe("c", MEMORY_CHANGED, {"agentId": agent_id, "since": "nope"})
        bad = await sub.message()
        assert bad["payload"][0]["extensions"]["code"] == "BAD_INPUT", bad
        # The query limits apply to subscription documents (here: aliases).
        aliased = " ".join(f"a{i}: id" for i in range(40))
        await sub.subscribe(
            "l", f'subscription {{ memoryChanged(agentId: "{agent_id}") {{ {aliased} }} }}', {}
        )
        limited = await sub.message()
        assert limited["payload"][0]["extensions"]["code"] == "BAD_INPUT", limited
        # Caps: two subscriptions per connection, three per key on the server.
        for op in ("s1", "s2", "s3"):
            await sub.subscribe(op, MEMORY_CHANGED, {"agentId": agent_id})
        third = await sub.message()
        assert (third["type"], third["id"]) == ("error", "s3")
        assert third["payload"][0]["extensions"]["code"] == "RATE_LIMITED"
        await api.opened(agent_id, 2)
        await _fact(memory, agent_id, "Lia plays the oboe")
        assert len(await sub.changes(2)) == 2  # s1 and s2 are running
        async with connected(url, headers={"X-API-Key": tenant_key}) as second:
            await second.subscribe("s4", MEMORY_CHANGED, {"agentId": agent_id})
            await second.subscribe("s5", MEMORY_CHANGED, {"agentId": agent_id})
            over = await second.message()
            assert over["type"] == "error", over
            assert over["payload"][0]["extensions"]["code"] == "RATE_LIMITED", over
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": other})
    # Closed connections give their subscriptions back.
    await api.opened(agent_id, 0)
    async with connected(url, headers={"X-API-Key": tenant_key}) as sub:
        await sub.subscribe("again", MEMORY_CHANGED, {"agentId": agent_id})
        await sub.subscribe("again2", MEMORY_CHANGED, {"agentId": agent_id})
        await api.opened(agent_id, 2)
        await _fact(memory, agent_id, "Lia plays the flute")
        assert {m["text"] for m in await sub.changes(2)} == {"Lia plays the flute"}

    # Over HTTP a subscription is refused before it runs (it would stream to nobody).
    async with httpx.AsyncClient(base_url=url.replace("ws://", "http://")) as client:
        answer = await client.post(
            "/graphql",
            json={"query": MEMORY_CHANGED, "variables": {"agentId": agent_id}},
            headers={"X-API-Key": tenant_key},
        )
    assert answer.json()["errors"][0]["extensions"] == {"code": "BAD_INPUT", "reason": "transport"}


async def _fact(memory: Any, agent_id: str, text: str) -> None:
    await memory.admin.remember(
        agent_id, max_items=10, facts=[StructuredFact(text=text, subject="Lia")]
    )


async def test_a_cross_origin_upgrade_is_refused(
    executor: Executor, hash_embedder: HashEmbedder, api: Served
) -> None:
    """On a loopback bind (Host/Origin guard on) and on a public bind with keys (guard off for
    HTTP), a browser page of another site cannot open the WebSocket; the server's own page can."""
    public = create_app(ws_settings(api_host="0.0.0.0"), memory=memory_for(executor, hash_embedder))
    async with serving(public) as public_url:
        for url in (api.url, public_url):
            for origin in ("http://evil.example", "null", "https://127.0.0.1.evil.example"):
                with pytest.raises(websockets.InvalidStatus) as refused:
                    async with websockets.connect(
                        f"{url}/graphql",
                        subprotocols=["graphql-transport-ws"],
                        origin=origin,  # type: ignore[arg-type]
                    ):
                        pass
                assert refused.value.response.status_code == 403, (url, origin)
                assert refused.value.response.body is not None
                assert b'"reason":"origin"' in refused.value.response.body
            own = url.replace("ws://", "http://")
            async with connected(url, {"X-API-Key": ADMIN}, headers={"Origin": own}):
                pass
