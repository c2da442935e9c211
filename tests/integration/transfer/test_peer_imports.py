"""Imports from peers on the real Neo4j: a Graphiti-shaped graph (Graphiti's own node and edge
schema, written under a unique ``group_id``) read through its Neo4j, and a Mem0 ``get_all`` file
through the CLI. Edge validity becomes fact validity, so ``as_of`` answers from the past."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.transfer.peers import import_graphiti
from graph.providers import Embedder
from server.cli import app
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

T0 = datetime(2024, 3, 1, tzinfo=UTC)
T1 = datetime(2024, 9, 1, tzinfo=UTC)
NOW = datetime(2025, 1, 5, tzinfo=UTC)
MEM0 = Path(__file__).resolve().parents[2] / "data" / "mem0_get_all.json"


def _fixture(group: str) -> dict[str, object]:
    def ep(uid: str, content: str, at: datetime) -> dict[str, object]:
        return {
            "uuid": f"{group}-{uid}",
            "name": uid,
            "content": content,
            "source": "message",
            "source_description": "chat",
            "valid_at": at,
            "created_at": NOW,
            "entity_edges": [],
        }

    def ent(uid: str, name: str, summary: str, person: bool = False) -> dict[str, object]:
        return {
            "props": {
                "uuid": f"{group}-{uid}",
                "name": name,
                "summary": summary,
                "created_at": NOW,
                "labels": ["Entity"],
            },
            "person": person,
        }

    def edge(
        uid: str,
        src: str,
        dst: str,
        name: str,
        fact: str,
        episodes: list[str],
        valid_at: datetime,
        invalid_at: datetime | None = None,
        expired_at: datetime | None = None,
    ) -> dict[str, object]:
        props = {
            "uuid": f"{group}-{uid}",
            "name": name,
            "fact": fact,
            "created_at": NOW,
            "episodes": [f"{group}-{e}" for e in episodes],
            "valid_at": valid_at,
            "invalid_at": invalid_at,
            "expired_at": expired_at,
        }
        return {
            "source": f"{group}-{src}",
            "target": f"{group}-{dst}",
            "props": {k: v for k, v in props.items() if v is not None},
        }

    return {
        "group": group,
        "episodes": [
            ep("ep1", "Priya: I work at Globex as a data engineer.", T0),
            ep("ep2", "Priya: I joined Initech last week.", T1),
        ],
        "entities": [
            ent("priya", "Priya Raman", "Priya is a data engineer.", person=True),
            ent("globex", "Globex", "A logistics company."),
            ent("initech", "Initech", "A software company."),
        ],
        "edges": [
            edge(
                "e1",
                "priya",
                "globex",
                "WORKS_AT",
                "Priya Raman works at Globex",
                ["ep1"],
                T0,
                invalid_at=T1,
                expired_at=NOW,
            ),
            edge("e2", "priya", "initech", "WORKS_AT", "Priya Raman works at Initech", ["ep2"], T1),
        ],
        "mentions": [
            {"episode": f"{group}-ep1", "entity": f"{group}-priya"},
            {"episode": f"{group}-ep1", "entity": f"{group}-globex"},
        ],
    }


@pytest.fixture
async def graphiti_group(executor: Executor) -> AsyncIterator[str]:
    group = f"graphiti-{uuid.uuid4().hex[:10]}"
    await executor.run_text(load_query("graphiti_fixture"), _fixture(group))
    yield group
    await executor.run_text(load_query("graphiti_cleanup"), {"group": group})


async def test_graphiti_graph_imports_with_validity_and_episodes(
    executor: Executor, embedder: Embedder, agent_id: str, graphiti_group: str
) -> None:
    report = await import_graphiti(
        executor, executor, embedder, agent_id, groups=[graphiti_group], page_size=1
    )
    assert report["source"] == {"episodes": 2, "entities": 3, "edges": 2}
    assert report["mapped"] == {
        "episodes → events": 2,
        "entities → entities": 3,
        "edges → facts": 2,
        "valid edges → relationships": 1,
    }
    assert report["notes"] == {"closed edge: kept as fact history, no relationship": 1}
    assert report["not_mapped"]["mentions (recomputed from facts)"] == 2
    assert report["not_mapped"]["communities"] == 1
    assert report["written"]["facts_added"] == 2 and report["written"]["events"] == 2

    facts = await executor.run_text(load_query("transfer_facts"), {"agent": agent_id})
    globex, initech = facts
    assert globex["text"] == "Priya Raman works at Globex"
    assert (globex["valid_from"], globex["valid_to"]) == (T0, T1)
    assert initech["valid_from"] == T1 and initech["valid_to"] is None
    assert globex["events"] == initech["events"] == 1
    assert {f["source_context"] for f in facts} == {"graphiti"}

    retriever = Retriever(executor, embedder)
    query = "Where does Priya Raman work?"
    now = await retriever.retrieve(agent_id, query, options={"enable_reranker": False})
    assert [f.text for f in now.facts] == ["Priya Raman works at Initech"]
    past = await retriever.retrieve(
        agent_id, query, as_of=T0 + timedelta(days=10), options={"enable_reranker": False}
    )
    assert [f.text for f in past.facts] == ["Priya Raman works at Globex"]

    again = await import_graphiti(executor, executor, embedder, agent_id, groups=[graphiti_group])
    assert again["written"]["facts_added"] == 0  # same uuids: nothing doubled
    assert len(await executor.run_text(load_query("transfer_facts"), {"agent": agent_id})) == 2


def test_mem0_file_imports_through_the_cli(agent_id: str) -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["import", "--from", "mem0", str(MEM0), "--agent", agent_id])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["mapped"] == {"entities": 1, "facts": 3, "relations": 2}
    assert report["written"]["facts_added"] == 3
    assert report["skipped"] == [
        "memories[3]: no memory text",
        "relations[2]: needs source, relationship and target",
    ]
    answer = runner.invoke(
        app, ["retrieve", "--agent", agent_id, "--no-rerank", "--json", "What is alex allergic to?"]
    )
    assert answer.exit_code == 0, answer.output
    texts = [f["text"] for f in json.loads(answer.stdout)["facts"]]
    assert texts[0] == "Is a vegetarian and allergic to peanuts"
    bad = runner.invoke(app, ["import", "--from", "mem0", str(Path(__file__)), "--agent", agent_id])
    assert bad.exit_code == 2 and "not a JSON document" in bad.output
    assert "Traceback" not in bad.output
