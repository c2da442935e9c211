"""The process wiring: ``server.worker.start_worker`` runs queued jobs in-process and stops
gracefully; ``hippograph jobs run`` / ``jobs list`` work from the command line."""

from __future__ import annotations

import asyncio

import pytest
from typer.testing import CliRunner

from graph.executor import Executor
from graph.memory.jobs import JobQueue, JobSpec
from graph.memory.remember import remember
from graph.memory.write import StructuredFact
from graph.providers import HashEmbedder
from server.composition import build_memory
from server.settings import Settings
from server.worker import start_worker

pytestmark = pytest.mark.neo4j


async def test_start_worker_runs_jobs_and_stops(
    executor: Executor, settings: Settings, agent_id: str
) -> None:
    memory = build_memory(
        settings.model_copy(update={"worker_poll_interval_s": 0.05}),
        executor=executor,
        embedder=HashEmbedder(384),
    )
    await remember(
        executor,
        memory.embedder,
        agent_id,
        facts=[StructuredFact("Rafael Costa plays the guitar.", "Rafael Costa")],
    )
    handle = await start_worker(memory, concurrency=2, scheduler=False, agent_id=agent_id)
    try:
        assert len(handle.workers) == 2
        assert "extract" in handle.workers[0].kinds  # extraction runs memory.writer
        queue = JobQueue(executor)
        queued = await queue.enqueue_many(
            [JobSpec(kind=k, agent_id=agent_id) for k in ("profile", "decay", "importance")]
        )
        for _ in range(300):
            jobs = [await queue.get(q.job_id) for q in queued]
            if all(j is not None and j.status == "done" for j in jobs):
                break
            await asyncio.sleep(0.1)
        assert [j.status if j else None for j in jobs] == ["done"] * 3
    finally:
        await handle.stop(grace_s=2.0)
    assert all(t.done() for t in handle.tasks)
    assert handle.stats()["done"] == 3


def test_cli_jobs_run_and_list(agent_id: str) -> None:
    from server.cli import app

    runner = CliRunner()
    ran = runner.invoke(app, ["jobs", "run", "decay", "--agent", agent_id])
    assert ran.exit_code == 0, ran.output
    assert "decay" in ran.output and "done" in ran.output and '"flagged": 0' in ran.output
    listed = runner.invoke(app, ["jobs", "list", "--agent", agent_id])
    assert listed.exit_code == 0, listed.output
    assert "decay" in listed.output and '"done": 1' in listed.output
    bad = runner.invoke(app, ["jobs", "run", "nope", "--agent", agent_id])
    assert bad.exit_code == 2 and "unknown" in bad.output
