"""The job queue against the real Neo4j: dedup, atomic lease, retries, dead jobs, reaper,
graceful shutdown, and 4 concurrent workers running 200 jobs exactly once."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from graph.memory.jobs import JobContext, JobDeps, JobQueue, JobSpec, PermanentJobError, Worker

pytestmark = pytest.mark.neo4j


async def test_concurrent_enqueues_of_one_subject_make_one_job(
    queue: JobQueue, agent_id: str, kind: str
) -> None:
    specs = [JobSpec(kind=kind, agent_id=agent_id, subject="same")] * 12
    answers = await asyncio.gather(*(queue.enqueue(s) for s in specs))
    assert sum(a.created for a in answers) == 1
    assert len({a.job_id for a in answers}) == 1
    jobs = await queue.list_jobs(agent_id=agent_id, kind=kind)
    assert [j.status for j in jobs] == ["pending"]


async def test_dedup_allows_a_new_job_once_the_old_one_is_done(
    queue: JobQueue, agent_id: str, kind: str
) -> None:
    first = await queue.enqueue(JobSpec(kind=kind, agent_id=agent_id, subject="s"))
    again = await queue.enqueue(JobSpec(kind=kind, agent_id=agent_id, subject="s"))
    assert first.created and not again.created and again.job_id == first.job_id
    job = await queue.lease("w1", kinds=[kind])
    assert job is not None and job.id == first.job_id
    during = await queue.enqueue(JobSpec(kind=kind, agent_id=agent_id, subject="s"))
    assert not during.created  # leased counts as active
    assert await queue.complete(job, "w1", {"ok": True})
    after = await queue.enqueue(JobSpec(kind=kind, agent_id=agent_id, subject="s"))
    assert after.created and after.job_id != first.job_id
    batch = await queue.enqueue_many(
        [JobSpec(kind=kind, agent_id=agent_id, subject="b")] * 3
        + [JobSpec(kind=kind, agent_id=agent_id, unique=True)] * 2
    )
    assert [b.created for b in batch] == [True, False, False, True, True]
    assert batch[0].job_id == batch[1].job_id == batch[2].job_id


async def test_lease_is_exclusive_under_contention(
    queue: JobQueue, agent_id: str, kind: str
) -> None:
    await queue.enqueue_many([JobSpec(kind=kind, agent_id=agent_id, unique=True)] * 5)
    leased = await asyncio.gather(*(queue.lease(f"w{i}", kinds=[kind]) for i in range(10)))
    got = [j.id for j in leased if j is not None]
    assert got and len(set(got)) == len(got)  # nobody leased a job twice
    while (extra := await queue.lease("late", kinds=[kind])) is not None:
        got.append(extra.id)
    assert len(got) == 5 and len(set(got)) == 5
    assert all(j.attempts == 1 for j in leased if j is not None)


async def test_four_workers_run_200_jobs_exactly_once(
    fast_deps: JobDeps, agent_id: str, kind: str
) -> None:
    ran: list[str] = []

    async def handler(ctx: JobContext) -> dict[str, Any]:
        ran.append(ctx.job.id)
        await asyncio.sleep(0.002)
        return {"n": ctx.payload["n"]}

    specs = [
        JobSpec(kind=kind, agent_id=agent_id, unique=True, payload={"n": n}) for n in range(200)
    ]
    ids = {e.job_id for e in await fast_deps.queue.enqueue_many(specs)}
    workers = [Worker(fast_deps, {kind: handler}, owner=f"w{i}") for i in range(4)]
    tasks = [asyncio.create_task(w.run()) for w in workers]
    try:
        for _ in range(600):
            counts = await fast_deps.queue.counts(agent_id=agent_id, kind=kind)
            if counts.get("done", 0) == 200:
                break
            await asyncio.sleep(0.1)
    finally:
        await asyncio.gather(*(w.stop() for w in workers))
        await asyncio.gather(*tasks)
    assert counts == {"done": 200}
    assert Counter(ran) == Counter(dict.fromkeys(ids, 1))
    assert sum(w.stats["done"] for w in workers) == 200
    assert sum(1 for w in workers if w.stats["done"]) >= 2  # the work really was shared
    jobs = await fast_deps.queue.list_jobs(agent_id=agent_id, kind=kind, limit=500)
    assert all(j.attempts == 1 and j.result is not None for j in jobs)


async def test_a_job_failing_three_times_ends_dead_with_its_last_error(
    fast_deps: JobDeps, agent_id: str, kind: str
) -> None:
    calls: list[int] = []

    async def flaky(ctx: JobContext) -> None:
        calls.append(ctx.job.attempts)
        raise RuntimeError(f"boom #{ctx.job.attempts} from https://provider.example/v1 key=sk-1")

    worker = Worker(fast_deps, {kind: flaky}, owner="w")
    queued = await fast_deps.queue.enqueue(JobSpec(kind=kind, agent_id=agent_id))
    statuses: list[str] = []
    for _ in range(3):
        # lease_id ignores run_after: the test does not wait out the real backoff.
        job = await fast_deps.queue.lease_id(queued.job_id, "w")
        assert job is not None
        await worker.process(job)
        stored = await fast_deps.queue.get(queued.job_id)
        assert stored is not None
        statuses.append(stored.status)
        if stored.status == "pending":  # backed off: not due yet
            assert stored.run_after is not None and stored.created_at is not None
            assert stored.run_after > stored.created_at
            assert await fast_deps.queue.lease("other", kinds=[kind]) is None
    assert statuses == ["pending", "pending", "dead"]
    assert calls == [1, 2, 3]
    # A foreign exception's text (provider URLs, request ids, keys) never reaches a client.
    assert stored.last_error == "RuntimeError (details in the worker log)"
    assert stored.last_error_code == "INTERNAL"
    assert stored.finished_at is not None and stored.attempts == 3
    assert await fast_deps.queue.lease_id(queued.job_id, "w") is None  # dead stays dead


async def test_permanent_error_kills_at_once(fast_deps: JobDeps, agent_id: str, kind: str) -> None:
    async def bad(ctx: JobContext) -> None:
        raise PermanentJobError("payload has no event_id")

    queued = await fast_deps.queue.enqueue(JobSpec(kind=kind, agent_id=agent_id))
    job = await fast_deps.queue.lease_id(queued.job_id, "w")
    assert job is not None
    await Worker(fast_deps, {kind: bad}, owner="w").process(job)
    stored = await fast_deps.queue.get(queued.job_id)
    assert stored is not None and stored.status == "dead" and stored.attempts == 1
    assert stored.last_error == "PermanentJobError: payload has no event_id"
    assert stored.last_error_code == "BAD_PAYLOAD"


async def test_reaper_returns_stale_leases_and_the_job_completes(
    fast_deps: JobDeps, agent_id: str, kind: str
) -> None:
    queued = await fast_deps.queue.enqueue(JobSpec(kind=kind, agent_id=agent_id))
    job = await fast_deps.queue.lease("crashed-worker", kinds=[kind])
    assert job is not None
    assert await fast_deps.queue.reap_stale(60.0, agent_id=agent_id) == {}  # fresh lease: untouched
    await asyncio.sleep(0.3)
    assert (await fast_deps.queue.reap_stale(0.2, agent_id=agent_id)).get("pending") == 1
    stored = await fast_deps.queue.get(queued.job_id)
    assert stored is not None and stored.status == "pending"
    assert "lease expired" in (stored.last_error or "")
    assert stored.last_error_code == "LEASE_EXPIRED"
    assert "crashed-worker" not in (stored.last_error or "")  # no host or process names
    # the crashed worker's late completion is refused; a live worker finishes the job
    assert not await fast_deps.queue.complete(job, "crashed-worker")

    async def ok(ctx: JobContext) -> dict[str, int]:
        return {"attempt": ctx.job.attempts}

    worker = Worker(fast_deps, {kind: ok}, owner="w2")
    assert await worker.run_once()
    stored = await fast_deps.queue.get(queued.job_id)
    assert stored is not None and stored.status == "done" and stored.result == {"attempt": 2}


async def test_graceful_stop_releases_an_unfinished_job(
    fast_deps: JobDeps, agent_id: str, kind: str
) -> None:
    started = asyncio.Event()

    async def slow(ctx: JobContext) -> None:
        started.set()
        await asyncio.sleep(60)

    queued = await fast_deps.queue.enqueue(JobSpec(kind=kind, agent_id=agent_id))
    worker = Worker(fast_deps, {kind: slow}, owner="w")
    task = asyncio.create_task(worker.run())
    await asyncio.wait_for(started.wait(), 10)
    await worker.stop(grace_s=0.1)
    await asyncio.wait_for(task, 10)
    stored = await fast_deps.queue.get(queued.job_id)
    assert stored is not None and stored.status == "pending" and stored.attempts == 0
    assert worker.stats["released"] == 1


async def test_graceful_stop_lets_a_short_job_finish(
    fast_deps: JobDeps, agent_id: str, kind: str
) -> None:
    started = asyncio.Event()

    async def short(ctx: JobContext) -> dict[str, bool]:
        started.set()
        await asyncio.sleep(0.2)
        return {"finished": True}

    queued = await fast_deps.queue.enqueue(JobSpec(kind=kind, agent_id=agent_id))
    worker = Worker(fast_deps, {kind: short}, owner="w")
    task = asyncio.create_task(worker.run())
    await asyncio.wait_for(started.wait(), 10)
    await worker.stop(grace_s=5.0)
    await asyncio.wait_for(task, 10)
    stored = await fast_deps.queue.get(queued.job_id)
    assert stored is not None and stored.status == "done" and stored.result == {"finished": True}
