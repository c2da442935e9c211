"""The local server runs on the Java the runtime chose, with the Vector API on when it has it."""

from __future__ import annotations

import pytest

from graph.runtime.assemble import java_for
from server.runtime import local_neo4j
from server.settings import get_settings


def test_the_local_server_runs_on_the_chosen_java() -> None:
    settings = get_settings()
    if not settings.local_neo4j or settings.neo4j_java:
        pytest.skip("a server or Java of the user's: the runtime chose nothing")
    server = local_neo4j()
    status = server.status()
    if not status.running:
        pytest.skip("the tests run against a server the runtime did not start")
    chosen = java_for(settings.neo4j_line)
    # The running process's own command line: its Java and whether the module option is on.
    assert status.java == chosen.label()
    assert status.java.endswith("Vector API on)") is chosen.vector_api
