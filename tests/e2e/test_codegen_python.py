"""Codegen as users do it: ariadne-codegen builds a typed Python client from gql/schema.graphql
and tests/e2e/operations/*.graphql; the client then runs every operation against the live API."""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("pyclient")
    config = out / "codegen.toml"
    config.write_text(
        "[tool.ariadne-codegen]\n"
        f'schema_path = "{ROOT / "gql" / "schema.graphql"}"\n'
        f'queries_path = "{ROOT / "tests" / "e2e" / "operations"}"\n'
        'target_package_name = "users_codegen_client"\n'
        f'target_package_path = "{out}"\n'
        'client_name = "HippographClient"\n'
        "[tool.ariadne-codegen.scalars.DateTime]\n"
        'type = "datetime.datetime"\n'
    )
    exe = Path(sys.executable).with_name("ariadne-codegen")
    done = subprocess.run(
        [str(exe), "--config", str(config), "client"],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("users_codegen_client")
    finally:
        sys.path.remove(str(out))


def test_generated_client_runs_every_operation(
    client_package: Any, live_api: LiveApi, demo_agent: str
) -> None:
    async def main() -> None:
        http = httpx.AsyncClient(headers=live_api.headers, timeout=120)
        client = client_package.HippographClient(url=f"{live_api.url}/graphql", http_client=http)
        card = await client.entity_card(agent_id=demo_agent, key="person:guilherme_maturana")
        assert card.entity is not None and card.entity.name == "Guilherme Maturana"
        assert "Guili" in card.entity.aliases
        rels = card.entity.relationships
        assert any(r.type_ == "lives_in" and r.active for r in rels)
        for r in rels:  # each edge names both ends and which one Guilherme is
            mine = r.source_key if r.direction.value == "OUTGOING" else r.target_key
            other = r.target_key if r.direction.value == "OUTGOING" else r.source_key
            assert mine == "person:guilherme_maturana" and r.other_key == other
        assert {r.direction.value for r in rels} == {"OUTGOING", "INCOMING"}

        found = await client.retrieve_context(
            agent_id=demo_agent, query="Where does Guilherme work?"
        )
        assert found.retrieve.context and len(found.retrieve.facts) <= 5

        page1 = await client.people_page(agent_id=demo_agent)
        assert page1.entities.page_info.has_next_page
        page2 = await client.people_page(
            agent_id=demo_agent, after=page1.entities.page_info.end_cursor
        )
        keys = [e.node.key for e in page1.entities.edges + page2.entities.edges]
        assert len(keys) == len(set(keys)) == 4

        graph = await client.neighborhood(
            agent_id=demo_agent, key="person:guilherme_maturana", hops=2
        )
        assert graph.neighborhood.nodes[0].depth == 0 and graph.neighborhood.edges

        # Closed sets are generated as Python enums, in arguments and in results.
        enums = client_package
        activity = await client.recent_activity(
            agent_id=demo_agent, status=enums.JobStatus.DONE, kind=enums.FactKind.PREFERENCE
        )
        assert all(
            j.status is enums.JobStatus.DONE and isinstance(j.kind, enums.JobKind)
            for j in activity.jobs
        )
        assert activity.audit_log and all(
            a.action is enums.WriteAction.ADD and isinstance(a.mode, enums.WriteMode)
            for a in activity.audit_log
        )
        assert activity.facts.edges and all(
            e.node.kind is enums.FactKind.PREFERENCE for e in activity.facts.edges
        )
        assert all(
            isinstance(s, enums.RetrievalSignal) for f in found.retrieve.facts for s in f.sources
        )

        remembered = await client.remember_fact(
            agent_id=demo_agent,
            text="Guilherme ran the Lisbon half marathon",
            subject="Guilherme Maturana",
        )
        assert remembered.remember.errors == []
        assert remembered.remember.summary is not None
        await http.aclose()

    asyncio.run(main())
