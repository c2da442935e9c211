"""A graphql-transport-ws client for the WebSocket tests (the ``websockets`` package), the API
served by uvicorn in the test's own event loop (so it shares the session executor) and the
settings those tests serve it with."""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn
import websockets

from graph.memory.changes.feed import ChangeFeed
from server.settings import Settings

ADMIN = "hg_admin_" + secrets.token_urlsafe(32)
PROTOCOL = "graphql-transport-ws"
MEMORY_CHANGED = """subscription Watch($agentId: ID!, $since: String) {
  memoryChanged(agentId: $agentId, since: $since) {
    id kind at cursor factId previousFactId entityKey mergedEntityKey scope text
  }
}"""


def ws_settings(**over: Any) -> Settings:
    """Settings of an API under test: keys on (``ADMIN`` is the operator key), no rate limit,
    no worker, a fast change poll and small subscription caps."""
    base: dict[str, Any] = {
        "auth_disabled": False,
        "admin_api_key": ADMIN,
        "rate_limit_per_minute": 0,
        "worker_enabled": False,
        "subscription_poll_s": 0.2,
        "max_subscriptions_per_connection": 2,
        "max_subscriptions_per_key": 3,
    }
    return Settings(**{**base, **over})


@dataclass
class Served:
    """The API on a loopback port: its ws:// URL, its services, its change feed and the app."""

    url: str
    memory: Any
    feed: ChangeFeed
    app: Any = None

    async def opened(self, agent_id: str, count: int) -> None:
        """Wait until exactly ``count`` subscriptions of ``agent_id`` run on the server: one
        starts when its resolver runs, which the protocol does not acknowledge (a change
        written before is not part of it), and ends when the server has seen its connection
        close."""
        async with asyncio.timeout(10):
            while self.feed.subscribers(agent_id) != count:
                await asyncio.sleep(0.01)


@asynccontextmanager
async def serving(app: Any) -> AsyncIterator[str]:
    """``app`` on a free loopback port, in this event loop; yields ``ws://127.0.0.1:<port>``."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    try:
        yield f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


class Subscriber:
    """One WebSocket connection speaking graphql-transport-ws."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def subscribe(self, op_id: str, query: str, variables: dict[str, Any]) -> None:
        payload = {"query": query, "variables": variables}
        await self.ws.send(json.dumps({"id": op_id, "type": "subscribe", "payload": payload}))

    async def message(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message other than a ping."""
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if message["type"] == "ping":
                await self.ws.send(json.dumps({"type": "pong"}))
                continue
            return message

    async def run(
        self, op_id: str, query: str, variables: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """A query or mutation sent as a ``subscribe`` message: its ``next`` (after which the
        ``complete`` is read) or its ``error`` message."""
        await self.subscribe(op_id, query, variables or {})
        answer = await self.message()
        assert answer.get("id") == op_id, answer
        if answer["type"] == "next":
            done = await self.message()
            assert (done["type"], done.get("id")) == ("complete", op_id), done
        return answer

    async def closed(self, timeout: float = 10.0) -> tuple[int, str]:
        """The close code and reason the server ends this connection with (fails on any
        other message)."""
        try:
            message = await asyncio.wait_for(self.ws.recv(), timeout)
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason
        raise AssertionError(f"not closed: {message}")

    async def changes(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        """The next ``count`` memoryChanged events (fails on an error message)."""
        out = []
        while len(out) < count:
            message = await self.message(timeout)
            assert message["type"] == "next", message
            assert "errors" not in message["payload"], message
            out.append(message["payload"]["data"]["memoryChanged"])
        return out


@asynccontextmanager
async def connected(
    url: str,
    init: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> AsyncIterator[Subscriber]:
    """A connection to ``url``/graphql, initialised (``init``: the connection_init payload)
    and acknowledged."""
    async with websockets.connect(
        f"{url}/graphql", subprotocols=[PROTOCOL], additional_headers=headers or {}
    ) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": init or {}}))
        sub = Subscriber(ws)
        ack = await sub.message()
        assert ack["type"] == "connection_ack", ack
        yield sub


async def refusal(
    url: str, init: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """The close code and reason of a connection refused at ``connection_init`` (or closed
    right after its upgrade)."""
    async with websockets.connect(
        f"{url}/graphql", subprotocols=[PROTOCOL], additional_headers=headers or {}
    ) as ws:
        try:
            await ws.send(json.dumps({"type": "connection_init", "payload": init or {}}))
            message = await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason
    raise AssertionError(f"not refused: {message}")
