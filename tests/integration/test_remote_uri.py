"""With NEO4J_URI set nothing is installed or started, and `neo4j://` routing URIs work."""

from __future__ import annotations

import subprocess
import sys

import pytest

from graph.executor import connected
from server.settings import Settings

pytestmark = pytest.mark.neo4j


async def test_neo4j_routing_scheme_works(settings: Settings) -> None:
    uri = settings.bolt_uri.replace("bolt://", "neo4j://")
    async with connected(uri, settings.neo4j_user, settings.neo4j_secret()) as ex:
        assert await ex.ping()
        rows = await ex.run("schema/components", read=True)  # read routing through the router
        assert rows[0]["version"].startswith("5.")


@pytest.mark.parametrize("command", ["install", "start", "stop"])
def test_cli_does_nothing_locally_when_uri_is_set(command: str, tmp_path) -> None:
    env = {
        "NEO4J_URI": "neo4j://db.invalid:7687",
        "HIPPOGRAPH_HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "server.cli", "neo4j", command],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "nothing to do locally" in proc.stdout
    assert not (tmp_path / "neo4j").exists()
