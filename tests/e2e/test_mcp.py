"""MCP end to end: the SDK's own client drives ``hippograph mcp`` (stdio subprocess) and the
``/mcp`` streamable HTTP endpoint of the live API (auth on), over the real Neo4j: list tools,
write then retrieve the fact, a forbidden agent, bad input."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from server.auth import ApiKeyStore
from server.cli import app
from server.settings import get_settings
from tests.cypher import load_query
from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
HIPPOGRAPH = str(Path(sys.executable).parent / "hippograph")
TOOLS = {
    "write_message",
    "remember_facts",
    "retrieve_context",
    "lookup_entity",
    "list_facts",
    "forget_fact",
    "ingest_document",
    "feedback",
}  # erase_fact / erase_entity only with HIPPOGRAPH_MCP_ERASE_TOOLS=true


def _env(**extra: str) -> dict[str, str]:
    """Environment of a server subprocess: the Neo4j connection (the tests' local server:
    HIPPOGRAPH_NEO4J_* and the home), fast embedder, no worker."""
    keep = ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "PATH", "HOME", "HIPPOGRAPH_HOME")
    env = {k: v for k, v in os.environ.items() if k in keep or k.startswith("HIPPOGRAPH_NEO4J_")}
    return {**env, "HIPPOGRAPH_EMBEDDER": "hash", "HIPPOGRAPH_WORKER_ENABLED": "false", **extra}


@pytest.fixture
async def scope(executor: Executor) -> AsyncIterator[dict[str, str]]:
    """A fresh agent and an API key covering only it."""
    agent, tenant = f"test-{uuid.uuid4().hex[:12]}", f"mcp-{uuid.uuid4().hex[:8]}"
    _, key = await ApiKeyStore(executor).create(tenant, [agent])
    yield {"agent": agent, "key": key}
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})
    await delete_agent(executor, agent)


def _body(result: Any) -> dict[str, Any]:
    return dict(json.loads(result.content[0].text))


async def _session_writes_and_retrieves(client: Client, agent: str) -> None:
    """The checks both transports must pass."""
    tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == TOOLS
    assert all(t.description and t.input_schema["properties"] for t in tools)

    written = await client.call_tool(
        "write_message",
        {
            "agent_id": agent,
            "speaker_name": "Clara",
            "message": "I work at Vertix as a data engineer.",
        },
    )
    assert not written.is_error, written.content
    assert _body(written)["facts_added"]

    got = await client.call_tool(
        "retrieve_context", {"agent_id": agent, "query": "Where does Clara work?"}
    )
    assert not got.is_error, got.content
    assert any("Vertix" in f["text"] for f in _body(got)["facts"])

    forbidden = await client.call_tool(
        "retrieve_context", {"agent_id": "someone-else", "query": "Where does Clara work?"}
    )
    assert forbidden.is_error and _body(forbidden)["error"]["code"] == "FORBIDDEN"

    bad = await client.call_tool("list_facts", {"agent_id": agent, "first": "lots"})
    assert bad.is_error and _body(bad)["error"]["code"] == "BAD_INPUT"
    missing = await client.call_tool("write_message", {"agent_id": agent, "message": "hi"})
    assert missing.is_error and _body(missing)["error"]["code"] == "BAD_INPUT"
    assert "speaker_name" in _body(missing)["error"]["message"]


# --- stdio -------------------------------------------------------------------------------------


def _stdio(**env: str) -> Client:
    return Client(
        StdioServerParameters(command=HIPPOGRAPH, args=["mcp"], env=_env(**env), cwd=str(ROOT)),
        read_timeout_seconds=120,
    )


async def test_stdio_session_writes_and_retrieves(scope: dict[str, str]) -> None:
    async with _stdio(HIPPOGRAPH_MCP_API_KEY=scope["key"]) as client:
        await _session_writes_and_retrieves(client, scope["agent"])


async def test_stdio_agent_scope_and_unknown_key(scope: dict[str, str]) -> None:
    async def agent_scope() -> None:
        async with _stdio(HIPPOGRAPH_MCP_AGENT=scope["agent"]) as client:
            listed = await client.call_tool("list_facts", {})  # the only agent is the default
            assert not listed.is_error and _body(listed)["facts"] == []
            other = await client.call_tool("list_facts", {"agent_id": "someone-else"})
            assert _body(other)["error"]["code"] == "FORBIDDEN"

    async def unknown_key() -> None:
        async with _stdio(HIPPOGRAPH_MCP_API_KEY="hg_not_a_key") as client:
            refused = await client.call_tool("list_facts", {"agent_id": scope["agent"]})
            assert refused.is_error and _body(refused)["error"]["code"] == "FORBIDDEN"

    await asyncio.gather(agent_scope(), unknown_key())  # two servers, started side by side


def test_stdio_refuses_to_start_without_a_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checked before anything is served: the command itself, in-process, with no key, no
    agent and auth on."""
    for name in ("HIPPOGRAPH_MCP_API_KEY", "HIPPOGRAPH_MCP_AGENT", "HIPPOGRAPH_AUTH_DISABLED"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    try:
        done = CliRunner().invoke(app, ["mcp"])
    finally:
        get_settings.cache_clear()
    assert done.exit_code == 2
    assert "HIPPOGRAPH_MCP_API_KEY" in done.stderr and done.stdout == ""


# --- streamable HTTP ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def api_url(live_api: LiveApi) -> str:
    """The session's live API: auth on, no job worker."""
    return live_api.url


def _http(url: str, key: str) -> Client:
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {key}"}, timeout=httpx2.Timeout(30, read=120)
    )
    return Client(streamable_http_client(f"{url}/mcp", http_client=http))


async def test_http_session_writes_and_retrieves(api_url: str, scope: dict[str, str]) -> None:
    async with _http(api_url, scope["key"]) as client:
        await _session_writes_and_retrieves(client, scope["agent"])


def test_http_without_a_key_is_refused(api_url: str) -> None:
    res = httpx.post(
        f"{api_url}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Accept": "application/json, text/event-stream"},
    )
    assert res.status_code == 401
    assert res.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert res.headers["www-authenticate"] == "Bearer"


# --- the npm MCP inspector CLI -----------------------------------------------------------------

INSPECTOR = ROOT / "tests" / "e2e" / "mcp-inspector" / "node_modules" / ".bin" / "mcp-inspector"


def _inspect(home: Path, *args: str) -> set[str]:
    """Tool names the inspector CLI lists (``--method tools/list``)."""
    assert INSPECTOR.exists(), "MCP inspector missing: run scripts/bootstrap.sh --test"
    done = subprocess.run(
        [str(INSPECTOR), "--cli", *args, "--method", "tools/list"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env={**_env(), "HOME": str(home)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {t["name"] for t in json.loads(done.stdout)["tools"]}


def test_inspector_cli_lists_tools_over_stdio(tmp_path: Path) -> None:
    env = [
        f"{k}={v}"
        for k, v in _env(HIPPOGRAPH_MCP_AGENT="inspector").items()
        if k not in ("PATH", "HOME")
    ]
    flags = [x for pair in env for x in ("-e", pair)]
    assert _inspect(tmp_path, *flags, "--cwd", str(ROOT), HIPPOGRAPH, "mcp") == TOOLS


def test_inspector_cli_lists_tools_over_http(
    tmp_path: Path, api_url: str, scope: dict[str, str]
) -> None:
    names = _inspect(
        tmp_path,
        f"{api_url}/mcp",
        "--transport",
        "http",
        "--header",
        f"Authorization: Bearer {scope['key']}",
    )
    assert names == TOOLS
