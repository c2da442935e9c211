"""``read/agent_counts`` reads the agent's sizes from its AgentStats counter: the counter equals
the agent's nodes counted one by one after every kind of write and delete (structured import,
offline write, async-write event log, transfer import, consolidation observations, erase of a
fact, retention of messages, agent deletion in batches), and an agent written before the counter
existed is counted exactly and gets a correct counter at its next write."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.erase import erase_fact
from graph.memory.jobs.jobs_config import RetentionConfig
from graph.memory.maintenance.retention import run_retention
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact, WritePipeline
from graph.providers import HashEmbedder
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

SIZES = ("agent_facts", "agent_events", "agent_observations")


async def counts(executor: Executor, agent_id: str) -> dict[str, int]:
    rows = await executor.run("read/agent_counts", {"agent_id": agent_id}, read=True)
    return {k: int(rows[0][k]) for k in SIZES}


async def reference(executor: Executor, agent_id: str) -> dict[str, int]:
    rows = await executor.run_text(
        load_query("agent_node_totals"), {"agent_id": agent_id}, read=True
    )
    return {k: int(v) for k, v in rows[0].items()}


async def assert_exact(executor: Executor, agent_id: str, counters: int = 1) -> dict[str, int]:
    ref = await reference(executor, agent_id)
    assert ref.pop("counters") == counters
    assert await counts(executor, agent_id) == ref
    return ref


def _observation(i: int, fact_ids: list[str]) -> dict[str, Any]:
    return {
        "id": f"obs-{i}",
        "text": f"observation {i}",
        "kind": "pattern",
        "embedding": [0.1] * 384,
        "fact_ids": fact_ids,
    }


async def test_counter_stays_exact_through_writes_and_deletes(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    res = await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity("Vertix", "organization")],
        facts=[StructuredFact(f"Rafael noted item {i} about Vertix", "Rafael") for i in range(7)],
        events=[StructuredEvent(f"message {i}", "Rafael") for i in range(3)],
    )
    assert await assert_exact(executor, agent_id) == {
        "agent_facts": 7,
        "agent_events": 3,
        "agent_observations": 0,
    }
    # The same import again stores nothing new: the counter does not move either.
    await remember(
        executor,
        hash_embedder,
        agent_id,
        facts=[StructuredFact(f"Rafael noted item {i} about Vertix", "Rafael") for i in range(7)],
    )
    assert (await assert_exact(executor, agent_id))["agent_facts"] == 7

    pipe = WritePipeline(executor, hash_embedder, None)
    await pipe.write(agent_id, "I live in Curitiba and I work at Vertix.", "Rafael")
    await executor.run(
        "jobs/log_event",
        {"agent_id": agent_id, "id": f"{agent_id}-async", "props": {"text": "later"}},
    )
    await executor.run(
        "consolidation/upsert_observations",
        {"agent_id": agent_id, "rows": [_observation(i, res.fact_ids[:2]) for i in range(3)]},
    )
    before = await assert_exact(executor, agent_id)
    assert before["agent_observations"] == 3 and before["agent_facts"] >= 8

    await executor.run(
        "consolidation/delete_observations", {"agent_id": agent_id, "ids": ["obs-0"]}
    )
    await erase_fact(executor, agent_id, res.fact_ids[0])  # and observations derived from it
    after = await assert_exact(executor, agent_id)
    assert after["agent_facts"] == before["agent_facts"] - 1
    assert after["agent_observations"] < before["agent_observations"]

    future = datetime.now(UTC) + timedelta(days=1)
    await run_retention(executor, agent_id, RetentionConfig(events_s=60.0), future)
    assert (await assert_exact(executor, agent_id))["agent_events"] < after["agent_events"]

    # Agent deletion in small batches: exact after every batch, whatever its labels.
    while True:
        rows = await executor.run("erase/delete_agent", {"agent_id": agent_id, "batch": 3})
        ref = await reference(executor, agent_id)
        assert await counts(executor, agent_id) == {k: ref[k] for k in SIZES}
        if int(rows[0]["deleted"]) < 3:
            break
    assert await reference(executor, agent_id) == dict.fromkeys((*SIZES, "counters"), 0)


async def test_agent_without_a_counter_is_counted_and_gets_one(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    facts = [StructuredFact(f"Ana noted item {i}", "Ana") for i in range(5)]
    await remember(executor, hash_embedder, agent_id, facts=facts)
    await executor.run_text(load_query("drop_agent_stats"), {"agent_id": agent_id})
    assert await assert_exact(executor, agent_id, counters=0) == {
        "agent_facts": 5,
        "agent_events": 0,
        "agent_observations": 0,
    }
    # The next write creates the counter from the agent's nodes, then adds its own.
    await remember(executor, hash_embedder, agent_id, facts=[StructuredFact("Ana moved", "Ana")])
    assert (await assert_exact(executor, agent_id))["agent_facts"] == 6
    await executor.run("admin/delete_agent", {"agent_id": agent_id, "batch": 4})
    ref = await reference(executor, agent_id)
    assert await counts(executor, agent_id) == {k: ref[k] for k in SIZES}
