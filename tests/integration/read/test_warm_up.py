"""The start-up warm-up runs the statement a real retrieve runs (so Neo4j has its plan cached
before the first request) for an agent that holds nothing, and only reads."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from graph.executor import Executor, Transaction
from graph.memory.read import Retriever
from graph.memory.read.warmup import WARMUP_AGENT, warm_up
from graph.memory.write import StructuredFact, remember
from graph.providers import Embedder
from tests.cypher import load_query
from tests.fakes import WrappedExecutor

pytestmark = pytest.mark.neo4j
T = TypeVar("T")


class Record(WrappedExecutor):
    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.statements: list[tuple[str, bool]] = []
        self.writes = 0

    async def run(self, name: str, params: dict[str, Any] | None = None, *,
                  read: bool = False) -> list[dict[str, Any]]:
        self.statements.append((name, read))
        return await super().run(name, params, read=read)

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.writes += 1
        return await super().write(work)


async def test_warm_up_runs_the_real_signals_statement_and_only_reads(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await remember(executor, embedder, agent_id,
                   facts=[StructuredFact("Ana works at Acme in Curitiba.", subject="Ana")])
    seen_by_request = Record(executor)
    await Retriever(seen_by_request, embedder).retrieve(agent_id, "Where does Ana work?")
    warming = Record(executor)

    took = await warm_up(Retriever(warming, embedder))

    assert took > 0
    assert warming.writes == 0 and all(read for _, read in warming.statements)
    assert "read/signals" in {n for n, _ in warming.statements}
    assert {n for n, _ in seen_by_request.statements} <= {n for n, _ in warming.statements}
    assert await executor.run_text(load_query("agent_counts"), {"agent_id": WARMUP_AGENT},
                                   read=True) == []
