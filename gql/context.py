"""The typed GraphQL context: one per HTTP request or WebSocket operation, built by the view
(or by tests)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import HTTPConnection
from strawberry.types import Info as StrawberryInfo

from gql.loaders import Loaders
from gql.permissions import Principal
from graph.executor import Executor
from graph.memory.changes import ChangeFeed
from graph.memory.facade import Memory

__all__ = ["Context", "Info"]


@dataclass
class Context:
    """Everything a resolver may touch: the process's :class:`Memory` (built by
    ``server.composition.build_memory``), the caller, ``readiness`` for ``health`` and the
    process's :class:`ChangeFeed` for ``memoryChanged``.

    Each HTTP request and each operation of a WebSocket gets its own context, so its
    DataLoaders (``loaders``) cache for that operation only and its ``principal`` is the key
    resolved for it (``connection_params``: the socket's ``connection_init`` payload).
    ``rate_take(cost)`` takes more of the key's rate budget (0 when granted, else the seconds
    to wait; the request or operation itself took one already); ``recheck()`` resolves the
    caller's key again (None: it is refused now) for what outlives the operation's start (a
    subscription)."""

    memory: Memory
    principal: Principal
    readiness: Callable[[], Awaitable[dict[str, Any]]] | None = None
    request: HTTPConnection | None = None  # the HTTP request or the WebSocket
    changes: ChangeFeed | None = None
    connection_params: dict[str, Any] | None = None
    rate_take: Callable[[int], float] | None = None
    recheck: Callable[[], Awaitable[Principal | None]] | None = None
    loaders: Loaders = field(init=False)

    def __post_init__(self) -> None:
        self.loaders = Loaders(self.memory.executor)

    @property
    def executor(self) -> Executor:
        return self.memory.executor


Info = StrawberryInfo[Context, None]
