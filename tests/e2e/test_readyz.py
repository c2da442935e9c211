"""The service over real HTTP (uvicorn subprocess on a free loopback port): health, readiness
with Neo4j 5.26 + indexes ONLINE + APOC (the whole report for a key; without one, ready or not
and no versions), Prometheus metrics, GraphQL."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.conftest import api_subprocess

pytestmark = pytest.mark.e2e

ADMIN = "readyz-admin-key-" + "k" * 32


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    env = {
        **os.environ,
        "HIPPOGRAPH_WORKER_ENABLED": "false",
        "HIPPOGRAPH_ADMIN_API_KEY": ADMIN,
        "HIPPOGRAPH_WARM_UP": "true",
    }
    with api_subprocess(env) as url:
        deadline = time.monotonic() + 120  # the start-up warm-up holds readiness back
        while httpx.get(f"{url}/readyz", timeout=30).status_code != 200:
            assert time.monotonic() < deadline, "not ready after 120 s"
            time.sleep(0.2)
        yield url


def test_healthz(base_url: str) -> None:
    assert httpx.get(f"{base_url}/healthz").json() == {"status": "ok"}


def test_readyz_reports_neo4j_indexes_and_apoc(base_url: str) -> None:
    resp = httpx.get(f"{base_url}/readyz", headers={"X-API-Key": ADMIN}, timeout=30)
    body = resp.json()
    assert resp.status_code == 200, body
    assert body["ready"] is True
    assert body["neo4j"]["version"].startswith("5.26.")
    assert body["schema"]["all_online"] is True
    assert set(body["schema"]["indexes"].values()) == {"ONLINE"}
    assert body["apoc"]["available"] is True
    assert "available" in body["gds"]
    assert body["embedder"]["dimensions"] == 384
    assert body["llm_mode"] in {"offline", "openai-compatible"}


def test_readyz_without_a_key_says_only_ready(base_url: str) -> None:
    resp = httpx.get(f"{base_url}/readyz", timeout=30)
    assert resp.status_code == 200
    assert resp.json()["ready"] is True and resp.json()["neo4j"] == {"reachable": True}
    assert "version" not in resp.text and "apoc" not in resp.text


def test_metrics_are_prometheus_text(base_url: str) -> None:
    resp = httpx.get(f"{base_url}/metrics")
    assert resp.status_code == 200
    assert "# HELP" in resp.text


def test_graphiql_is_served(base_url: str) -> None:
    resp = httpx.get(f"{base_url}/graphql", headers={"Accept": "text/html"})
    assert resp.status_code == 200 and "graphiql" in resp.text.lower()
