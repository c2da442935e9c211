"""``GET /export?agent=ID``: the JSON Lines download for the explorer, behind the API key and
tenant checks of ``/graphql``."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator

import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.providers import HashEmbedder
from server.app import create_app
from server.auth import ApiKeyStore
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import http_client, load_story, memory_for

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def keys(executor: Executor, agent_id: str) -> AsyncIterator[dict[str, str]]:
    """Tenant A's key names ``agent_id``; tenant B owns another agent with data."""
    store = ApiKeyStore(executor)
    a, b = f"tenant-a-{uuid.uuid4().hex[:8]}", f"tenant-b-{uuid.uuid4().hex[:8]}"
    agent_b = f"test-{uuid.uuid4().hex[:12]}"
    _, key_a = await store.create(a, [agent_id])
    _, key_b = await store.create(b, [agent_b])
    yield {"a": key_a, "b": key_b, "agent_b": agent_b}
    await delete_agent(executor, agent_b)
    for tenant in (a, b):
        await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


async def test_export_download_streams_the_agent_for_its_tenant_only(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, keys: dict[str, str]
) -> None:
    await load_story(executor, hash_embedder, agent_id)
    await load_story(executor, hash_embedder, keys["agent_b"])
    app = create_app(
        Settings(auth_disabled=False, rate_limit_per_minute=0),
        memory=memory_for(executor, hash_embedder),
    )
    own = {"Authorization": f"Bearer {keys['a']}"}
    async with http_client(app) as client:
        r = await client.get(
            "/export", params={"agent": agent_id, "embeddings": "false"}, headers=own
        )
        assert r.status_code == 200, r.text
        assert r.headers["content-type"].startswith("application/x-ndjson")
        assert f'filename="{agent_id}.jsonl"' in r.headers["content-disposition"]
        lines = [json.loads(x) for x in r.text.splitlines()]
        assert lines[0]["kind"] == "header" and lines[0]["agent_id"] == agent_id
        facts = [x for x in lines if x["kind"] == "fact"]
        assert len(facts) == 3 and all("embedding" not in f["props"] for f in facts)

        foreign = await client.get("/export", params={"agent": keys["agent_b"]}, headers=own)
        assert foreign.status_code == 403
        assert foreign.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"
        assert "Clara" not in foreign.text
        missing = await client.get("/export", headers=own)
        assert missing.status_code == 400
        assert missing.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"
        anonymous = await client.get("/export", params={"agent": agent_id})
        assert anonymous.status_code == 401


ADMIN_KEY = "import-test-admin-key-0123456789abcdef"


async def test_import_upload_brings_an_export_into_a_fresh_agent_admin_only(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, keys: dict[str, str]
) -> None:
    """``POST /import``: an admin uploads what ``/export`` gave and the new agent holds the
    same facts; a tenant key is refused; a broken line is a typed error naming the line and
    writes nothing; a body over the import limit is refused before it is read."""
    await load_story(executor, hash_embedder, agent_id)
    target, broken = f"test-{uuid.uuid4().hex[:12]}", f"test-{uuid.uuid4().hex[:12]}"
    app = create_app(
        Settings(
            auth_disabled=False,
            rate_limit_per_minute=0,
            admin_api_key=ADMIN_KEY,
            import_max_bytes=200_000,
        ),
        memory=memory_for(executor, hash_embedder),
    )
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    try:
        async with http_client(app) as client:
            exported = await client.get("/export", params={"agent": agent_id}, headers=admin)
            assert exported.status_code == 200, exported.text
            body = exported.content
            refused = await client.post(
                "/import",
                params={"agent": target},
                content=body,
                headers={"Authorization": f"Bearer {keys['a']}"},
            )
            assert refused.status_code == 403
            done = await client.post(
                "/import", params={"agent": target}, content=body, headers=admin
            )
            assert done.status_code == 200, done.text
            answer = done.json()
            assert answer["success"] and answer["sourceAgent"] == agent_id
            assert answer["written"]["fact"] == 3 and not answer["reembedded"]
            header, rest = body.split(b"\n", 1)
            bad = await client.post(
                "/import",
                params={"agent": broken},
                content=header + b"\n{not json\n" + rest,
                headers=admin,
            )
            assert bad.status_code == 400
            assert "line 2" in bad.json()["errors"][0]["message"]
            huge = await client.post(
                "/import", params={"agent": broken}, content=b"x" * 300_000, headers=admin
            )
            assert huge.status_code == 413
        rows = await executor.run_text(load_query("transfer_facts"), {"agent": target})
        original = await executor.run_text(load_query("transfer_facts"), {"agent": agent_id})
        assert sorted(r["text"] for r in rows) == sorted(r["text"] for r in original)
        assert await executor.run_text(load_query("transfer_facts"), {"agent": broken}) == []
    finally:
        for agent in (target, broken):
            await delete_agent(executor, agent)


async def test_import_upload_reads_a_mem0_export(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    from pathlib import Path

    data = (Path(__file__).parents[2] / "data" / "mem0_get_all.json").read_bytes()
    app = create_app(
        Settings(auth_disabled=False, rate_limit_per_minute=0, admin_api_key=ADMIN_KEY),
        memory=memory_for(executor, hash_embedder),
    )
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with http_client(app) as client:
        done = await client.post(
            "/import", params={"agent": agent_id, "format": "mem0"}, content=data, headers=admin
        )
        assert done.status_code == 200, done.text
        assert done.json()["written"]["facts_added"] > 0
        bad = await client.post(
            "/import", params={"agent": agent_id, "format": "mem0"}, content=b"[oops", headers=admin
        )
        assert (
            bad.status_code == 400 and bad.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"
        )
    rows = await executor.run_text(load_query("transfer_facts"), {"agent": agent_id})
    assert rows
