"""The fair lease against the real Neo4j: one agent's (or tenant's) flood of jobs does not
starve another agent's job, and every job still runs exactly once."""

from __future__ import annotations

import uuid

import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.jobs import JobQueue, JobSpec
from graph.tenancy import claim_agents

pytestmark = pytest.mark.neo4j


async def _drain(queue: JobQueue, kind: str) -> list[str]:
    """Lease and complete until nothing is due (one worker); the agents in lease order."""
    order: list[str] = []
    while (job := await queue.lease("w1", kinds=[kind])) is not None:
        order.append(job.agent_id)
        assert await queue.complete(job, "w1")
    return order


async def test_a_flooding_agent_does_not_starve_another(
    executor: Executor, agent_id: str, kind: str
) -> None:
    queue = JobQueue(executor)
    other = f"test-{uuid.uuid4().hex[:12]}"
    try:
        await queue.enqueue_many(
            [
                JobSpec(kind=kind, agent_id=agent_id, unique=True, payload={"n": n})
                for n in range(300)
            ]
        )
        await queue.enqueue(JobSpec(kind=kind, agent_id=other, unique=True))
        order = await _drain(queue, kind)
        assert len(order) == 301  # everything ran, once
        assert order.index(other) < 2, order.index(other)  # before the old code's ~300th lease
    finally:
        await delete_agent(executor, other)


async def test_a_tenant_with_many_agents_does_not_starve_another_tenant(
    executor: Executor, kind: str
) -> None:
    queue = JobQueue(executor)
    flood = [f"test-{uuid.uuid4().hex[:12]}" for _ in range(6)]
    lone = f"test-{uuid.uuid4().hex[:12]}"
    big, small = f"t-{uuid.uuid4().hex[:8]}", f"t-{uuid.uuid4().hex[:8]}"
    try:
        await claim_agents(executor, big, flood)
        await claim_agents(executor, small, [lone])
        await queue.enqueue_many(
            [JobSpec(kind=kind, agent_id=a, unique=True) for a in flood for _ in range(20)]
        )
        await queue.enqueue(JobSpec(kind=kind, agent_id=lone, unique=True))
        order = await _drain(queue, kind)
        assert len(order) == 121
        # Tenants take turns (agent-only turns would let the 6 flood agents go first).
        assert order.index(lone) < 2, order.index(lone)
        # Within the big tenant, its agents take turns too.
        assert set(order[:14]) == {*flood, lone}
    finally:
        for agent in [*flood, lone]:
            await delete_agent(executor, agent)
