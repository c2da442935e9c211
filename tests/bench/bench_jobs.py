"""Job-queue throughput: enqueue (batched), then lease+complete with 1 and with 4 workers.

Run: ``.venv/bin/python -m tests.bench.bench_jobs [--jobs 300]``. Uses its own agent id and job
kind (removed afterwards); prints jobs/s and the 4-worker / 1-worker ratio measured in this run.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid

from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.memory.jobs import (
    JobContext,
    JobDeps,
    JobQueue,
    JobsConfig,
    JobSpec,
    Worker,
    WorkerConfig,
)
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.settings import Settings


async def run_workers(deps: JobDeps, kind: str, agent: str, n_jobs: int, n_workers: int) -> float:
    async def noop(ctx: JobContext) -> None:
        return None

    await deps.queue.enqueue_many(
        [JobSpec(kind=kind, agent_id=agent, unique=True) for _ in range(n_jobs)]
    )
    workers = [Worker(deps, {kind: noop}, agent_id=agent) for _ in range(n_workers)]
    bar = progress_bar(total=n_jobs, desc=f"{n_workers} worker(s)")
    started = time.perf_counter()
    tasks = [asyncio.create_task(w.run()) for w in workers]
    done = 0
    while done < n_jobs:
        await asyncio.sleep(0.2)
        done = sum(w.stats["done"] for w in workers)
        bar.n = done
        bar.refresh()
    elapsed = time.perf_counter() - started
    bar.close()
    await asyncio.gather(*(w.stop() for w in workers))
    await asyncio.gather(*tasks)
    return n_jobs / elapsed


async def main(n_jobs: int) -> None:
    s = Settings()
    ex = connect(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database)
    await ensure_schema(ex, 384)
    agent, kind = f"bench-{uuid.uuid4().hex[:10]}", f"bench_{uuid.uuid4().hex[:8]}"
    deps = JobDeps(
        executor=ex,
        queue=JobQueue(ex),
        config=JobsConfig(worker=WorkerConfig(poll_interval_s=0.02)),
    )
    try:
        started = time.perf_counter()
        await deps.queue.enqueue_many(
            [JobSpec(kind=kind, agent_id=agent, unique=True) for _ in range(n_jobs)]
        )
        enqueue_rate = n_jobs / (time.perf_counter() - started)
        await delete_agent(ex, agent)
        one = await run_workers(deps, kind, agent, n_jobs, 1)
        four = await run_workers(deps, kind, agent, n_jobs, 4)
        print(f"enqueue (one batch):        {enqueue_rate:8.0f} jobs/s")
        print(f"lease+complete, 1 worker:   {one:8.1f} jobs/s")
        print(f"lease+complete, 4 workers:  {four:8.1f} jobs/s  ({four / one:.2f}x of 1 worker)")
    finally:
        await delete_agent(ex, agent)
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=300)
    asyncio.run(main(parser.parse_args().jobs))
