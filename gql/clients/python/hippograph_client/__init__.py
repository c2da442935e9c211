"""Typed Python clients for the Hippograph memory service, generated from its GraphQL schema.

    from hippograph_client import HippographClient

    with HippographClient("http://127.0.0.1:8000/graphql", api_key="...") as memory:
        memory.write("demo", "I moved to Lisbon.", speaker_name="Guilherme")
        print(memory.retrieve("demo", "Where does Guilherme live?").context)

One method per query and mutation (snake_case names and arguments, pydantic results),
:class:`AsyncHippographClient` the same with ``await``. Errors are typed
(:mod:`hippograph_client.errors`); rate limits, an unavailable store and idempotent writes
still in progress are retried (:class:`RetryPolicy`); :mod:`hippograph_client.pages` walks
paginated lists.
"""

from hippograph_client.aio.client import AsyncHippographClient
from hippograph_client.errors import (
    BadInput,
    EmbedderMismatch,
    Forbidden,
    HippographError,
    InProgress,
    Internal,
    NotFound,
    RateLimited,
    TransportError,
    Unavailable,
)
from hippograph_client.pages import (
    aiter_entities,
    aiter_events,
    aiter_facts,
    iter_entities,
    iter_events,
    iter_facts,
)
from hippograph_client.sync.client import HippographClient
from hippograph_client.transport import NO_RETRY, RetryPolicy

__all__ = [
    "NO_RETRY",
    "AsyncHippographClient",
    "BadInput",
    "EmbedderMismatch",
    "Forbidden",
    "HippographClient",
    "HippographError",
    "InProgress",
    "Internal",
    "NotFound",
    "RateLimited",
    "RetryPolicy",
    "TransportError",
    "Unavailable",
    "aiter_entities",
    "aiter_events",
    "aiter_facts",
    "iter_entities",
    "iter_events",
    "iter_facts",
]
