"""An executor that runs every statement under ``PROFILE`` and adds up its database hits, per
statement name: what a code path costs the database, independent of the machine's load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, LiteralString, TypeVar, cast

import cypher
from graph.executor import Neo4jExecutor, Row, Transaction, quiet_params, row_of

__all__ = ["ProfilingExecutor", "db_hits", "operators"]

T = TypeVar("T")


def db_hits(plan: Any) -> int:
    """Total database hits of a profiled plan (the driver's ``summary.profile``)."""
    return int(plan.get("dbHits", 0)) + sum(db_hits(c) for c in plan.get("children", []))


def operators(plan: Any) -> list[str]:
    """Every operator of a plan, depth first (``NodeIndexSeek@neo4j`` → ``NodeIndexSeek``)."""
    own = str(plan.get("operatorType", "")).split("@", 1)[0]
    return [own] + [o for c in plan.get("children", []) for o in operators(c)]


class _ProfilingTransaction(Transaction):
    def __init__(self, tx: Any, owner: ProfilingExecutor) -> None:
        super().__init__(tx)
        self.owner = owner

    async def run(self, name: str, **params: Any) -> list[Row]:
        self.statements.append(name)
        result = await self.tx.run(
            cast(LiteralString, "PROFILE " + cypher.load(name)), quiet_params(params)
        )
        rows = [row_of(record) async for record in result]
        self.owner.record(name, (await result.consume()).profile)
        return rows


class ProfilingExecutor(Neo4jExecutor):
    """Like the executor it copies (same driver and database), every statement profiled;
    ``hits`` counts database hits by statement name, ``round_trips`` as usual."""

    def __init__(self, base: Neo4jExecutor) -> None:
        super().__init__(base.driver, base.database, base.tx_timeout_s, autocommit_reads=False)
        self.hits: Counter[str] = Counter()
        self.plans: dict[str, Any] = {}  # the last plan of each statement

    def record(self, name: str, plan: Any) -> None:
        if plan is not None:
            self.hits[name] += db_hits(plan)
            self.plans[name] = plan

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        return await self._profiled(name, cypher.load(name), params)

    async def run_text(
        self, query: LiteralString, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        return await self._profiled("<text>", query, params)

    async def _profiled(
        self, name: str, query: LiteralString, params: dict[str, Any] | None
    ) -> list[Row]:
        # The name travels with the call: statements of one retrieve run concurrently.
        self.round_trips += 1
        async with self.driver.session(database=self.database) as session:
            result = await session.run(
                cast(LiteralString, "PROFILE " + query), quiet_params(params or {})
            )
            rows = [row_of(record) async for record in result]
            self.record(name, (await result.consume()).profile)
        return rows

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.round_trips += 1
        async with self.driver.session(database=self.database) as session:
            return await session.execute_write(lambda tx: work(_ProfilingTransaction(tx, self)))

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.round_trips += 1
        async with self.driver.session(database=self.database) as session:
            return await session.execute_read(lambda tx: work(_ProfilingTransaction(tx, self)))
