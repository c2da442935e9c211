"""No lost or stuck message, on the write side, against the real Neo4j: a writer that dies between the event
and the commit neither loses the message nor locks its idempotency key forever; concurrent
identical messages and concurrent updates of one fact never leave duplicate active facts or a
fact with two active successors."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

from graph.errors import GraphUnavailable, WriteInProgress
from graph.executor import Executor, Transaction
from graph.memory.write import WritePipeline
from graph.providers import Embedder, HashEmbedder
from tests.cypher import load_query
from tests.fakes import ScriptedLLM, WrappedExecutor
from tests.integration.write.helpers import SPEAKER, counts, extraction, reconcile_with

pytestmark = pytest.mark.neo4j

T = TypeVar("T")
INFORMED = "Stage: extract_informed"


class DiesAtCommit(WrappedExecutor):
    """The process "dies" at the write transaction after the event log: the transaction
    never runs and nothing is cleaned up (a BaseException, like a cancelled task or SIGKILL,
    escapes the pipeline's error handling)."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.writes = 0

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.writes += 1
        if self.writes >= 2:
            raise asyncio.CancelledError("process killed")
        return await super().write(work)


class CommitBarrier(WrappedExecutor):
    """Holds the first ``n`` write transactions until all ``n`` have arrived: every writer has
    read and decided before any commits (the worst interleaving, every time)."""

    def __init__(self, inner: Executor, n: int) -> None:
        super().__init__(inner)
        self.barrier = asyncio.Barrier(n)
        self.n = n
        self.arrived = 0

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.arrived += 1
        if self.arrived <= self.n:
            await asyncio.wait_for(self.barrier.wait(), timeout=60)
        return await super().write(work)


async def integrity(executor: Executor, agent_id: str) -> dict[str, int]:
    rows = await executor.run_text(load_query("fact_integrity"), {"agent_id": agent_id}, read=True)
    return {k: int(v) for k, v in rows[0].items()}


async def pending(executor: Executor, agent_id: str) -> list[str]:
    rows = await executor.run_text(load_query("pending_events"), {"agent_id": agent_id}, read=True)
    return [r["id"] for r in rows]


async def age(executor: Executor, agent_id: str, seconds: int) -> None:
    await executor.run_text(load_query("age_receipt"), {"agent_id": agent_id, "seconds": seconds})


async def log_events(executor: Executor, agent_id: str, text: str, n: int) -> list[str]:
    ids = [str(uuid.uuid4()) for _ in range(n)]
    now = datetime.now(UTC)
    for eid in ids:
        await executor.run(
            "jobs/log_event",
            {
                "agent_id": agent_id,
                "id": eid,
                "props": {
                    "text": text,
                    "speaker": SPEAKER,
                    "occurred_at": now,
                    "ingested_at": now,
                    "thread_id": None,
                    "source": "async",
                    "embedding": None,
                    "content_hash": eid,
                },
            },
        )
    return ids


async def test_dead_writer_claim_expires_and_retry_runs_once(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    dying = WritePipeline(DiesAtCommit(executor), hash_embedder, None)
    with pytest.raises(asyncio.CancelledError):
        await dying.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-1")
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["receipts"]) == (1, 0, 1)  # logged, never extracted
    assert len(await pending(executor, agent_id)) == 1

    pipe = WritePipeline(executor, hash_embedder, None)
    # Before the claim expires: a typed "in progress" answer, not a duplicate write.
    with pytest.raises(WriteInProgress) as info:
        await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-1")
    assert info.value.retry_after_s > 0
    assert (await counts(executor, agent_id))["facts"] == 0

    # After the TTL (the claim made to look 11 minutes old): the retry runs the write, once,
    # on the event the dead writer logged.
    await age(executor, agent_id, 660)
    res = await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-1")
    assert res.success and res.facts_added
    assert any("did not finish" in w for w in res.warnings)
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["receipts"]) == (1, 1, 1)
    assert await pending(executor, agent_id) == []
    again = await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-1")
    assert [f.id for f in again.facts_added] == [f.id for f in res.facts_added]
    assert (await counts(executor, agent_id))["facts"] == 1


