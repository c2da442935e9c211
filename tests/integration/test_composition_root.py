"""One composition root (``server.composition.build_memory``): the API, the worker and the CLI build
the same configurations from one settings object, and ``mutations_frozen`` stops fact writes on
every path — API ``write``, ``write(async: true)`` through the real worker, document chunk jobs
and ``hippograph write``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from graph.executor import Executor
from graph.memory.facade import Memory
from graph.providers import HashEmbedder
from server.app import create_app
from server.composition import build_memory, jobs_config, retrieve_config, write_config
from server.settings import Settings, get_settings
from server.worker import WorkerHandle, start_worker
from tests.cypher import load_query
from tests.integration.gql.support import gql

pytestmark = pytest.mark.neo4j

MESSAGE = "I moved to Lisbon last month and I work at Orion Tech now."
WRITE = """mutation($a: ID!, $m: String!, $async: Boolean!) {
  write(agentId: $a, speakerName: "Marina", message: $m, async: $async) {
    outcome { success eventId factsAdded { text } mode }
    queued { eventId jobId created }
    errors { code message } } }"""
INGEST = """mutation($a: ID!, $t: String!) { ingestDocument(agentId: $a, text: $t, title: "Notes") {
  documentId jobId errors { code } } }"""
DOCUMENT = (
    "Marina Souza lives in Lisbon and works at Orion Tech as an engineer. "
    "Her brother Paulo Souza lives in Porto and teaches mathematics."
)

CUSTOM = {
    "write_mode": "controlled",
    "mutations_frozen": True,
    "pii_mode": "reject",
    "max_message_chars": 777,
    "merge_candidate_threshold": 0.71,
    "document_chunk_chars": 999,
    "worker_poll_interval_s": 0.05,
    "worker_concurrency": 3,
}


async def facts_of(executor: Executor, agent_id: str) -> int:
    rows = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    return sum(int(r["nodes"]) for r in rows if r["label"] == "Fact")


async def events_of(executor: Executor, agent_id: str) -> int:
    rows = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    return sum(int(r["nodes"]) for r in rows if r["label"] == "Event")


@pytest.fixture
def env_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``HIPPOGRAPH_*`` variables for the CLI (which reads the cached ``get_settings()``)."""
    for key, value in CUSTOM.items():
        monkeypatch.setenv(
            f"HIPPOGRAPH_{key.upper()}",
            str(value).lower() if isinstance(value, bool) else str(value),
        )
    monkeypatch.setenv("HIPPOGRAPH_EMBEDDER", "hash")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


async def test_api_worker_and_cli_build_identical_configs(
    executor: Executor, env_settings: None
) -> None:
    from server.cli.jobs import _memory

    settings = Settings(**CUSTOM, worker_enabled=False)  # type: ignore[arg-type]
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        api: Memory = app.state.memory
        handle = await start_worker(api, scheduler=False, agent_id="nobody")
        try:
            deps = handle.workers[0].deps
            assert len(handle.workers) == 3  # worker_concurrency
        finally:
            await handle.stop(grace_s=1.0)
        cli, _ = _memory()  # what every `hippograph …` command builds from the environment
        try:
            expected = write_config(settings)
            assert expected.mode == "controlled" and expected.mutations_frozen
            assert expected.pii_mode == "reject" and expected.max_message_chars == 777
            assert api.write_config == deps.writer.config == cli.write_config == expected
            assert deps.writer is api.writer  # jobs run the API's own pipeline
            assert api.retrieve_config == cli.retrieve_config == retrieve_config(settings)
            assert api.jobs == deps.config == cli.jobs == jobs_config(settings)
            assert api.jobs.maintenance.merge_candidate_threshold == 0.71
            assert api.jobs.documents.chunk_chars == 999
        finally:
            await cli.close()


@pytest.fixture
async def frozen(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> AsyncIterator[tuple[Memory, WorkerHandle]]:
    """A frozen deployment's services with its worker running for this test's agent."""
    memory = build_memory(
        Settings(mutations_frozen=True, worker_poll_interval_s=0.05),
        executor=executor,
        embedder=hash_embedder,
    )
    handle = await start_worker(memory, concurrency=1, scheduler=False, agent_id=agent_id)
    yield memory, handle
    await handle.stop(grace_s=2.0)


async def wait_done(memory: Memory, job_ids: list[str], seconds: float = 60.0) -> None:
    for _ in range(int(seconds * 10)):
        jobs = [await memory.queue.get(j) for j in job_ids]
        if all(j is not None and j.status in ("done", "dead") for j in jobs):
            assert [j.status for j in jobs if j] == ["done"] * len(job_ids), jobs
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"jobs not finished in {seconds}s: {job_ids}")


