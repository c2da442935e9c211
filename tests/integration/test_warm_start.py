"""A process warms up when it starts (graph/memory/warm_start.py, server/warm_api.py): the
models load and every statement a first retrieve, write or other query runs has run once with
parameters of the same types and sizes (so Neo4j has planned it, for questions of every shape
and agent ids of every usual length), nothing is stored, and the API reports ready only
after."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient

import server.app
from gql.context import Context
from gql.permissions import LOCAL_ADMIN
from gql.schema import build_schema
from graph.agent_deletion import delete_agent
from graph.executor import Executor, Transaction
from graph.memory.facade import Memory
from graph.memory.read.warmup import WARMUP_AGENTS, size_bucket
from graph.memory.remember import remember
from graph.memory.warm_start import RollbackExecutor, WarmStart, warm_start
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.memory.write.extract.offline import extractor
from graph.page_cache import agent_sizes
from graph.providers import Embedder
from server.app import create_app
from server.composition import build_memory
from server.settings import Settings
from server.warm_api import warm_queries
from tests.cypher import load_query
from tests.fakes import WrappedExecutor

pytestmark = pytest.mark.neo4j

T = TypeVar("T")


def plan_key(params: dict[str, Any]) -> frozenset[tuple[str, str, int | None]]:
    """What Neo4j keys a cached plan by besides the statement: each parameter's type and, for
    a string or list, its size bucket."""
    return frozenset(
        (k, type(v).__name__, size_bucket(len(v)) if isinstance(v, str | list) else None)
        for k, v in params.items()
    )


class StatementRecorder(WrappedExecutor):
    """Records the name and plan key of every statement run, inside transactions too."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.names: set[str] = set()
        self.keys: dict[str, set[frozenset[tuple[str, str, int | None]]]] = {}

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.names.add(name)
        self.keys.setdefault(name, set()).add(plan_key(params or {}))
        return await super().run(name, params, read=read)

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await super().write(self._recorded(work))

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await super().read(self._recorded(work))

    def _recorded(
        self, work: Callable[[Transaction], Awaitable[T]]
    ) -> Callable[[Transaction], Awaitable[T]]:
        async def unit(tx: Transaction) -> T:
            recorder = self

            class Recorded(Transaction):
                async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
                    recorder.keys.setdefault(name, set()).add(plan_key(params))
                    return await super().run(name, **params)

            try:
                return await work(Recorded(tx.tx, tx.statements))
            finally:
                self.names.update(tx.statements)

        return unit


# Questions of every shape a first user may ask: no keyword, one word, one, three and no named
# entity, a long one, another language, a time window.
FIRST_QUESTIONS = (
    "Where does Ana work?",
    "Who is he?",
    "Curitiba?",
    "Did Ana, Bruno and Carla meet in Curitiba?",
    "Where did Ana say she had worked before moving to Curitiba with her old friends and family?",
    "Onde a Ana trabalha?",
    "What happened in May 2025?",
)
# Messages of one fact and of several (the write statements' rows of 1 and of 2-10 items).
FIRST_MESSAGES = (
    "Ana moved to Recife and works at Globex now.",
    "I moved to Recife in March and now I work at Globex with Bruno on release 7.",
    "My sister Carla adopted a cat called Pipoca last week.",
    "I love it.",
)
# A first request of every other kind the API serves (server/warm_api.py asks the same fields).
FIRST_QUERIES = (
    "query($a: ID!) { entities(agentId: $a, first: 5) { edges { node { key name } } } }",
    """query($a: ID!) { entity(agentId: $a, key: "person:ana") { name facts { text }
      relationships { type otherName } history(limit: 5) { change } } }""",
    """query($a: ID!) { neighborhood(agentId: $a, key: "person:ana", hops: 2) {
      nodes { id } edges { label } } }""",
    """query($a: ID!) { facts(agentId: $a, entityKey: "person:ana", first: 5) {
      edges { node { id text } } } }""",
)


async def _first_requests(memory: Memory, agents: list[str]) -> None:
    """What a user of a freshly started API process asks first, of every kind."""
    for agent in agents:
        for question in FIRST_QUESTIONS:
            await memory.retriever.retrieve(agent, question)
        for document in FIRST_QUERIES:
            result = await build_schema().execute(
                document, {"a": agent}, context_value=Context(memory=memory, principal=LOCAL_ADMIN)
            )
            assert not result.errors, result.errors
        for message in FIRST_MESSAGES:
            await memory.writer.write(agent, message, "Ana")


