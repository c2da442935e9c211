"""``/mcp`` of the API app in-process (SDK streamable HTTP client over an ASGI transport): the
same key tenancy as ``/graphql``, the per-key rate limit as a RATE_LIMITED tool error, and
auth-disabled loopback serving every agent."""

from __future__ import annotations

import importlib.metadata
import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from graph.executor import Executor
from graph.providers import HashEmbedder
from server.app import create_app
from server.auth import ApiKeyStore
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import memory_for

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def key(executor: Executor, agent_id: str) -> AsyncIterator[str]:
    tenant = f"tenant-{uuid.uuid4().hex[:8]}"
    _, secret = await ApiKeyStore(executor).create(tenant, [agent_id])
    yield secret
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


@asynccontextmanager
async def mcp_client(
    executor: Executor, embedder: HashEmbedder, headers: dict[str, str], **settings: Any
) -> AsyncIterator[Client]:
    app = create_app(
        Settings(**{"auth_disabled": False, "rate_limit_per_minute": 0, **settings}),
        memory=memory_for(executor, embedder),
    )
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app, client=("127.0.0.1", 5555))
        http = httpx2.AsyncClient(transport=transport, headers=headers)
        async with Client(
            streamable_http_client("http://127.0.0.1:8000/mcp", http_client=http)
        ) as client:
            yield client


def _error(result: Any) -> dict[str, Any]:
    assert result.is_error, result.content
    return dict(json.loads(result.content[0].text)["error"])


async def test_key_tenancy_over_http(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, key: str
) -> None:
    async with mcp_client(executor, hash_embedder, {"X-API-Key": key}) as client:
        mine = await client.call_tool("list_facts", {})  # the key's only agent
        assert not mine.is_error and json.loads(mine.content[0].text)["facts"] == []
        other = await client.call_tool("list_facts", {"agent_id": "someone-else"})
        assert _error(other)["code"] == "FORBIDDEN"


async def test_rate_limit_is_a_tool_error(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, key: str
) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    async with mcp_client(executor, hash_embedder, headers, rate_limit_per_minute=3) as client:
        results = [await client.call_tool("list_facts", {}) for _ in range(4)]
    limited = [r for r in results if r.is_error]
    assert limited, "3 requests a minute cannot serve the handshake and 4 calls"
    error = _error(limited[0])
    assert error["code"] == "RATE_LIMITED" and error["retryAfterSeconds"] >= 1


async def test_auth_disabled_on_loopback_serves_every_agent(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    async with mcp_client(executor, hash_embedder, {}, auth_disabled=True) as client:
        res = await client.call_tool("list_facts", {"agent_id": agent_id})
        assert not res.is_error
        # The server names itself with the installed package's version.
        info = client.server_info
        assert info is not None and info.name == "hippograph"
        assert info.version == importlib.metadata.version("hippograph") != ""
        unnamed = await client.call_tool("list_facts", {})
        assert _error(unnamed)["code"] == "BAD_INPUT"
