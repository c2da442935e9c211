"""An :class:`~graph.executor.Executor` over one open transaction: every unit of work (read or
write) runs on it. The offline write runs its candidate reads, its decisions and its writes
in the one write transaction of the message this way: the stages keep calling
``executor.read``/``executor.write`` and no stage knows it shares a transaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, LiteralString, TypeVar

from graph.executor import Executor, Row, Transaction, row_of

__all__ = ["SharedTransaction"]

T = TypeVar("T")


class SharedTransaction:
    """Runs every statement and unit of work on ``tx``; ``base`` answers ``ping``. Nothing
    is retried here: an error aborts the shared transaction, whose owner retries it whole."""

    def __init__(self, tx: Transaction, base: Executor) -> None:
        self.tx = tx
        self.base = base

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        return await self.tx.run(name, **(params or {}))

    async def run_text(
        self, query: LiteralString, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        result = await self.tx.tx.run(query, params or {})
        return [row_of(record) async for record in result]

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await work(self.tx)

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await work(self.tx)

    async def ping(self) -> bool:
        return await self.base.ping()

    async def close(self) -> None:
        """The transaction and the driver belong to the caller."""
