"""The periodic-job scheduler runs once per cluster: two schedulers (two processes' worth)
against the real Neo4j share one lease, so only one enqueues per period; a dead or stopping
holder is replaced and the recorded periods carry over."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from graph.executor import Executor
from graph.memory.jobs import JobQueue, Scheduler
from tests.cypher import load_query

INTERVALS = {"profile": 3_600.0, "decay": 3_600.0}


@pytest.fixture
async def lease_name(executor: Executor) -> AsyncIterator[str]:
    """A lease of this test only (the dev server's own scheduler keeps 'periodic')."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    await executor.run_text(load_query("lease_of_scheduler"), {"name": name})


@pytest.fixture
async def active_agent(executor: Executor, agent_id: str) -> str:
    await executor.run_text(load_query("create_entity"), {"agent_id": agent_id, "key": "x"})
    return agent_id


def _scheduler(queue: JobQueue, name: str, agent: str, holder: str, **kw: object) -> Scheduler:
    return Scheduler(
        queue,
        kw.pop("intervals", INTERVALS),
        holder=holder,  # type: ignore[arg-type]
        lease_name=name,
        agent_id=agent,
        **kw,
    )  # type: ignore[arg-type]


async def _jobs(executor: Executor, agent: str) -> dict[tuple[str, str], int]:
    rows = await executor.run_text(load_query("jobs_of_agent"), {"agent_id": agent})
    return {(r["kind"], r["status"]): r["n"] for r in rows}


async def _finish_all(queue: JobQueue, agent: str) -> int:
    done = 0
    while (job := await queue.lease("test-runner", agent_id=agent)) is not None:
        assert await queue.complete(job, "test-runner", {})
        done += 1
    return done


async def test_two_schedulers_enqueue_once_per_period(
    executor: Executor, queue: JobQueue, active_agent: str, lease_name: str
) -> None:
    a = _scheduler(queue, lease_name, active_agent, "host-a:1/scheduler")
    b = _scheduler(queue, lease_name, active_agent, "host-b:2/scheduler")
    # Both tick at once, several rounds: one lease, so one enqueue per kind.
    results = await asyncio.gather(*(s.tick() for _ in range(4) for s in (a, b)))
    assert sorted(k for r in results for k in r.kinds) == ["decay", "profile"]
    assert [r.held for r in results].count(True) == 4  # the holder's ticks; the other's refused
    assert sum(r.created for r in results) == 2
    assert await _jobs(executor, active_agent) == {
        ("decay", "pending"): 1,
        ("profile", "pending"): 1,
    }
    # The jobs run; the period has not elapsed, so neither process enqueues them again
    # (per-process schedulers each had their own clock and enqueued once per process).
    assert await _finish_all(queue, active_agent) == 2
    again = await asyncio.gather(a.tick(), b.tick(), a.tick(), b.tick())
    assert sum(r.created for r in again) == 0
    assert await _jobs(executor, active_agent) == {("decay", "done"): 1, ("profile", "done"): 1}


async def test_a_dead_holder_is_replaced_and_its_periods_carry_over(
    executor: Executor, queue: JobQueue, active_agent: str, lease_name: str
) -> None:
    intervals = {"profile": 3_600.0, "decay": 4.0}
    a = _scheduler(
        queue, lease_name, active_agent, "host-a:1/scheduler", lease_ttl_s=1.0, intervals=intervals
    )
    b = _scheduler(
        queue, lease_name, active_agent, "host-b:2/scheduler", lease_ttl_s=1.0, intervals=intervals
    )
    first = await a.tick()
    assert first.held and first.kinds == ["decay", "profile"]
    assert not (await b.tick()).held
    await asyncio.sleep(1.5)  # a "dies": its lease expires unrenewed
    taken = await b.tick()
    assert taken.held and taken.kinds == []  # both periods were recorded by a
    assert not (await a.tick()).held  # a is back, b holds now
    await asyncio.sleep(3.0)  # decay's 4 s period has elapsed since a scheduled it
    assert (await b.tick()).kinds == ["decay"]


async def test_a_released_lease_is_taken_over_at_once(
    queue: JobQueue, active_agent: str, lease_name: str
) -> None:
    a = _scheduler(queue, lease_name, active_agent, "host-a:1/scheduler")
    b = _scheduler(queue, lease_name, active_agent, "host-b:2/scheduler")
    assert (await a.tick()).held
    assert not (await b.tick()).held
    assert await a.release()
    assert not await a.release()  # no longer the holder
    taken = await b.tick()
    assert taken.held and taken.kinds == []
