"""``hippograph retrieve`` end to end (real Neo4j, real MiniLM embedder from settings)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from graph.executor import Executor
from graph.providers import Embedder
from server.cli import app
from tests.integration.read.data import (
    remember_marcos,
)

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def marcos_agent(executor: Executor, agent_id: str, embedder: Embedder) -> str:
    await remember_marcos(executor, embedder, agent_id)
    return agent_id


def test_cli_prints_context_and_score_table(marcos_agent: str) -> None:
    runner = CliRunner()
    out = runner.invoke(
        app, ["retrieve", "--agent", marcos_agent, "--no-rerank", "Onde o Marcos Tavares mora?"]
    )
    assert out.exit_code == 0, out.output
    assert out.output.startswith("Known facts:\n- Marcos Tavares lives in Porto Alegre")
    assert "final" in out.output and "formula" in out.output and "sem" in out.output

    as_json = runner.invoke(
        app,
        [
            "retrieve",
            "-a",
            marcos_agent,
            "--json",
            "--top",
            "2",
            "-o",
            "min_score=0",
            "Where does Marcos Tavares live?",
        ],
    )
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert len(data["facts"]) == 2
    assert data["facts"][0]["text"] == "Marcos Tavares lives in Porto Alegre"
    assert set(data["facts"][0]["scores"]) >= {"semantic", "keyword", "graph", "final"}

    bad = runner.invoke(app, ["retrieve", "-a", marcos_agent, "-o", "nope=1", "where?"])
    assert bad.exit_code == 2 and "unknown retrieve option" in bad.output
