"""The typed GraphQL context: one per request, built by the HTTP view (or by tests)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from strawberry.types import Info as StrawberryInfo

from gql.loaders import Loaders
from gql.permissions import Principal
from graph.executor import Executor
from graph.providers import ChatLLM, Embedder

__all__ = ["ApiServices", "Context", "Info"]


class ApiServices(Protocol):
    """What the API needs from the composition root (``server.services.Services`` fits)."""

    executor: Executor
    embedder: Embedder
    llm: ChatLLM | None

    @property
    def llm_mode(self) -> str: ...

    @property
    def writer(self) -> Any: ...

    @property
    def retriever(self) -> Any: ...


@dataclass
class Context:
    """Everything a resolver may touch. ``readiness`` reports Neo4j/schema state for ``health``."""

    services: ApiServices
    principal: Principal
    readiness: Callable[[], Awaitable[dict[str, Any]]] | None = None
    request: Any = None
    loaders: Loaders = field(init=False)

    def __post_init__(self) -> None:
        self.loaders = Loaders(self.services.executor)

    @property
    def executor(self) -> Executor:
        return self.services.executor


Info = StrawberryInfo[Context, None]
