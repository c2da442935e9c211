"""With NEO4J_URI set nothing is installed or started, and `neo4j://` routing URIs work."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from graph.executor import connected
from server.cli import app
from server.settings import Settings, get_settings

pytestmark = pytest.mark.neo4j


async def test_neo4j_routing_scheme_works(settings: Settings) -> None:
    uri = settings.bolt_uri.replace("bolt://", "neo4j://")
    async with connected(uri, settings.neo4j_user, settings.neo4j_secret()) as ex:
        assert await ex.ping()
        rows = await ex.run("schema/components", read=True)  # read routing through the router
        assert rows[0]["version"].startswith("5.")


@pytest.mark.parametrize("command", ["install", "start", "stop"])
def test_cli_does_nothing_locally_when_uri_is_set(
    command: str, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j://db.invalid:7687")
    monkeypatch.setenv("HIPPOGRAPH_HOME", str(tmp_path))
    monkeypatch.delenv("HIPPOGRAPH_NEO4J_DIR", raising=False)  # the runtime folder: tmp_path's
    get_settings.cache_clear()
    try:
        ran = CliRunner().invoke(app, ["neo4j", command])
    finally:
        get_settings.cache_clear()
    assert ran.exit_code == 0, ran.output
    assert "nothing to do locally" in ran.stdout
    assert not (tmp_path / "neo4j").exists()
