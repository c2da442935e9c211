"""``hippograph apikey create|list|revoke`` against the real Neo4j; the printed key works and
only its sha256 is stored."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator

import pytest
from typer.testing import CliRunner

from gql.permissions import Principal
from graph.agent_deletion import delete_agent
from graph.executor import Executor, connected
from server.auth import ApiKeyStore
from server.cli import app
from server.settings import Settings
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def tenant(executor: Executor) -> AsyncIterator[str]:
    name = f"cli-{uuid.uuid4().hex[:8]}"
    yield name
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": name})
    for agent in ("a1", "a2"):  # agent ids belong to one tenant: release them
        await delete_agent(executor, f"{name}-{agent}")


def _resolve(key: str) -> Principal | None:
    s = Settings()

    async def main() -> Principal | None:
        async with connected(s.bolt_uri, s.neo4j_user, s.neo4j_secret()) as ex:
            stored = await ex.run("auth/list_keys", {"tenant": None}, read=True)
            assert key not in str(stored)  # only the hash is stored
            return await ApiKeyStore(ex).resolve(key)

    return asyncio.run(main())


def test_create_list_revoke(tenant: str) -> None:  # sync: the CLI runs its own event loop
    runner = CliRunner()
    a1, a2 = f"{tenant}-a1", f"{tenant}-a2"
    created = runner.invoke(app, ["apikey", "create", "--tenant", tenant, "--agents", f"{a1},{a2}"])
    assert created.exit_code == 0, created.output
    key = re.search(r"(hg_\S+)", created.output).group(1)  # type: ignore[union-attr]
    key_id = re.search(r"key id: (\S+)", created.output).group(1)  # type: ignore[union-attr]
    principal = _resolve(key)
    assert principal is not None and principal.agents == frozenset({a1, a2})

    listed = runner.invoke(app, ["apikey", "list", "--tenant", tenant])
    assert key_id in listed.output and "active" in listed.output and key not in listed.output
    revoked = runner.invoke(app, ["apikey", "revoke", key_id])
    assert revoked.exit_code == 0
    assert _resolve(key) is None
    missing = runner.invoke(app, ["apikey", "create", "--tenant", tenant])
    assert missing.exit_code == 1 and "--agents" in missing.output
