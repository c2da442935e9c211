"""On Neo4j: two agents whose ids and subjects run together when joined with ``|``
get two jobs and two events (they shared one before)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.jobs import JobQueue, JobSpec
from graph.memory.jobs.async_write import write_async
from graph.providers import HashEmbedder

pytestmark = pytest.mark.neo4j


@pytest.fixture
async def piped_agent(executor: Executor, agent_id: str) -> AsyncIterator[str]:
    other = f"{agent_id}|x"
    yield other
    await delete_agent(executor, other)


async def test_jobs_of_agents_joined_by_a_pipe_are_not_merged(
    executor: Executor, agent_id: str, piped_agent: str
) -> None:
    queue = JobQueue(executor)
    first = await queue.enqueue(JobSpec(kind="profile", agent_id=piped_agent, subject="s"))
    second = await queue.enqueue(JobSpec(kind="profile", agent_id=agent_id, subject="x|s"))
    assert first.created and second.created
    assert first.job_id != second.job_id
    assert [j.subject for j in await queue.list_jobs(agent_id=agent_id)] == ["x|s"]


async def test_async_events_of_agents_joined_by_a_pipe_are_two_events(
    executor: Executor, agent_id: str, piped_agent: str, hash_embedder: HashEmbedder
) -> None:
    queue = JobQueue(executor)
    a = await write_async(
        executor,
        queue,
        piped_agent,
        "Ana likes tea.",
        "Ana",
        embedder=hash_embedder,
        idempotency_key="k",
    )
    b = await write_async(
        executor,
        queue,
        agent_id,
        "Bob likes coffee.",
        "Bob",
        embedder=hash_embedder,
        idempotency_key="x|k",
    )
    assert a.created and b.created and a.event_id != b.event_id