async def test_warm_start_runs_what_first_requests_run_and_stores_nothing(
    settings: Settings, executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    short = f"t-{uuid.uuid4().hex[:6]}"  # as short as "demo": another plan for every statement
    story = [
        StructuredFact("Ana works at Acme in Curitiba.", subject="Ana", entities=["Acme"]),
        StructuredFact("Ana knows Bruno from school.", subject="Ana", entities=["Bruno"]),
    ]
    people = [StructuredEntity(name=n, type="person") for n in ("Ana", "Bruno")]
    try:
        for agent in (agent_id, short):
            await remember(
                executor,
                embedder,
                agent,
                entities=[*people, StructuredEntity(name="Acme", type="organization")],
                facts=story,
                relations=[StructuredRelation("Ana", "Bruno", "knows")],
            )
        warming = StatementRecorder(executor)
        memory = build_memory(settings, executor=warming, embedder=embedder)  # offline: no LLM

        async def api_queries() -> None:
            await warm_queries(memory, build_schema())

        report = await warm_start(memory, extra=[("API queries", api_queries)])

        assert report.failed == {}
        # the read chain (then the layers' steps), then the write chain beside it
        steps = ["embedder", "read statements", "API queries", "extractor", "write path"]
        assert list(report.seconds) == [*steps, "collector"]
        assert gc.get_freeze_count() > 0  # the start-up's objects are out of the collector's sight
        assert extractor._NLP is not None  # the spaCy pipeline is loaded
        for name, kind in (("read/signals", "read"), ("write/create_events", "write")):
            assert name in warming.names, f"the warm-up did not run {name} ({kind})"
        for agent in WARMUP_AGENTS:
            counts = await executor.run_text(
                load_query("agent_counts"), {"agent_id": agent}, read=True
            )
            assert counts == []  # every write was rolled back
        # the committed write's agent is deleted
        left = [a for a, _ in await agent_sizes(executor) if a.startswith("hg-")]
        assert set(left) <= set(WARMUP_AGENTS)
        # First requests afterwards run no statement the warm-up did not run, and none with
        # parameters of another type or size bucket than it did (so Neo4j plans none of them).
        first = StatementRecorder(executor)
        await _first_requests(
            build_memory(settings, executor=first, embedder=embedder), [agent_id, short]
        )
        assert first.names - warming.names == set()
        unplanned = {
            name: keys - warming.keys.get(name, set())
            for name, keys in first.keys.items()
            if keys - warming.keys.get(name, set())
        }
        assert unplanned == {}, f"shapes the warm-up did not plan: {unplanned}"
    finally:
        await delete_agent(executor, short)


async def test_writes_through_the_rollback_executor_run_and_leave_nothing(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    facts = [StructuredFact("Ana works at Acme in Curitiba.", subject="Ana")]
    rolled_back = RollbackExecutor(executor)
    await remember(rolled_back, embedder, agent_id, facts=facts)
    assert rolled_back.statements  # the statements ran
    counts = load_query("agent_counts")
    assert await executor.run_text(counts, {"agent_id": agent_id}, read=True) == []
    await remember(executor, embedder, agent_id, facts=facts)  # the same through the executor
    assert await executor.run_text(counts, {"agent_id": agent_id}, read=True) != []


def test_readyz_answers_ready_only_after_the_warm_up(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    started = threading.Event()

    async def held_warm_start(memory: Memory, **_: object) -> WarmStart:
        started.set()
        await asyncio.to_thread(gate.wait, 120)
        return WarmStart(seconds={"held": 0.0})

    monkeypatch.setattr(server.app, "warm_start", held_warm_start)
    app = create_app(
        settings.model_copy(
            update={
                "embedder": "hash",
                "worker_enabled": False,
                "allowed_hosts": "testserver",
                "warm_up": True,
            }
        )
    )
    with TestClient(app) as client:
        assert started.wait(60)
        held = client.get("/readyz")
        assert held.status_code == 503
        assert held.json()["warm_up"] == {"done": False}
        assert held.json()["neo4j"]["reachable"] is True  # only the warm-up holds it back
        gate.set()
        deadline = time.monotonic() + 60
        while (ready := client.get("/readyz")).status_code != 200:
            assert time.monotonic() < deadline, ready.json()
            time.sleep(0.05)
        assert ready.json()["warm_up"] == {
            "done": True,
            "seconds": 0.0,
            "steps": {"held": 0.0},
            "failed": [],
        }
