"""OpenGDS (built from Maven Central by `hippograph neo4j install`) is loaded and usable through
the `graphdatascience` client. No core feature depends on it: this only checks the optional path."""

from __future__ import annotations

import asyncio

import pytest

from graph.executor import Executor
from server.runtime import local_neo4j
from server.settings import Settings
from tests.cypher import load_query
from tests.gds_client import connect_gds

pytestmark = pytest.mark.neo4j


def _gds_jar_installed() -> bool:
    return any(local_neo4j().plugins.glob("open-gds-*.jar"))


async def test_gds_loaded_when_plugin_installed(executor: Executor, settings: Settings) -> None:
    if not settings.local_neo4j or not _gds_jar_installed():
        pytest.skip("OpenGDS plugin jar not installed in this server (optional component)")
    plugins = (await executor.run("schema/procedures_like", read=True))[0]
    assert plugins["gds"] > 100
    version = (await executor.run("schema/gds_version", read=True))[0]["version"]
    assert version.startswith("2.13.")


async def test_gds_client_runs_pagerank(
    executor: Executor, settings: Settings, agent_id: str
) -> None:
    if not settings.local_neo4j or not _gds_jar_installed():
        pytest.skip("OpenGDS plugin jar not installed in this server (optional component)")
    await executor.run_text(load_query("gds_ring"), {"agent_id": agent_id})

    def run() -> None:
        gds = connect_gds(settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret())
        assert gds is not None
        try:
            projected = gds.graph.project.native(
                f"ring-{agent_id}", "GdsTest", "LINK", overwrite=True, log_progress=False
            )
            graph = projected.graph
            try:
                gds.page_rank.write(graph, write_property="rank", log_progress=False)
            finally:
                graph.drop()
        finally:
            gds.close()

    await asyncio.to_thread(run)
    rows = await executor.run_text(load_query("gds_ranks"), {"agent_id": agent_id}, read=True)
    names = [r["name"] for r in rows]
    assert names[0] == "hub"  # every other node links to the hub
