"""Retention on the real Neo4j: records older than their time-to-live go (or, for audit
records, lose their text), recent ones and messages still waiting for extraction stay, facts
are never touched; the ``retention`` job kind runs it from the queue."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta

import pytest

from graph.executor import Executor
from graph.memory.facade import Memory
from graph.memory.jobs import RetentionConfig, Worker
from graph.memory.maintenance.kinds import maintenance_spec
from graph.memory.maintenance.retention import run_retention
from graph.providers import HashEmbedder
from server.composition import default_handlers
from tests.cypher import load_query
from tests.integration.gql.support import memory_for

pytestmark = pytest.mark.neo4j

TTL = RetentionConfig(
    events_s=1_000, receipts_s=1_000, jobs_s=1_000, dedup_s=1_000, audit_text_s=1_000
)


async def _state(executor: Executor, agent_id: str) -> dict[str, dict[str, tuple[bool, bool]]]:
    rows = await executor.run_text(load_query("retention_state"), {"agent_id": agent_id}, read=True)
    out: dict[str, dict[str, tuple[bool, bool]]] = defaultdict(dict)
    for r in rows:
        out[r["label"]][r["id"]] = (bool(r["text"]), bool(r["pending"]))
    return out


async def _traffic(memory: Memory, agent_id: str, n: int) -> None:
    """Each kind of record retention handles: an idempotent write (event, receipt, audits), an
    extracted async write (job done, dedup slot), and an async write left pending."""
    await memory.writer.write(
        agent_id, f"Clara Rezende visited museum {n}.", "Bruno", idempotency_key=f"k{n}"
    )
    await memory.write_async(agent_id, f"Clara Rezende read book {n}.", "Bruno")
    await Worker(memory.job_deps(), default_handlers(), agent_id=agent_id).run_until_idle()
    await memory.write_async(agent_id, f"Clara Rezende bought lamp {n}.", "Bruno")


async def test_old_records_go_recent_ones_and_pending_work_stay(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    memory = memory_for(executor, hash_embedder)
    await _traffic(memory, agent_id, 1)
    old = await _state(executor, agent_id)
    middle = datetime.now(UTC)
    await _traffic(memory, agent_id, 2)
    before = await _state(executor, agent_id)
    assert {"Event", "WriteReceipt", "Job", "JobDedup", "Audit", "Fact"} <= set(before)

    done = await run_retention(executor, agent_id, TTL, middle + timedelta(seconds=1_000))

    after = await _state(executor, agent_id)
    gone: dict[str, int] = {}
    for label in ("Event", "WriteReceipt", "Job", "JobDedup"):
        pending_now = {rid for rid, (_, p) in before[label].items() if p}
        # A job still pending in the first batch finished during the second: it is recent.
        pending_then = {rid for rid, (_, p) in old[label].items() if p and label == "Job"}
        expected_gone = set(old[label]) - pending_now - pending_then
        assert expected_gone, label
        assert set(before[label]) - set(after[label]) == expected_gone, label
        gone[label] = len(expected_gone)
    assert set(after["Fact"]) == set(before["Fact"])  # memory itself is never a retention target
    for aid in before["Audit"]:
        text, _ = after["Audit"][aid]
        assert text == (aid not in old["Audit"])
    assert (done["events"], done["receipts"], done["jobs"], done["dedup"]) == (
        gone["Event"],
        gone["WriteReceipt"],
        gone["Job"],
        gone["JobDedup"],
    )
    assert done["audit_text"] == len(old["Audit"])
    # A second run finds nothing more; the pending messages of the first batch are still there.
    again = await run_retention(executor, agent_id, TTL, middle + timedelta(seconds=1_000))
    assert sum(again.values()) == 0
    assert any(p for _, p in after["Event"].values())


async def test_retention_runs_as_a_job_and_keeps_what_has_no_ttl(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    memory = memory_for(executor, hash_embedder)
    await _traffic(memory, agent_id, 1)
    before = await _state(executor, agent_id)
    await memory.queue.enqueue(maintenance_spec("retention", agent_id, None))
    worker = Worker(
        memory.job_deps(), {"retention": default_handlers()["retention"]}, agent_id=agent_id
    )
    assert await worker.run_until_idle() == 1
    after = await _state(executor, agent_id)
    # Default settings: nothing is 30 days old, events and audit text are kept forever.
    for label in ("Event", "WriteReceipt", "JobDedup", "Audit", "Fact"):
        assert {k: after[label].get(k) for k in before[label]} == before[label], label
    jobs = await memory.browse.jobs(agent_id)
    assert any(j.kind == "retention" and j.status == "done" for j in jobs)