async def test_async_write_through_graphql_is_finished_by_the_worker(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    memory = build_memory(
        Settings(worker_poll_interval_s=0.05), executor=executor, embedder=hash_embedder
    )
    handle = await start_worker(memory, scheduler=False, agent_id=agent_id)
    try:
        res = await gql(memory, WRITE, {"a": agent_id, "m": MESSAGE, "async": True})
        payload = res.data["write"]
        assert payload["errors"] == [] and payload["outcome"] is None
        queued = payload["queued"]
        assert queued["eventId"] and queued["jobId"] and queued["created"] is True
        await wait_done(memory, [queued["jobId"]])
    finally:
        await handle.stop(grace_s=2.0)
    job = await memory.queue.get(queued["jobId"])
    assert job is not None and job.result["event_id"] == queued["eventId"]
    assert job.result["facts_added"] >= 1
    assert await facts_of(executor, agent_id) >= 1
    assert await events_of(executor, agent_id) == 1  # the job reused the logged event


async def test_frozen_api_write_stores_the_event_but_no_fact(
    frozen: tuple[Memory, WorkerHandle], executor: Executor, agent_id: str
) -> None:
    memory, _ = frozen
    res = await gql(memory, WRITE, {"a": agent_id, "m": MESSAGE, "async": False})
    outcome = res.data["write"]["outcome"]
    assert res.data["write"]["errors"] == [] and outcome["success"] is True
    assert outcome["factsAdded"] == []
    assert await facts_of(executor, agent_id) == 0
    assert await events_of(executor, agent_id) == 1


async def test_frozen_async_write_job_stores_no_fact(
    frozen: tuple[Memory, WorkerHandle], executor: Executor, agent_id: str
) -> None:
    memory, _ = frozen
    res = await gql(memory, WRITE, {"a": agent_id, "m": MESSAGE, "async": True})
    queued = res.data["write"]["queued"]
    await wait_done(memory, [queued["jobId"]])
    job = await memory.queue.get(queued["jobId"])
    assert job is not None and job.result["facts_added"] == 0
    assert await facts_of(executor, agent_id) == 0
    assert await events_of(executor, agent_id) == 1


async def test_frozen_document_chunk_jobs_store_no_fact(
    frozen: tuple[Memory, WorkerHandle], executor: Executor, agent_id: str
) -> None:
    memory, _ = frozen
    res = await gql(memory, INGEST, {"a": agent_id, "t": DOCUMENT})
    accepted = res.data["ingestDocument"]
    assert accepted["errors"] == []
    await wait_done(memory, [accepted["jobId"]])
    chunks = [j for j in await memory.queue.list_jobs(agent_id=agent_id, kind="chunk_extract")]
    assert chunks, "the ingest job enqueued no chunk extraction"
    await wait_done(memory, [j.id for j in chunks])
    assert await facts_of(executor, agent_id) == 0


def _cli_write(agent_id: str) -> dict[str, Any]:
    from server.cli import app

    ran = CliRunner().invoke(app, ["write", MESSAGE, "--agent", agent_id, "--speaker", "Marina"])
    assert ran.exit_code == 0, ran.output
    out: dict[str, Any] = json.loads(ran.stdout)
    return out


async def test_frozen_cli_write_stores_no_fact(
    executor: Executor, agent_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HIPPOGRAPH_EMBEDDER", "hash")
    monkeypatch.setenv("HIPPOGRAPH_MUTATIONS_FROZEN", "true")
    get_settings.cache_clear()
    try:
        frozen_out = await asyncio.to_thread(_cli_write, agent_id)
        assert frozen_out["success"] is True and frozen_out["facts_added"] == []
        assert await facts_of(executor, agent_id) == 0
        monkeypatch.setenv("HIPPOGRAPH_MUTATIONS_FROZEN", "false")  # the control: same path
        get_settings.cache_clear()
        thawed = await asyncio.to_thread(_cli_write, agent_id)
        assert thawed["facts_added"] and await facts_of(executor, agent_id) >= 1
    finally:
        get_settings.cache_clear()
