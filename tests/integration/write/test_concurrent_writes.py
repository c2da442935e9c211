"""Concurrent writers of one fact (two API processes, workers, or one process's concurrent
requests) plan it before either commits; the commit transaction sees the first one's fact
under the subject's lock and reinforces it instead of creating a twin."""

from __future__ import annotations

import asyncio

import pytest

from graph.executor import Executor
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.cypher import load_query
from tests.integration.write.helpers import SPEAKER, counts

pytestmark = pytest.mark.neo4j


async def test_concurrent_writes_of_one_fact_create_it_once(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    pipe = WritePipeline(executor, embedder, None)
    writes = await asyncio.gather(
        *(pipe.write(agent_id, "I work at Acme.", SPEAKER) for _ in range(4))
    )
    assert all(w.success for w in writes)
    c = await counts(executor, agent_id)
    assert c["active_facts"] == 1, c
    state = (await executor.run_text(load_query("scale_check"), {"agent_id": agent_id}, read=True))[
        0
    ]
    assert state["dup_facts"] == [] and state["events"] == 4
    assert state["events_without_facts"] == []  # every message is the fact's provenance
