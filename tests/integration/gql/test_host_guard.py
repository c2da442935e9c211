"""DNS rebinding and cross-site requests: with auth off (the `make run` demo) every route refuses
a Host that is not a loopback name and a browser Origin from another site, unless the operator
lists the host. In-process app over the real Neo4j (httpx ASGI transport)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from graph.executor import Executor
from graph.providers import HashEmbedder
from server.app import create_app
from server.browser_guide import GUIDE_PATH
from server.settings import Settings
from tests.integration.gql.support import memory_for

pytestmark = pytest.mark.neo4j

HEALTH = {"query": "{ health { ready } }"}
WRITE = {
    "query": 'mutation { write(agentId: "rebinding-probe", speaker: "x", text: "hi") { success } }'
}
ROUTES = [
    ("GET", "/healthz"),
    ("GET", "/readyz"),
    ("GET", "/metrics"),
    ("POST", "/graphql"),
    ("GET", "/graphql"),
    ("POST", "/mcp"),
    ("GET", "/graphiql-assets/x.js"),
    ("GET", GUIDE_PATH),
    ("GET", "/explorer"),
    ("GET", "/explorer-assets/app.js"),
    ("GET", "/export"),
    ("POST", "/import"),
]


def _app(executor: Executor, embedder: HashEmbedder, **settings: Any) -> Any:
    base = {"auth_disabled": True, "rate_limit_per_minute": 0, "worker_enabled": False}
    return create_app(Settings(**{**base, **settings}), memory=memory_for(executor, embedder))


async def _send(
    client: httpx.AsyncClient, method: str, path: str, headers: dict[str, str]
) -> httpx.Response:
    body = HEALTH if path == "/graphql" else {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    if method == "GET":
        return await client.get(path, headers={"accept": "text/html", **headers})
    return await client.post(
        path, json=body, headers={"accept": "application/json, text/event-stream", **headers}
    )


async def test_every_route_refuses_a_foreign_host_and_origin(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    app = _app(executor, hash_embedder)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
            for method, path in ROUTES:
                host = await _send(c, method, path, {"host": "evil.example"})
                assert host.status_code == 403, (method, path, host.status_code)
                assert host.json()["errors"][0]["extensions"] == {
                    "code": "FORBIDDEN",
                    "reason": "host",
                }
                origin = await _send(c, method, path, {"origin": "http://evil.example"})
                assert origin.status_code == 403, (method, path)
                assert origin.json()["errors"][0]["extensions"]["reason"] == "origin"
                own = await _send(c, method, path, {"origin": "http://127.0.0.1:8000"})
                assert own.status_code != 403, (method, path, own.text[:200])
            # The attack of a rebinding page: a write under a foreign Host runs nothing.
            refused = await c.post("/graphql", json=WRITE, headers={"host": "evil.example"})
            assert refused.status_code == 403
            ok = await c.post("/graphql", json=HEALTH, headers={"host": "localhost:8000"})
            assert ok.json()["data"]["health"]["ready"] in (True, False)


async def test_a_listed_host_is_served(executor: Executor, hash_embedder: HashEmbedder) -> None:
    app = _app(executor, hash_embedder, allowed_hosts="memory.example.org")
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5555))
        # A reverse proxy on the same box forwards the listed name to the loopback server.
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            listed = await client.post(
                "/graphql",
                json=HEALTH,
                headers={"host": "memory.example.org", "origin": "https://memory.example.org"},
            )
            assert listed.status_code == 200, listed.text
            other = await client.post("/graphql", json=HEALTH, headers={"host": "evil.example"})
            assert other.status_code == 403
