"""The start-up warm-up runs the statement a real retrieve runs (so Neo4j has its plan cached
before the first request) for an agent that holds nothing, and only reads."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.read.warmup import WARMUP_AGENT, warm_up
from graph.memory.remember import remember
from graph.memory.write import StructuredFact
from graph.providers import Embedder
from tests.cypher import load_query
from tests.fakes import AccessRecorder

pytestmark = pytest.mark.neo4j


async def test_warm_up_runs_the_real_signals_statement_and_only_reads(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        facts=[StructuredFact("Ana works at Acme in Curitiba.", subject="Ana")],
    )
    seen_by_request = AccessRecorder(executor)
    await Retriever(seen_by_request, embedder).retrieve(agent_id, "Where does Ana work?")
    warming = AccessRecorder(executor)

    took = await warm_up(Retriever(warming, embedder))

    assert took > 0
    assert [c for c in warming.calls if c[1] != "read"] == []
    assert ("read/signals", "read") in warming.calls
    assert set(seen_by_request.calls) <= set(warming.calls)
    assert (
        await executor.run_text(load_query("agent_counts"), {"agent_id": WARMUP_AGENT}, read=True)
        == []
    )
