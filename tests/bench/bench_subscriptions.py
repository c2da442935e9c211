"""What memoryChanged subscriptions cost: ``.venv/bin/python -m tests.bench.bench_subscriptions
[--history N] [--seconds S]``. Against the real Neo4j (the configured one; the tests' with
``source scripts/test-env.sh``), on an agent of its own (deleted at the end):

* one poll read (``browse/memory_changes``) with nothing new, before and after the agent has
  ``--history`` audit records (index-backed: it should not grow with the history);
* a process's feed with 1, 10 and 100 subscribers of one agent for ``--seconds``: reads per
  second against Neo4j, this process's CPU, and the delay from a record's commit to its
  delivery to every subscriber (poll interval 0.5 s, the default).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.changes import ChangeFeed, Position, read_changes
from server.settings import Settings
from tests.fakes import RecordingExecutor

POLL_S = 0.5


def audit_row() -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "event_id": None,
        "action": "ADD",
        "applied": True,
        "blocked_reason": None,
        "fact_id": str(uuid.uuid4()),
        "target_id": None,
        "reason": None,
        "mode": "full",
        "text": "a fact",
    }


async def record(ex: Executor, agent: str, at: datetime, count: int = 1) -> None:
    rows = [audit_row() for _ in range(count)]
    await ex.run("write/create_audits", {"agent_id": agent, "now": at, "rows": rows})


async def idle_read_ms(ex: Executor, agent: str, rounds: int = 50) -> float:
    """Median milliseconds of a poll that finds nothing new."""
    times = []
    after = Position(datetime.now(UTC))
    for _ in range(rounds):
        started = time.perf_counter()
        await read_changes(ex, agent, after)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def fan_out(ex: Executor, agent: str, subscribers: int, seconds: float) -> dict[str, float]:
    recorder = RecordingExecutor(ex)
    feed = ChangeFeed(recorder, poll_s=POLL_S, lookback_s=5.0, max_per_key=subscribers)
    streams = [feed.open(agent, "bench", None, lambda c: c) for _ in range(subscribers)]
    delays: list[float] = []
    cpu0, wall0 = time.process_time(), time.monotonic()
    while time.monotonic() - wall0 < seconds:
        committed = time.monotonic()
        await record(ex, agent, datetime.now(UTC))
        await asyncio.gather(*(anext(s) for s in streams))
        delays.append((time.monotonic() - committed) * 1000)
        await asyncio.sleep(random.uniform(0, POLL_S))  # records fall anywhere in the cycle
    wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
    for stream in streams:
        await stream.aclose()
    return {
        "reads_per_s": recorder.names.count("browse/memory_changes") / wall,
        "cpu_pct": 100 * cpu / wall,
        "delay_ms": statistics.median(delays),
        "deliveries": len(delays) * subscribers,
    }


async def main(history: int, seconds: float) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    agent = f"bench-subs-{uuid.uuid4().hex[:8]}"
    try:
        print(f"idle poll, empty agent: {await idle_read_ms(ex, agent):.2f} ms (median of 50)")
        start = datetime.now(UTC) - timedelta(days=30)
        for i in range(0, history, 1000):
            await record(ex, agent, start + timedelta(minutes=i), min(1000, history - i))
        print(f"idle poll, {history} records: {await idle_read_ms(ex, agent):.2f} ms")
        print("| subscribers | reads/s | process CPU % | commit → delivery (median ms) |")
        print("|---|---|---|---|")
        for n in (1, 10, 100):
            r = await fan_out(ex, agent, n, seconds)
            print(f"| {n} | {r['reads_per_s']:.2f} | {r['cpu_pct']:.1f} | {r['delay_ms']:.0f} |")
    finally:
        await delete_agent(ex, agent)
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--history", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(main(args.history, args.seconds))
