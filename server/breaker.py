"""Fail fast while Neo4j is down: after a call finds Neo4j unreachable, every call in the next
``cooldown_s`` raises :class:`GraphUnavailable` at once instead of waiting out the driver's
connection retries (tens of seconds). The first call after the cool-down probes Neo4j again,
so the API recovers by itself as soon as Neo4j answers."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, LiteralString, TypeVar

from graph.errors import GraphBusy, GraphUnavailable
from graph.executor import Executor, Transaction

__all__ = ["BreakerExecutor"]

T = TypeVar("T")


class BreakerExecutor:
    """Wraps any :class:`Executor` with a simple circuit breaker (an ``Executor`` itself)."""

    def __init__(
        self, inner: Executor, cooldown_s: float = 3.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.inner = inner
        self.cooldown_s = cooldown_s
        self.clock = clock
        self.open_until = 0.0

    @property
    def is_open(self) -> bool:
        return self.clock() < self.open_until

    async def _guard(self, call: Callable[[], Awaitable[T]]) -> T:
        if self.is_open:
            raise GraphUnavailable("Neo4j was unreachable moments ago; not retrying yet")
        try:
            return await call()
        except GraphBusy:
            raise  # overload is answered per request; it says nothing about Neo4j being down
        except GraphUnavailable:
            self.open_until = self.clock() + self.cooldown_s
            raise

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        return await self._guard(lambda: self.inner.run(name, params, read=read))

    async def run_text(
        self, query: LiteralString, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        return await self._guard(lambda: self.inner.run_text(query, params, read=read))

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await self._guard(lambda: self.inner.write(work))

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await self._guard(lambda: self.inner.read(work))

    async def ping(self) -> bool:
        return await self.inner.ping()

    async def close(self) -> None:
        await self.inner.close()
