"""``hippograph reembed`` end to end: an agent written with another model is refused by
``hippograph retrieve`` (exit 2, the fix named), then re-embedded with the configured
embedder (real MiniLM from settings), after which retrieve answers."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from graph.executor import Executor
from graph.providers import HashEmbedder
from server.cli import app
from tests.integration.read.data import (
    MARCOS_FACTS,
    remember_marcos,
)

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def hashed_agent(executor: Executor, agent_id: str) -> str:
    await remember_marcos(executor, HashEmbedder(), agent_id)
    return agent_id


def test_reembed_cli_moves_an_agent_to_the_configured_model(hashed_agent: str) -> None:
    agent_id = hashed_agent
    runner = CliRunner()
    query = [
        "retrieve",
        "--agent",
        agent_id,
        "--no-rerank",
        "--json",
        "Where does Marcos Tavares live?",
    ]
    refused = runner.invoke(app, query)
    assert refused.exit_code == 2, refused.output
    assert "hippograph reembed" in refused.output and "Traceback" not in refused.output

    moved = runner.invoke(app, ["reembed", "--agent", agent_id, "--batch-size", "4"])
    assert moved.exit_code == 0, moved.output
    report = json.loads(moved.stdout)
    assert report[0]["previous"] == "hash" and report[0]["embedder"] != "hash"
    assert report[0]["vectors"] >= len(MARCOS_FACTS)

    answered = runner.invoke(app, query)
    assert answered.exit_code == 0, answered.output
    facts = json.loads(answered.stdout)["facts"]
    assert facts[0]["text"] == "Marcos Tavares lives in Porto Alegre"
