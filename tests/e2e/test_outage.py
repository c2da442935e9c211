"""Neo4j outage and recovery, on a SEPARATE throwaway server (the drills' one, bolt 31687,
never the tests' shared server): while it is down GraphQL answers UNAVAILABLE with retry advice
and /readyz is 503; when it is back the same API process recovers without a restart."""

from __future__ import annotations

import time

import httpx
import pytest

from graph.runtime import LocalNeo4j
from server.settings import Settings
from tests.bench import drills
from tests.e2e.conftest import serve_in_thread

pytestmark = pytest.mark.e2e

BOLT = drills.BOLT
PASSWORD = drills.PASSWORD
QUERY = {"query": '{ entities(agentId: "outage-probe") { totalCount } }'}


@pytest.fixture(scope="module")
def throwaway(throwaway_neo4j: LocalNeo4j) -> LocalNeo4j:
    """The throw-away server the drills use too (tests/e2e/conftest.py): stopped and started
    again here."""
    return throwaway_neo4j


def _wait_ready(url: str, want: int, timeout_s: float = 180) -> int:
    deadline = time.monotonic() + timeout_s
    status = 0
    while time.monotonic() < deadline:
        try:
            status = httpx.get(f"{url}/readyz", timeout=30).status_code
        except httpx.HTTPError:
            status = 0
        if status == want:
            return status
        time.sleep(0.5)
    return status


def test_unavailable_then_automatic_recovery(throwaway: LocalNeo4j) -> None:
    settings = Settings(
        neo4j_uri=f"bolt://127.0.0.1:{BOLT}",
        neo4j_password=PASSWORD,
        auth_disabled=True,
        embedder="hash",
        llm_base_url=None,
        llm_api_key=None,
        worker_enabled=False,
    )
    server, thread, url = serve_in_thread(settings)
    try:
        assert _wait_ready(url, 200) == 200
        ok = httpx.post(f"{url}/graphql", json=QUERY, timeout=30).json()
        assert ok == {"data": {"entities": {"totalCount": 0}}}

        throwaway.stop()
        assert _wait_ready(url, 503) == 503
        started = time.monotonic()
        down = httpx.post(f"{url}/graphql", json=QUERY, timeout=60)
        print(f"UNAVAILABLE answered in {time.monotonic() - started:.1f} s")
        started = time.monotonic()
        again = httpx.post(f"{url}/graphql", json=QUERY, timeout=60).json()
        assert again["errors"][0]["extensions"]["code"] == "UNAVAILABLE"
        print(f"next UNAVAILABLE (breaker open) in {time.monotonic() - started:.2f} s")
        assert down.status_code == 200  # GraphQL errors travel in the body
        error = down.json()["errors"][0]
        assert error["extensions"] == {"code": "UNAVAILABLE", "retryAfterSeconds": 5}
        assert "retry" in error["message"] and str(BOLT) not in error["message"]

        throwaway.start(log=lambda _: None)
        started = time.monotonic()
        assert _wait_ready(url, 200) == 200
        print(f"ready again {time.monotonic() - started:.1f} s after Neo4j answered")
        back = httpx.post(f"{url}/graphql", json=QUERY, timeout=30).json()
        assert back == {"data": {"entities": {"totalCount": 0}}}
    finally:
        server.should_exit = True
        thread.join(timeout=30)
