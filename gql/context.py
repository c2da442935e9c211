"""The typed GraphQL context: one per request, built by the HTTP view (or by tests)."""

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
    process's :class:`ChangeFeed` for ``memoryChanged``. Over a WebSocket one context serves
    the connection: ``connection_params`` is the ``connection_init`` payload."""

    memory: Memory
    principal: Principal
    readiness: Callable[[], Awaitable[dict[str, Any]]] | None = None
    request: HTTPConnection | None = None  # the HTTP request or the WebSocket
    changes: ChangeFeed | None = None
    connection_params: dict[str, Any] | None = None
    loaders: Loaders = field(init=False)

    def __post_init__(self) -> None:
        self.loaders = Loaders(self.memory.executor)

    @property
    def executor(self) -> Executor:
        return self.memory.executor


Info = StrawberryInfo[Context, None]
