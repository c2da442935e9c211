"""A process warms up when it starts (graph/memory/warm_start.py): the models load and every
statement a first retrieve and write run has run once (so Neo4j has planned it, for questions
of every length), nothing is stored, and the API reports ready only after."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient

import server.app
from graph.executor import Executor, Transaction
from graph.memory.facade import Memory
from graph.memory.read.warmup import WARMUP_AGENT, size_bucket
from graph.memory.remember import remember
from graph.memory.warm_start import RollbackExecutor, WarmStart, warm_start
from graph.memory.write import StructuredFact
from graph.memory.write.extract.offline import extractor
from graph.providers import Embedder
from server.app import create_app
from server.composition import build_memory
from server.settings import Settings
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
    """Records the name of every statement run, inside transactions too, and the plan key of
    each one run on its own (``run``)."""

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
            try:
                return await work(tx)
            finally:
                self.names.update(tx.statements)

        return unit


async def test_warm_start_runs_what_a_first_retrieve_and_write_run_and_stores_nothing(
    settings: Settings, executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        facts=[StructuredFact("Ana works at Acme in Curitiba.", subject="Ana")],
    )
    warming = StatementRecorder(executor)
    memory = build_memory(settings, executor=warming, embedder=embedder)  # offline: no LLM

    report = await warm_start(memory)

    assert report.failed == {}
    steps = ["embedder", "extractor", "read statements", "write path", "collector"]
    assert list(report.seconds) == steps
    assert gc.get_freeze_count() > 0  # the start-up's objects are out of the collector's sight
    assert extractor._NLP is not None  # the spaCy pipeline is loaded
    for name, kind in (("read/signals", "read"), ("write/create_events", "write")):
        assert name in warming.names, f"the warm-up did not run {name} ({kind})"
    rows = await executor.run_text(
        load_query("agent_counts"), {"agent_id": WARMUP_AGENT}, read=True
    )
    assert rows == []  # every write was rolled back
    # A first request afterwards runs no statement the warm-up did not (so none is planned).
    first = StatementRecorder(executor)
    served = build_memory(settings, executor=first, embedder=embedder)
    await served.retriever.retrieve(agent_id, "Where does Ana work?")
    await served.writer.write(agent_id, "Ana moved to Recife and works at Globex now.", "Ana")
    assert first.names - warming.names == set()
    # Neo4j plans a statement again for a list of another size bucket (1, 2–10, 11–100 items):
    # the catalog's n-gram lists follow the question's length, and each length was planned.
    for question in (
        "Curitiba?",
        "Where did Ana say she had worked before moving to Curitiba with her old friends?",
    ):
        await served.retriever.retrieve(agent_id, question)
    catalog = "read/plan_catalog"
    assert len(first.keys[catalog]) == 3  # 1, 2–10 and 11–100 n-grams
    assert first.keys[catalog] <= warming.keys[catalog], "a catalog shape was not planned"


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
        assert ready.json()["warm_up"] == {"done": True, "seconds": 0.0, "failed": []}
