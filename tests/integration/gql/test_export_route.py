"""``GET /export?agent=ID``: the JSON Lines download for the explorer, behind the API key and
tenant checks of ``/graphql``."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator

import pytest

from graph.admin import delete_agent
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
