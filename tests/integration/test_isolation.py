"""The tests run on their own local Neo4j, never on the one `make run` serves: another folder
(data and password), other ports, and an agent the tests write is not in `make run`'s database.
(``scripts/test.sh`` also compares `make run`'s database before and after everything it runs:
``tests/isolation.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graph.executor import Executor, connected
from server.runtime import local_neo4j
from server.settings import Settings
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j


def _bolt_port(conf_dir: Path) -> int | None:
    """The Bolt port a runtime's neo4j.conf listens on (None: not configured yet)."""
    conf = conf_dir / "neo4j.conf"
    if not conf.is_file():
        return None
    found = re.search(r"^server\.bolt\.listen_address=.*:(\d+)$", conf.read_text(), re.M)
    return int(found.group(1)) if found else None


async def test_the_tests_server_is_not_make_runs(
    settings: Settings, executor: Executor, agent_id: str
) -> None:
    if not settings.local_neo4j:
        pytest.skip("NEO4J_URI is set: the tests use the server the user named")
    assert settings.neo4j_dir is not None, (
        "the tests use `make run`'s local Neo4j: run them through scripts/test.sh, or "
        "`source scripts/test-env.sh` and `hippograph neo4j start` first"
    )
    assert settings.neo4j_home != settings.default_neo4j_home
    ours = local_neo4j(settings)
    assert ours._pid() is not None, "the tests' server is not running from the tests' folder"
    assert _bolt_port(ours.conf) == settings.neo4j_bolt_port
    theirs = local_neo4j(settings.model_copy(update={"neo4j_dir": None}))
    their_port = _bolt_port(theirs.conf)
    assert their_port != settings.neo4j_bolt_port
    await executor.run_text(load_query("create_entity"), {"agent_id": agent_id, "key": "probe"})
    if theirs._pid() is None or their_port is None:
        return  # `make run`'s server is not running: nothing of it can be touched
    uri = f"bolt://127.0.0.1:{their_port}"
    async with connected(uri, settings.neo4j_user, theirs.passwords()[0]) as ex:
        assert await ex.run_text(load_query("agent_counts"), {"agent_id": agent_id}) == []
