"""A message whose extraction fails is kept, listed with its error (GraphQL `failedMessages`,
`hippograph jobs failed`) and, once the cause is fixed, re-run by extract jobs
(`retryFailedMessages`): its facts then exist exactly once and it is no longer listed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from typer.testing import CliRunner

from graph.executor import Executor
from graph.memory.jobs import Worker
from graph.memory.jobs.async_write import extract_handler
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from server.app import create_app
from server.cli import app as cli
from server.settings import Settings
from tests.integration.gql.support import http_client, memory_for
from tests.integration.jobs.test_async_write import MESSAGE, deps_for, facts_of

pytestmark = pytest.mark.neo4j

FAILED = """query($a: ID!) { failedMessages(agentId: $a) {
  eventId speaker text error failedAt } }"""
RETRY = """mutation($a: ID!) { retryFailedMessages(agentId: $a) {
  jobIds errors { message } } }"""


class BrokenStage(WritePipeline):
    """A pipeline whose extraction stages fail after the event is stored (a bug to be fixed)."""

    async def _run_stages(self, *args: Any, **kwargs: Any) -> None:
        raise ZeroDivisionError("a stage bug; this text must not reach a client")


async def test_a_failed_message_is_listed_and_rerun_once_fixed(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    broken = await BrokenStage(executor, embedder, None).write(agent_id, MESSAGE, "Rafael")
    assert not broken.success and broken.event_id
    assert await facts_of(executor, agent_id) == []

    memory = memory_for(executor, embedder)
    app = create_app(
        Settings(auth_disabled=True, rate_limit_per_minute=0, worker_enabled=False), memory=memory
    )
    async with http_client(app) as client:

        async def gql(query: str) -> dict[str, Any]:
            body = (
                await client.post("/graphql", json={"query": query, "variables": {"a": agent_id}})
            ).json()
            assert "errors" not in body, body
            return dict(body["data"])

        (listed,) = (await gql(FAILED))["failedMessages"]
        assert listed["eventId"] == broken.event_id and listed["text"] == MESSAGE
        assert listed["error"] == "ZeroDivisionError" and listed["failedAt"]

        jobs = (await gql(RETRY))["retryFailedMessages"]["jobIds"]
        assert len(jobs) == 1
        again = (await gql(RETRY))["retryFailedMessages"]["jobIds"]
        assert again == jobs  # a pending job for the message is not doubled

        deps = dataclasses.replace(
            deps_for(executor, embedder), writer=WritePipeline(executor, embedder, None)
        )  # the fix
        assert (
            await Worker(deps, {"extract": extract_handler}, agent_id=agent_id).run_until_idle()
            == 1
        )
        facts = await facts_of(executor, agent_id)
        assert any("Porto" in f[0] for f in facts)
        assert (await gql(FAILED))["failedMessages"] == []
        assert (await gql(RETRY))["retryFailedMessages"]["jobIds"] == []
    # Re-running a fixed message never doubles its facts.
    assert await facts_of(executor, agent_id) == facts


@pytest.fixture
async def broken_event(executor: Executor, embedder: Embedder, agent_id: str) -> str:
    broken = await BrokenStage(executor, embedder, None).write(agent_id, MESSAGE, "Rafael")
    assert not broken.success and broken.event_id
    return broken.event_id


def test_the_cli_lists_a_failed_message_with_its_error_and_queues_its_rerun(
    broken_event: str, agent_id: str
) -> None:
    listed = CliRunner().invoke(cli, ["jobs", "failed", "--agent", agent_id])
    assert listed.exit_code == 0, listed.output
    assert broken_event in listed.output and "error=ZeroDivisionError" in listed.output
    assert "must not reach" not in listed.output and "-- 1 failed message(s)" in listed.output
    retried = CliRunner().invoke(cli, ["jobs", "failed", "--agent", agent_id, "--retry"])
    assert retried.exit_code == 0, retried.output
    assert "-- queued 1 extract job(s)" in retried.output