class Neo4jDropsAtCommit(WrappedExecutor):
    """Neo4j goes away after the event log: the commit and the claim's release both fail."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.writes = 0

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.writes += 1
        if self.writes >= 2:
            raise GraphUnavailable("Neo4j unavailable: connection refused")
        return await super().write(work)


async def test_neo4j_lost_before_commit_keeps_the_message_and_frees_the_key_later(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    res = await WritePipeline(Neo4jDropsAtCommit(executor), hash_embedder, None).write(
        agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-drop"
    )
    assert not res.success and res.error and "message is kept" in res.error
    assert len(await pending(executor, agent_id)) == 1  # for the orphan sweep
    pipe = WritePipeline(executor, hash_embedder, None)
    with pytest.raises(WriteInProgress):  # the release failed too: the claim is pending
        await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-drop")
    await age(executor, agent_id, 660)
    again = await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-drop")
    assert again.success and again.facts_added and again.event_id == res.event_id
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["receipts"]) == (1, 1, 1)
    assert await pending(executor, agent_id) == []


class PausesAtCommit(WrappedExecutor):
    """A live but slow writer: its commit transaction waits until ``gate`` is set."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.writes = 0
        self.arrived = asyncio.Event()
        self.gate = asyncio.Event()

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.writes += 1
        if self.writes == 2:
            self.arrived.set()
            await asyncio.wait_for(self.gate.wait(), timeout=60)
        return await super().write(work)


async def test_a_claim_taken_over_from_a_live_writer_only_wastes_work(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    slow_ex = PausesAtCommit(executor)
    slow = asyncio.create_task(
        WritePipeline(slow_ex, hash_embedder, None).write(
            agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-live"
        )
    )
    await asyncio.wait_for(slow_ex.arrived.wait(), timeout=60)
    await age(executor, agent_id, 660)  # the TTL passes while the first writer still runs
    pipe = WritePipeline(executor, hash_embedder, None)
    second = await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="k-live")
    assert second.success and second.facts_added
    slow_ex.gate.set()
    first = await slow
    # the late first writer commits nothing and answers with the stored result
    assert first.success and [f.id for f in first.facts_added] == [f.id for f in second.facts_added]
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["receipts"], c["from_event"]) == (1, 1, 1, 1)


