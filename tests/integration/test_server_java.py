"""The local server runs on the Java the runtime chose, with the Vector API on when it has it."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.runtime.assemble import java_for
from graph.runtime.java import VECTOR_API_OPTION
from server.runtime import local_neo4j
from server.settings import get_settings
from tests.cypher import load_query


async def test_the_local_server_runs_on_the_chosen_java(executor: Executor) -> None:
    settings = get_settings()
    if not settings.local_neo4j or settings.neo4j_java:
        pytest.skip("a server or Java of the user's: the runtime chose nothing")
    status = local_neo4j().status()
    if not status.running:
        pytest.skip("the tests run against a server the runtime did not start")
    chosen = java_for(settings.neo4j_line)
    # What the runtime says of the process it started (its command line) ...
    assert status.java == chosen.label()
    # ... and what the server says of itself.
    jvm = (await executor.run_text(load_query("server_jvm"), {}, read=True))[0]
    assert jvm["version"].split(".")[0].split("+")[0] == str(chosen.major)
    assert (VECTOR_API_OPTION in jvm["arguments"]) is chosen.vector_api
