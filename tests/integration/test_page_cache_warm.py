"""The warm-up after a restart (``graph.page_cache``, ``graph.memory.read.warmup``,
``hippograph neo4j warm``) against the real server: it reads exactly an agent's nodes, the
relationships leaving them and their property values, whatever the batching; it asks the
agents questions of their own facts; and it writes nothing."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from graph.executor import Executor
from graph.memory.read.warmup import warm_read_paths
from graph.memory.remember import remember
from graph.page_cache import agent_sizes, warm_page_cache
from graph.providers import HashEmbedder
from server.cli import app
from server.composition import retrieve_config
from server.settings import Settings
from tests.integration.read.data import (
    MARCOS_ENTITIES,
    MARCOS_FACTS,
    MARCOS_RELATIONS,
    remember_marcos,
)

pytestmark = pytest.mark.neo4j

LABELS = ("Fact", "Entity", "Event", "Observation")

COUNT_AGENT = """
MATCH (n {agent_id: $agent_id})
WHERE any(l IN labels(n) WHERE l IN $labels)
OPTIONAL MATCH (n)-[r]->()
WITH n, collect(r) AS out
RETURN count(n) AS nodes, sum(size(out)) AS relationships,
       sum(size(keys(n)) + reduce(k = 0, r IN out | k + size(keys(r)))) AS values
"""

COUNT_STORE = "MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS n, count(r) AS r"


@pytest.fixture
async def marcos(executor: Executor, agent_id: str) -> str:
    await remember_marcos(executor, HashEmbedder(), agent_id)
    return agent_id


async def test_one_batch_reads_exactly_the_agents_memory(executor: Executor, marcos: str) -> None:
    expected = (await executor.run_text(COUNT_AGENT, {"agent_id": marcos, "labels": list(LABELS)}))[
        0
    ]
    assert expected["nodes"] >= len(MARCOS_FACTS) + len(MARCOS_ENTITIES)
    assert expected["relationships"] >= len(MARCOS_RELATIONS)
    read = (await executor.run("admin/warm_pages", {"agents": [marcos]}, read=True))[0]
    assert (read["nodes"], read["relationships"], read["values"]) == (
        expected["nodes"],
        expected["relationships"],
        expected["values"],
    )


async def test_the_plan_counts_the_agent_from_its_indexes(executor: Executor, marcos: str) -> None:
    plan = dict(await agent_sizes(executor))
    expected = (await executor.run_text(COUNT_AGENT, {"agent_id": marcos, "labels": list(LABELS)}))[
        0
    ]
    assert plan[marcos] == expected["nodes"]


async def test_batching_does_not_change_what_is_read_and_nothing_is_written(
    executor: Executor, marcos: str, other_agent: str
) -> None:
    await remember(executor, HashEmbedder(), other_agent, facts=MARCOS_FACTS[:3])
    before = (await executor.run_text(COUNT_STORE, read=True))[0]
    planned: list[int] = []
    read: list[int] = []
    sizes = await agent_sizes(executor)
    one_each = await warm_page_cache(
        executor, sizes, max_items=1, planned=planned.append, progress=read.append
    )
    together = await warm_page_cache(executor, sizes)
    assert (one_each.agents, one_each.nodes, one_each.relationships, one_each.values) == (
        together.agents,
        together.nodes,
        together.relationships,
        together.values,
    )
    assert one_each.agents >= 2 and len(read) == one_each.agents  # one statement per agent
    assert planned == [sum(read)] and sum(read) == one_each.nodes
    assert (await executor.run_text(COUNT_STORE, read=True))[0] == before


async def test_the_read_paths_are_warmed_with_the_agents_own_facts_and_nothing_is_written(
    executor: Executor, marcos: str, settings: Settings
) -> None:
    before = (await executor.run_text(COUNT_STORE, read=True))[0]
    planned: list[int] = []
    asked = await warm_read_paths(
        executor,
        retrieve_config(settings),
        await agent_sizes(executor),
        questions=10_000,
        per_agent=2,
        planned=planned.append,
    )
    # every agent of the store is asked (10,000 questions cover them); the walkthrough agent's
    # vectors were written by the hash embedder, whose name the stored-vector embedder takes
    assert asked == planned[0] >= 2
    assert (await executor.run_text(COUNT_STORE, read=True))[0] == before


def test_the_cli_reports_what_it_read(marcos: str, settings: Settings) -> None:
    result = CliRunner().invoke(app, ["neo4j", "warm", "--questions", "6"])
    assert result.exit_code == 0, result.output
    assert "page cache warmed in" in result.output and "Traceback" not in result.output
    assert "read paths warmed in" in result.output
    # the local server's database folder is read first (not a server of the user's)
    assert ("MiB of" in result.output) == settings.local_neo4j
