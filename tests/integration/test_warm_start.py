"""A process warms up when it starts (graph/memory/warm_start.py): the models load and the hot
read and write statements run once, nothing is stored, and the API reports ready only after."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from starlette.testclient import TestClient

import server.app
from graph.executor import Executor
from graph.memory.facade import Memory
from graph.memory.read.warmup import WARMUP_AGENT
from graph.memory.warm_start import WarmStart, warm_start
from graph.memory.write.offline import extractor
from graph.providers import Embedder
from server.app import create_app
from server.memory import build_memory
from server.settings import Settings
from tests.cypher import load_query
from tests.fakes import AccessRecorder

pytestmark = pytest.mark.neo4j


async def test_warm_start_loads_the_models_runs_reads_and_a_dry_write_and_stores_nothing(
    settings: Settings, executor: Executor, embedder: Embedder
) -> None:
    seen = AccessRecorder(executor)
    memory = build_memory(settings, executor=seen, embedder=embedder)  # offline: no LLM

    report = await warm_start(memory)

    assert report.failed == {}
    assert list(report.seconds) == ["embedder", "extractor", "read statements", "write path"]
    assert extractor._NLP is not None  # the spaCy pipeline is loaded
    statements = {name for name, _ in seen.calls}
    assert "read/signals" in statements  # the read path
    assert ("<unit of work>", "read") in seen.calls  # the dry write's read transaction
    rows = await executor.run_text(
        load_query("agent_counts"), {"agent_id": WARMUP_AGENT}, read=True
    )
    assert rows == []  # a dry run: nothing stored


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
            update={"embedder": "hash", "worker_enabled": False, "allowed_hosts": "testserver"}
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
