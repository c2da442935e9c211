"""/readyz and /metrics exposure: without a key /readyz says only whether the process is ready
(no Neo4j, APOC or GDS versions), with a key the whole report; either can be made to need a key.
In-process app over the real Neo4j (httpx ASGI transport)."""

from __future__ import annotations

from typing import Any

import pytest

from graph.executor import Executor
from graph.providers import HashEmbedder
from server.app import create_app
from server.settings import Settings
from tests.integration.gql.support import http_client, memory_for

pytestmark = pytest.mark.neo4j

ADMIN = "probe-admin-key-" + "x" * 32


def _app(executor: Executor, embedder: HashEmbedder, **settings: Any) -> Any:
    base: dict[str, Any] = {
        "auth_disabled": False,
        "admin_api_key": ADMIN,
        "rate_limit_per_minute": 0,
        "worker_enabled": False,
    }
    return create_app(Settings(**{**base, **settings}), memory=memory_for(executor, embedder))


async def test_readyz_without_a_key_reveals_no_versions(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    async with http_client(_app(executor, hash_embedder)) as client:
        bare = await client.get("/readyz")
        assert bare.status_code in (200, 503)
        assert set(bare.json()) == {"ready", "neo4j", "warm_up"}
        assert bare.json()["neo4j"] == {"reachable": True}
        assert "version" not in bare.text and "5.26" not in bare.text
        full = await client.get("/readyz", headers={"Authorization": f"Bearer {ADMIN}"})
        assert full.json()["neo4j"]["version"]
        assert "version" in full.json()["apoc"] and "version" in full.json()["gds"]
        assert full.json()["ready"] == bare.json()["ready"]
        wrong = await client.get("/readyz", headers={"Authorization": "Bearer hg_wrong"})
        assert wrong.status_code == 401  # a key that is sent must be a valid one


async def test_readyz_and_metrics_can_require_a_key(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    app = _app(executor, hash_embedder, readyz_public=False, metrics_public=False)
    async with http_client(app) as client:
        for path in ("/readyz", "/metrics"):
            assert (await client.get(path)).status_code == 401, path
        keyed = {"Authorization": f"Bearer {ADMIN}"}
        assert (await client.get("/metrics", headers=keyed)).status_code == 200
        assert (await client.get("/readyz", headers=keyed)).json()["neo4j"]["version"]


async def test_metrics_are_public_by_default(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    async with http_client(_app(executor, hash_embedder)) as client:
        assert (await client.get("/metrics")).status_code == 200


async def test_keyless_probes_share_one_report_a_second(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    app = _app(executor, hash_embedder)
    async with http_client(app) as client:
        first = await client.get("/readyz")
        report = app.state.public_readiness._report
        for _ in range(5):
            assert (await client.get("/readyz")).json() == first.json()
        assert app.state.public_readiness._report is report  # not computed again within 1 s
