"""Reads are marked as reads, so a ``neo4j://`` routing driver sends them to a cluster's
secondaries (docs/scaling.md): every statement of ``retrieve`` and of the GraphQL entity reads
goes through ``Executor.run(..., read=True)``, which the driver executor turns into
``routing_=READ`` (unit: tests/unit/graph/test_read_routing.py)."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.fakes import AccessRecorder

pytestmark = pytest.mark.neo4j


async def test_retrieve_runs_only_read_transactions(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await WritePipeline(executor, embedder, None).write(
        agent_id, "I live in Porto and work at Acme.", "Rafael"
    )
    recorder = AccessRecorder(executor)
    result = await Retriever(recorder, embedder).retrieve(agent_id, "Where does Rafael live?")
    assert result.facts, "the retrieve found nothing: the check below would be vacuous"
    # plan catalog, agent counts and every signal in read/signals (one statement since i10)
    assert len(recorder.calls) >= 3 and ("read/signals", "read") in recorder.calls
    assert [c for c in recorder.calls if c[1] != "read"] == []
