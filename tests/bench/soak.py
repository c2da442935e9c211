"""Soak: write at a steady rate for N minutes with short retention periods and show that the
agent's node count levels off instead of growing without bound.

Run: ``.venv/bin/python -m tests.bench.soak [--minutes 10] [--rate 2] [--ttl 60]``.

Each second it writes ``--rate`` messages: half synchronously with an idempotency key (an event,
audit records, a receipt), half as async writes that a worker extracts (a job and its dedup
slot). Messages come from a fixed pool of statements, so the facts themselves saturate (repeats
reinforce known facts) while the bookkeeping records keep coming. The worker's scheduler runs the
``retention`` job every ``--every`` seconds with every time-to-live set to ``--ttl`` seconds.
Node counts per label are printed every ``--report`` seconds; the last lines compare the growth
of the first and the last third of the run. Uses its own agent (removed afterwards) and the
offline pipeline with the hashing embedder (no model, no LLM).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import time
import uuid
from collections import Counter

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.facade import Memory
from graph.memory.jobs import Scheduler, Worker
from graph.progress import progress_bar
from graph.providers import HashEmbedder
from graph.schema import ensure_schema
from server.composition import build_memory, default_handlers
from server.settings import Settings
from tests.cypher import load_query

PEOPLE = ["Clara Rezende", "Bruno Alves", "Marta Souza", "Diego Lima", "Ines Costa"]
THINGS = [
    "works at Vertix",
    "lives in Curitiba",
    "plays the cello",
    "runs on Sundays",
    "speaks Italian",
    "likes green tea",
    "owns a bicycle",
    "studies astronomy",
]
LABELS = ["Event", "Fact", "Entity", "Alias", "Audit", "WriteReceipt", "Job", "JobDedup"]


def messages() -> itertools.cycle[str]:
    return itertools.cycle(f"{p} {t}." for p in PEOPLE for t in THINGS)


async def counts(executor: Executor, agent: str) -> Counter[str]:
    rows = await executor.run_text(load_query("agent_counts"), {"agent_id": agent}, read=True)
    return Counter({r["label"]: int(r["nodes"]) for r in rows})


async def writer(memory: Memory, agent: str, rate: float, until: float, bar: object) -> int:
    pool, n = messages(), 0
    next_at = time.monotonic()
    while time.monotonic() < until:
        text = next(pool)
        if n % 2 == 0:
            await memory.writer.write(agent, text, "Bruno", idempotency_key=f"soak-{n}")
        else:
            await memory.write_async(agent, text, "Bruno")
        n += 1
        bar.update(1)  # type: ignore[attr-defined]
        next_at += 1.0 / rate
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
    return n


async def main(minutes: float, rate: float, ttl: float, every: float, report: float) -> None:
    logging.getLogger("neo4j").setLevel(logging.ERROR)  # retried lock waits are expected here
    settings = Settings(
        retention_events_s=ttl,
        retention_receipts_s=ttl,
        retention_jobs_s=ttl,
        retention_dedup_s=ttl,
        retention_audits_s=ttl,
        retention_audit_text_s=ttl,
        worker_poll_interval_s=0.1,
    )
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    await ensure_schema(ex, 384)
    memory = build_memory(settings, executor=ex, embedder=HashEmbedder(384))
    agent = f"soak-{uuid.uuid4().hex[:10]}"
    scheduler = Scheduler(
        memory.queue,
        {"retention": every},
        holder=f"soak-{agent}",
        tick_s=min(5.0, every),
        agent_id=agent,
    )
    worker = Worker(memory.job_deps(), default_handlers(), agent_id=agent, scheduler=scheduler)
    started = time.monotonic()
    until = started + minutes * 60
    samples: list[tuple[float, Counter[str]]] = []
    print(
        f"soak: {minutes:g} min at {rate:g} msg/s, every ttl {ttl:g} s, retention every "
        f"{every:g} s (agent {agent})"
    )
    print(f"{'t (s)':>6} " + " ".join(f"{lab:>12}" for lab in LABELS) + f" {'total':>7}")
    bar = progress_bar(total=int(minutes * 60 * rate), desc="messages")
    worker_task = asyncio.create_task(worker.run())
    write_task = asyncio.create_task(writer(memory, agent, rate, until, bar))
    try:
        while not write_task.done():
            await asyncio.sleep(min(report, max(0.1, until - time.monotonic())))
            t = time.monotonic() - started
            if samples and t - samples[-1][0] < 1.0:
                continue  # the run ended right after the last report
            c = await counts(ex, agent)
            samples.append((t, c))
            bar.write(
                f"{t:6.0f} "
                + " ".join(f"{c[lab]:12d}" for lab in LABELS)
                + f" {sum(c.values()):7d}"
            )
        written = await write_task
        bar.close()
        await worker.stop()
        await worker_task
        await scheduler.release()
        third = max(1, len(samples) // 3)
        first, last = samples[:third], samples[-third:]

        def growth(part: list[tuple[float, Counter[str]]]) -> float:
            (t0, c0), (t1, c1) = part[0], part[-1]
            return (sum(c1.values()) - sum(c0.values())) / max(1e-9, (t1 - t0) / 60)

        print(f"messages written: {written} ({written / (minutes * 60):.2f}/s)")
        if len(samples) >= 3:
            print(f"growth, first third: {growth(first):8.1f} nodes/min")
            print(f"growth, last third:  {growth(last):8.1f} nodes/min")
        print(
            f"final nodes: {sum(samples[-1][1].values())} "
            f"(max {max(sum(c.values()) for _, c in samples)})"
        )
    finally:
        await delete_agent(ex, agent)
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to write")
    parser.add_argument("--rate", type=float, default=2.0, help="messages per second")
    parser.add_argument("--ttl", type=float, default=60.0, help="every time-to-live (seconds)")
    parser.add_argument("--every", type=float, default=20.0, help="retention period (seconds)")
    parser.add_argument("--report", type=float, default=30.0, help="seconds between counts")
    a = parser.parse_args()
    asyncio.run(main(a.minutes, a.rate, a.ttl, a.every, a.report))
