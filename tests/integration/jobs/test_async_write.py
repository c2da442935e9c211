"""Async write mode: the event is stored at once, extraction runs as a job; a worker SIGKILLed
mid-job loses nothing and, once its lease times out, the job completes with exactly the facts
of an uninterrupted run."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.jobs import JobDeps, JobQueue, JobsConfig, Worker, WorkerConfig
from graph.memory.jobs.async_write import extract_handler, write_async
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

ROOT = Path(__file__).resolve().parents[3]
MESSAGE = (
    "My sister Clara Rezende moved to Porto in March because she got a job at Acme. "
    "She loves hiking in the mountains and plays the cello."
)


def deps_for(executor: Executor, embedder: Embedder, *, lease_s: float = 300.0) -> JobDeps:
    cfg = JobsConfig(
        worker=WorkerConfig(
            poll_interval_s=0.1,
            lease_timeout_s=lease_s,
            reaper_interval_s=0.2,
            shutdown_grace_s=1.0,
        )
    )
    return JobDeps(
        executor=executor,
        queue=JobQueue(executor),
        embedder=embedder,
        config=cfg,
        writer=WritePipeline(executor, embedder, None),
    )


async def facts_of(executor: Executor, agent_id: str) -> list[tuple[Any, ...]]:
    rows = await executor.run_text(
        load_query("consolidation_agent_facts"), {"agent_id": agent_id}, read=True
    )
    return sorted(
        (
            r["text"],
            r["subject_key"],
            r["kind"],
            r["confidence"],
            r["active"],
            r["reinforcement_count"],
        )
        for r in rows
    )


async def run_until_done(worker: Worker, queue: JobQueue, job_id: str, seconds: float) -> None:
    task = asyncio.create_task(worker.run())
    try:
        for _ in range(int(seconds * 10)):
            job = await queue.get(job_id)
            if job is not None and job.status in ("done", "dead"):
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"job {job_id} did not finish: {await queue.get(job_id)}")
    finally:
        await worker.stop()
        await task


async def reference_facts(executor: Executor, embedder: Embedder) -> list[tuple[Any, ...]]:
    """The facts of an uninterrupted async write of MESSAGE (own agent, cleaned up)."""
    agent = f"test-{uuid.uuid4().hex[:12]}"
    try:
        deps = deps_for(executor, embedder)
        accepted = await write_async(
            executor, deps.queue, agent, MESSAGE, "Rafael", embedder=embedder
        )
        assert accepted.job_id is not None
        worker = Worker(deps, {"extract": extract_handler}, agent_id=agent)
        assert await worker.run_until_idle() == 1
        return await facts_of(executor, agent)
    finally:
        await delete_agent(executor, agent)


async def test_async_write_logs_the_event_then_the_worker_extracts(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    deps = deps_for(executor, embedder)
    accepted = await write_async(
        executor,
        deps.queue,
        agent_id,
        MESSAGE,
        "Rafael",
        embedder=embedder,
        idempotency_key="msg-1",
    )
    assert accepted.event_id and accepted.job_id and accepted.created
    event = await executor.run(
        "jobs/event", {"agent_id": agent_id, "id": accepted.event_id}, read=True
    )
    assert event[0]["text"] == MESSAGE and event[0]["speaker"] == "Rafael"
    assert await facts_of(executor, agent_id) == []  # nothing extracted yet
    job = await deps.queue.get(accepted.job_id)
    assert job is not None and job.kind == "extract" and job.status == "pending"
    # the same idempotency key again: same event, same job, nothing new
    again = await write_async(
        executor,
        deps.queue,
        agent_id,
        MESSAGE,
        "Rafael",
        embedder=embedder,
        idempotency_key="msg-1",
    )
    assert (again.event_id, again.job_id, again.created) == (
        accepted.event_id,
        accepted.job_id,
        False,
    )
    worker = Worker(deps, {"extract": extract_handler}, agent_id=agent_id)
    assert await worker.run_until_idle() == 1
    done = await deps.queue.get(accepted.job_id)
    assert done is not None and done.status == "done", done
    assert done.result and done.result["success"] and done.result["facts_added"] >= 1
    facts = await facts_of(executor, agent_id)
    assert len(facts) == done.result["facts_added"]
    assert any("Porto" in f[0] for f in facts)


async def test_empty_async_write_stores_nothing(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    deps = deps_for(executor, embedder)
    accepted = await write_async(executor, deps.queue, agent_id, "  \n ", "Rafael")
    assert accepted.event_id is None and accepted.job_id is None
    assert await deps.queue.list_jobs(agent_id=agent_id) == []


@pytest.mark.parametrize("point", ["before_commit", "after_commit"])
async def test_sigkilled_worker_loses_nothing_and_duplicates_nothing(
    executor: Executor, embedder: Embedder, agent_id: str, tmp_path: Path, point: str
) -> None:
    expected = await reference_facts(executor, embedder)
    assert expected, "the offline pipeline extracted no facts from MESSAGE"
    deps = deps_for(executor, embedder, lease_s=1.0)
    accepted = await write_async(
        executor, deps.queue, agent_id, MESSAGE, "Rafael", embedder=embedder
    )
    assert accepted.job_id is not None
    marker = tmp_path / "frozen"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.integration.jobs.crash_worker", agent_id, str(marker), point],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(1200):  # the child loads MiniLM and spaCy first
            if marker.exists() or proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        assert marker.exists(), proc.stderr.read().decode() if proc.stderr else "no marker"
        leased = await deps.queue.get(accepted.job_id)
        assert leased is not None and leased.status == "leased"
        assert leased.lease_owner == "crash-worker"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    committed = await facts_of(executor, agent_id)
    assert (committed == []) == (point == "before_commit")
    # a live worker reaps the dead worker's lease after 1 s and finishes the job
    worker = Worker(deps, {"extract": extract_handler}, agent_id=agent_id)
    await run_until_done(worker, deps.queue, accepted.job_id, 60)
    job = await deps.queue.get(accepted.job_id)
    assert job is not None and job.status == "done" and job.attempts == 2, job
    assert worker.stats["reaped_pending"] == 1
    assert await facts_of(executor, agent_id) == expected


async def test_an_async_write_keeps_only_the_bounded_earlier_messages_in_its_job(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """The job payload holds what the prompt would get: the last ``recent_messages_max``
    earlier messages, each cut to ``recent_message_chars`` (not 200 × 200 kB)."""
    from graph.memory.write import WriteConfig
    from tests.integration.gql.support import memory_for

    memory = memory_for(executor, embedder)
    cfg: WriteConfig = memory.write_config
    recent = [f"earlier message {i}: " + "blah " * 40_000 for i in range(200)]
    accepted = await memory.write_async(agent_id, MESSAGE, "Ana", recent_messages=recent)
    job = await memory.queue.get(accepted.job_id or "")
    assert job is not None
    kept = job.payload["recent_messages"]
    assert len(kept) == cfg.recent_messages_max
    assert kept[-1].startswith("earlier message 199")
    assert all(len(m) <= cfg.recent_message_chars for m in kept)