async def test_llm_outage_does_not_store_the_key_or_claim_success(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    import httpx

    down = ScriptedLLM(replies=[httpx.ConnectError("refused")])
    res = await WritePipeline(executor, embedder, down.chat()).write(
        agent_id, "I live in Curitiba and work at Acme.", SPEAKER, idempotency_key="k-llm"
    )
    assert not res.success and res.error and "LLM unavailable" in res.error
    assert (await counts(executor, agent_id))["receipts"] == 0  # released: a retry re-runs
    assert len(await pending(executor, agent_id)) == 1
    up = ScriptedLLM(
        by_stage={
            INFORMED: [extraction([("Curitiba", "place")], [(SPEAKER, "Rafael lives in Curitiba")])]
        }
    )
    again = await WritePipeline(executor, embedder, up.chat()).write(
        agent_id, "I live in Curitiba and work at Acme.", SPEAKER, idempotency_key="k-llm"
    )
    assert again.success and again.facts_added and again.event_id == res.event_id
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"]) == (1, 1)
    assert await pending(executor, agent_id) == []


async def test_one_event_is_extracted_once(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    [eid] = await log_events(executor, agent_id, "I live in Curitiba.", 1)
    pipe = WritePipeline(CommitBarrier(executor, 2), hash_embedder, None)
    results = await asyncio.gather(
        *[pipe.write(agent_id, "I live in Curitiba.", SPEAKER, event_id=eid) for _ in range(2)]
    )
    assert all(r.success for r in results)
    assert sum(1 for r in results if r.facts_added) == 1
    assert sum(1 for r in results if any("already extracted" in w for w in r.warnings)) == 1
    c = await counts(executor, agent_id)
    assert (c["facts"], c["from_event"]) == (1, 1)


@pytest.mark.parametrize("n", [30])
async def test_concurrent_identical_messages_leave_one_active_fact(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder, n: int
) -> None:
    # Worst case, deterministic: every writer has decided ADD before any commits.
    events = await log_events(executor, agent_id, "I live in Curitiba.", n)
    pipe = WritePipeline(CommitBarrier(executor, n), hash_embedder, None)
    results = await asyncio.gather(
        *[pipe.write(agent_id, "I live in Curitiba.", SPEAKER, event_id=eid) for eid in events]
    )
    assert all(r.success for r in results), [r.error for r in results if not r.success]
    check = await integrity(executor, agent_id)
    assert check["duplicate_hashes"] == 0 and check["duplicate_entity_names"] == 0
    assert check["active_facts"] == 1
    assert sum(len(r.facts_added) for r in results) == 1
    assert sum(len(r.facts_unchanged) for r in results) == n - 1
    assert await pending(executor, agent_id) == []

    # And through the whole pipeline (event log included), as clients send them.
    plain = WritePipeline(executor, hash_embedder, None)
    results = await asyncio.gather(
        *[plain.write(agent_id, "I like jazz and bossa nova.", SPEAKER) for _ in range(n)]
    )
    assert all(r.success for r in results)
    check = await integrity(executor, agent_id)
    assert check["duplicate_hashes"] == 0 and check["duplicate_entity_names"] == 0
    assert (await counts(executor, agent_id))["events"] == 2 * n


async def test_concurrent_updates_of_one_fact_leave_one_successor(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    seed = ScriptedLLM(
        by_stage={
            INFORMED: [extraction([("Curitiba", "place")], [(SPEAKER, "Rafael lives in Curitiba")])]
        }
    )
    first = await WritePipeline(executor, embedder, seed.chat()).write(
        agent_id, "I live in Curitiba.", SPEAKER
    )
    assert first.facts_added
    moves = {"Rio de Janeiro": "I moved to Rio de Janeiro.", "Recife": "I moved to Recife."}

    def informed(body: dict[str, Any]) -> dict[str, Any]:
        message = next(m["content"] for m in body["messages"] if m["role"] == "user")
        city = next(c for c in moves if c in message)
        answer = extraction([(city, "place")], [(SPEAKER, f"Rafael lives in {city}")])
        known = {f["text"]: f["id"] for f in json.loads(message)["known_facts"]}
        answer["facts"][0].update(
            action="UPDATE", target_id=known["Rafael lives in Curitiba"], reason="moved"
        )
        return answer

    llm = ScriptedLLM(
        by_stage={INFORMED: [informed] * 2}, replies=[reconcile_with("UPDATE", "moved")] * 6
    )
    events = {
        city: (await log_events(executor, agent_id, text, 1))[0] for city, text in moves.items()
    }
    pipe = WritePipeline(CommitBarrier(executor, 2), embedder, llm.chat())
    results = await asyncio.gather(
        *[
            pipe.write(agent_id, text, SPEAKER, event_id=events[city])
            for city, text in moves.items()
        ]
    )
    assert all(r.success for r in results), [r.error for r in results]
    assert sum(len(r.facts_updated) for r in results) == 2  # a chain, not a fork
    check = await integrity(executor, agent_id)
    assert check["forked"] == 0 and check["duplicate_hashes"] == 0
    assert check["active_facts"] == 1


async def test_facts_call_down_in_the_fallback_is_an_outage(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    import httpx

    from tests.integration.write.helpers import CLARA_ENTITIES, CLARA_MESSAGE, CLARA_RELATIONS

    llm = ScriptedLLM(
        by_stage={
            INFORMED: ["this is not JSON {"],
            "Stage: extract_entities": [
                {"entities": [{"name": n, "type": t} for n, t in CLARA_ENTITIES]}
            ],
            "Stage: extract_facts": [httpx.ReadTimeout("timed out")],
            "Stage: extract_relations": [extraction(relations=CLARA_RELATIONS)],
        }
    )
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, CLARA_MESSAGE, SPEAKER
    )
    # not "success with zero facts": the message waits for a later extraction
    assert not res.success and res.error and "LLM unavailable" in res.error
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["entities"]) == (1, 0, 0)
    assert len(await pending(executor, agent_id)) == 1
