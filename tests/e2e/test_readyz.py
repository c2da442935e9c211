"""The service over real HTTP (uvicorn subprocess on a free loopback port): health, readiness
with Neo4j 5.26 + indexes ONLINE + APOC, Prometheus metrics, GraphQL."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.conftest import api_subprocess

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with api_subprocess({**os.environ, "HIPPOGRAPH_WORKER_ENABLED": "false"}) as url:
        yield url


def test_healthz(base_url: str) -> None:
    assert httpx.get(f"{base_url}/healthz").json() == {"status": "ok"}


def test_readyz_reports_neo4j_indexes_and_apoc(base_url: str) -> None:
    resp = httpx.get(f"{base_url}/readyz", timeout=30)
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


def test_metrics_are_prometheus_text(base_url: str) -> None:
    resp = httpx.get(f"{base_url}/metrics")
    assert resp.status_code == 200
    assert "# HELP" in resp.text


def test_graphiql_is_served(base_url: str) -> None:
    resp = httpx.get(f"{base_url}/graphql", headers={"Accept": "text/html"})
    assert resp.status_code == 200 and "graphiql" in resp.text.lower()
