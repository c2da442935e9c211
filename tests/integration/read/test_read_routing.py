"""Reads are marked as reads, so a ``neo4j://`` routing driver sends them to a cluster's
secondaries (docs/scaling.md): every statement of ``retrieve`` and of the GraphQL entity reads
goes through ``Executor.run(..., read=True)``, which the driver executor turns into
``routing_=READ`` (unit: tests/unit/foundation/test_read_routing.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from graph.executor import Executor, Transaction
from graph.memory.read import Retriever
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.fakes import WrappedExecutor

pytestmark = pytest.mark.neo4j

T = TypeVar("T")


class AccessRecorder(WrappedExecutor):
    """Records (statement, access mode) of every call."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.calls: list[tuple[str, str]] = []

    async def run(self, name: str, params: dict[str, Any] | None = None, *,
                  read: bool = False) -> list[dict[str, Any]]:
        self.calls.append((name, "read" if read else "write"))
        return await super().run(name, params, read=read)

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.calls.append(("<unit of work>", "write"))
        return await super().write(work)

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.calls.append(("<unit of work>", "read"))
        return await super().read(work)


async def test_retrieve_runs_only_read_transactions(executor: Executor, agent_id: str,
                                                    embedder: Embedder) -> None:
    await WritePipeline(executor, embedder, None).write(
        agent_id, "I live in Porto and work at Acme.", "Rafael")
    recorder = AccessRecorder(executor)
    result = await Retriever(recorder, embedder).retrieve(agent_id, "Where does Rafael live?")
    assert result.facts, "the retrieve found nothing: the check below would be vacuous"
    # plan catalog, agent counts and every signal in read/signals (one statement since i10)
    assert len(recorder.calls) >= 3 and ("read/signals", "read") in recorder.calls
    assert [c for c in recorder.calls if c[1] != "read"] == []
