"""No lost or stuck message, on the job side, against the real Neo4j: orphaned events are swept and extracted,
an LLM outage makes extraction jobs retry then die visibly (events kept), long jobs renew their
lease, and a job whose lease was lost commits nothing (fencing token)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
import pytest

from graph.executor import Executor, Transaction
from graph.memory.documents.ingest import ingest_document
from graph.memory.jobs import (
    Job,
    JobContext,
    JobDeps,
    JobQueue,
    JobsConfig,
    JobSpec,
    LeaseLost,
    Worker,
    WorkerConfig,
)
from graph.memory.jobs.async_write import extract_handler, write_async
from graph.memory.jobs.orphans import sweep_orphans
from graph.memory.write import WritePipeline
from graph.providers import ChatLLM, HashEmbedder
from server.composition import default_handlers
from tests.fakes import ScriptedLLM, WrappedExecutor
from tests.integration.write.helpers import SPEAKER, counts
from tests.integration.write.test_no_lost_message import DiesAtCommit, age, pending

pytestmark = pytest.mark.neo4j

T = TypeVar("T")

MESSAGE = "Clara Rezende lives in Porto and works at Acme as a software engineer."


def deps_for(
    executor: Executor,
    writer: WritePipeline | None,
    *,
    lease_s: float = 300.0,
    embedder: HashEmbedder | None = None,
) -> JobDeps:
    cfg = JobsConfig(
        worker=WorkerConfig(
            poll_interval_s=0.05,
            lease_timeout_s=lease_s,
            reaper_interval_s=0.1,
            shutdown_grace_s=1.0,
        )
    )
    return JobDeps(
        executor=executor, queue=JobQueue(executor), embedder=embedder, config=cfg, writer=writer
    )


def llm_down() -> ChatLLM:
    return ScriptedLLM(replies=[httpx.ConnectError("connection refused")] * 50).chat()


async def run_attempts(worker: Worker, queue: JobQueue, job_id: str, n: int) -> list[Any]:
    """Run ``n`` attempts of one job now (not waiting for its backoff); the job after each."""
    seen = []
    for _ in range(n):
        job = await queue.lease_id(job_id, worker.owner)
        assert job is not None, await queue.get(job_id)
        await worker.process(job)
        seen.append(await queue.get(job_id))
    return seen


async def test_extract_job_with_llm_down_retries_then_dies_visibly(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    deps = deps_for(executor, WritePipeline(executor, hash_embedder, llm_down()))
    accepted = await write_async(
        executor, deps.queue, agent_id, MESSAGE, SPEAKER, embedder=hash_embedder
    )
    assert accepted.job_id
    worker = Worker(deps, {"extract": extract_handler}, agent_id=agent_id)
    first, second, last = await run_attempts(worker, deps.queue, accepted.job_id, 3)
    assert first.status == "pending" and "LLM unavailable" in (first.last_error or "")
    assert first.run_after > first.created_at  # retried with backoff, not at once
    assert second.status == "pending" and second.attempts == 2
    assert last.status == "dead" and last.attempts == 3
    assert "LLM unavailable" in (last.last_error or "")
    assert last.last_error_code == "LLM_UNAVAILABLE"
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["receipts"]) == (1, 0, 0)  # the event is kept
    assert await pending(executor, agent_id) == [accepted.event_id]


async def test_chunk_job_with_llm_down_retries_then_dies_visibly(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    deps = deps_for(
        executor, WritePipeline(executor, hash_embedder, llm_down()), embedder=hash_embedder
    )
    await ingest_document(
        executor,
        deps.queue,
        agent_id,
        text=f"# Notes\n\n{MESSAGE}\n",
        fmt="markdown",
        config=deps.config.documents,
    )
    worker = Worker(deps, default_handlers(), agent_id=agent_id)
    await worker.run_until_idle()  # the ingest job, then the chunk job's first attempt
    [chunk_job] = await deps.queue.list_jobs(agent_id=agent_id, kind="chunk_extract")
    assert chunk_job.status == "pending" and chunk_job.attempts == 1, chunk_job
    assert "LLM unavailable" in (chunk_job.last_error or "")
    *_, last = await run_attempts(worker, deps.queue, chunk_job.id, 2)
    assert last.status == "dead" and "LLM unavailable" in (last.last_error or "")
    c = await counts(executor, agent_id)
    assert (c["facts"], c["events"]) == (0, 1)  # one event for the chunk across 3 attempts


async def test_orphaned_events_are_swept_and_extracted_once(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    dying = WritePipeline(DiesAtCommit(executor), hash_embedder, None)
    for text in ("I live in Curitiba.", "I like jazz."):
        dying.executor.writes = 0  # type: ignore[attr-defined]
        with pytest.raises(asyncio.CancelledError):
            await dying.write(agent_id, text, SPEAKER)
    assert len(await pending(executor, agent_id)) == 2
    deps = deps_for(executor, WritePipeline(executor, hash_embedder, None))
    # Younger than the threshold: a live writer may still be working on it.
    assert await sweep_orphans(deps.queue, older_than_s=600, limit=10, agent_id=agent_id) == 0
    await age(executor, agent_id, 660)
    # Bounded per run, then the rest; each event is queued once.
    assert await sweep_orphans(deps.queue, older_than_s=600, limit=1, agent_id=agent_id) == 1
    assert await sweep_orphans(deps.queue, older_than_s=600, limit=10, agent_id=agent_id) == 1
    assert await sweep_orphans(deps.queue, older_than_s=600, limit=10, agent_id=agent_id) == 0
    worker = Worker(deps, {"extract": extract_handler}, agent_id=agent_id)
    assert await worker.run_until_idle() == 2
    assert worker.stats["done"] == 2
    assert await pending(executor, agent_id) == []
    c = await counts(executor, agent_id)
    assert c["events"] == 2 and c["facts"] >= 2 and c["from_event"] == c["facts"]


async def test_worker_loop_sweeps_and_extracts_orphans(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    dying = WritePipeline(DiesAtCommit(executor), hash_embedder, None)
    with pytest.raises(asyncio.CancelledError):
        await dying.write(agent_id, "I live in Curitiba.", SPEAKER)
    await age(executor, agent_id, 660)
    cfg = JobsConfig(
        worker=WorkerConfig(
            poll_interval_s=0.05,
            reaper_interval_s=5.0,
            orphan_after_s=600.0,
            orphan_sweep_interval_s=0.1,
        )
    )
    deps = JobDeps(
        executor=executor,
        queue=JobQueue(executor),
        config=cfg,
        writer=WritePipeline(executor, hash_embedder, None),
    )
    worker = Worker(deps, {"extract": extract_handler}, agent_id=agent_id)
    task = asyncio.create_task(worker.run())
    try:
        for _ in range(300):
            if worker.stats["done"] >= 1:
                break
            await asyncio.sleep(0.1)
    finally:
        await worker.stop()
        await task
    assert worker.stats["orphans_queued"] == 1 and worker.stats["done"] == 1
    assert await pending(executor, agent_id) == []
    assert (await counts(executor, agent_id))["facts"] >= 1


class LeaseStolenAtCommit(WrappedExecutor):
    """Runs ``steal`` just before the pipeline's commit transaction (its second write: the
    first is the idempotency claim), i.e. after every lease check the handler made."""

    def __init__(self, inner: Executor, steal: Callable[[], Awaitable[None]]) -> None:
        super().__init__(inner)
        self.steal = steal
        self.writes = 0

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.writes += 1
        if self.writes == 2:
            await self.steal()
        return await super().write(work)


@pytest.mark.parametrize("thief", ["worker-b", "worker-a"])  # worker-a: same owner name
async def test_job_whose_lease_was_lost_commits_nothing(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder, thief: str
) -> None:
    queue = JobQueue(executor)
    accepted = await write_async(
        executor, queue, agent_id, MESSAGE, SPEAKER, embedder=hash_embedder
    )
    assert accepted.job_id
    stale = await queue.lease_id(accepted.job_id, "worker-a")
    assert stale is not None
    stolen: list[Job] = []

    async def steal() -> None:  # the lease expires, the reaper runs, another lease is taken
        await asyncio.sleep(0.05)
        assert await queue.reap_stale(0.01, agent_id=agent_id) == {"pending": 1}
        job = await queue.lease_id(accepted.job_id, thief)
        assert job is not None
        stolen.append(job)

    slow = deps_for(
        executor, WritePipeline(LeaseStolenAtCommit(executor, steal), hash_embedder, None)
    )
    with pytest.raises(LeaseLost):
        await extract_handler(JobContext(job=stale, deps=slow, owner="worker-a"))
    assert (await counts(executor, agent_id))["facts"] == 0  # fenced: nothing committed
    assert not await queue.complete(stale, "worker-a", {})
    [current] = stolen
    assert current.lease_token != stale.lease_token
    deps = deps_for(executor, WritePipeline(executor, hash_embedder, None))
    result = await extract_handler(JobContext(job=current, deps=deps, owner=thief))
    assert result["facts_added"] >= 1
    assert await queue.complete(current, thief, result)
    assert (await counts(executor, agent_id))["facts"] == result["facts_added"]


async def test_long_job_renews_its_lease(executor: Executor, agent_id: str, kind: str) -> None:
    deps = deps_for(executor, None, lease_s=1.5)
    queue = deps.queue

    async def slow(ctx: JobContext) -> dict[str, Any]:
        await asyncio.sleep(4.0)  # > 2.5 lease timeouts, no progress calls
        return {"ok": True}

    enq = await queue.enqueue(JobSpec(kind=kind, agent_id=agent_id, unique=True))
    worker = Worker(deps, {kind: slow}, agent_id=agent_id)
    reaped: dict[str, int] = {}

    async def reaper() -> None:  # another worker's reaper, as eager as it gets
        while True:
            for k, v in (await queue.reap_stale(1.5, agent_id=agent_id)).items():
                reaped[k] = reaped.get(k, 0) + v
            await asyncio.sleep(0.1)

    task = asyncio.create_task(reaper())
    try:
        assert await worker.run_once()
    finally:
        task.cancel()
    job = await queue.get(enq.job_id)
    assert job is not None and job.status == "done" and job.attempts == 1, job
    assert reaped == {} and worker.stats["lease_lost"] == 0
