"""Subscriptions (graphql-transport-ws over WebSocket at ``/graphql``): ``memoryChanged``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Annotated

import strawberry
from graphql import GraphQLError
from strawberry.extensions import SchemaExtension
from strawberry.types.graphql import OperationType

from gql.context import Info
from gql.errors import ApiError, ErrorCode
from gql.permissions import agent_subscription
from gql.types.change import MemoryChange
from graph.memory.changes import TooManySubscriptions, decode_cursor

__all__ = ["Subscription", "WebSocketOnly"]


class WebSocketOnly(SchemaExtension):
    """Refuses a subscription sent over HTTP (``BAD_INPUT``, reason ``transport``) before it
    runs: there it would open a stream that no connection closes."""

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        try:
            subscription = context.operation_type == OperationType.SUBSCRIPTION
        except RuntimeError:  # no single operation: validation reports it
            subscription = False
        request = getattr(context.context, "request", None) if subscription else None
        if request is not None and request.scope.get("type") == "http":
            raise GraphQLError(
                "Subscriptions run over a WebSocket at /graphql (graphql-transport-ws).",
                extensions={"code": ErrorCode.BAD_INPUT.value, "reason": "transport"},
            )
        yield


@strawberry.type(description="Live updates, over WebSocket (the graphql-transport-ws protocol).")
class Subscription:
    @agent_subscription(
        description="The agent's memory changes as they happen: facts added, updated, "
        "invalidated, forgotten, erasures and entity merges. Starts now, or from `since`. "
        "Read from the database, so changes made through any API process arrive within about "
        "a second (the server's `subscription_poll_s`)."
    )
    async def memory_changed(
        self,
        info: Info,
        agent_id: Annotated[
            strawberry.ID, strawberry.argument(description="The agent (memory owner) to watch.")
        ],
        since: Annotated[
            str | None,
            strawberry.argument(
                description="A change's `cursor`: resume after it (the last few seconds before "
                "it are sent again, so a change may repeat; its `id` tells). Unset: from now."
            ),
        ] = None,
    ) -> AsyncIterator[MemoryChange]:
        feed = info.context.changes
        if feed is None:
            raise ApiError(ErrorCode.UNAVAILABLE, "Subscriptions are not served here.")
        position = decode_cursor(since) if since is not None else None
        principal = info.context.principal
        key = principal.key_id or f"{principal.tenant}:local"
        try:
            return feed.open(str(agent_id), key, position, MemoryChange.from_change)
        except TooManySubscriptions as exc:
            raise ApiError(ErrorCode.RATE_LIMITED, str(exc)) from None
