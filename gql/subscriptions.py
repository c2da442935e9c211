"""Subscriptions (graphql-transport-ws over WebSocket at ``/graphql``): ``memoryChanged``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Annotated

import strawberry
from graphql import GraphQLError
from strawberry.extensions import SchemaExtension
from strawberry.types.graphql import OperationType

from gql.context import Info
from gql.errors import ApiError, ErrorCode
from gql.permissions import Principal, agent_subscription, may_read
from gql.types.change import MemoryChange
from graph.errors import GraphUnavailable
from graph.executor import Executor
from graph.memory.changes import TooManySubscriptions, decode_cursor
from graph.tenancy import agent_owner

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
        "a second (the server's `subscription_poll_s`). Completes after an ERASED change of "
        "scope `agent`; ends with FORBIDDEN once the key is revoked or loses the agent "
        "(re-checked every `subscription_recheck_s`)."
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
        principal, agent = info.context.principal, str(agent_id)
        # The stream follows the agent while it belongs to the owner it has now.
        owner = await agent_owner(info.context.executor, agent)
        named = owner is None and agent in principal.agents  # an unowned id the key names
        if not (principal.admin or owner == principal.tenant or named):
            raise ApiError(ErrorCode.FORBIDDEN, "This API key may not access that agent.")
        key = principal.key_id or f"{principal.tenant}:local"
        check = _rechecked(info.context.executor, info.context.recheck, agent)
        try:
            return feed.open(
                agent, key, position, MemoryChange.from_change, tenant=owner, check=check
            )
        except TooManySubscriptions as exc:
            raise ApiError(ErrorCode.RATE_LIMITED, str(exc)) from None


def _rechecked(
    executor: Executor,
    recheck: Callable[[], Awaitable[Principal | None]] | None,
    agent_id: str,
) -> Callable[[], Awaitable[None]] | None:
    """The stream's periodic check: the caller's key resolved again must still reach the
    agent, else the subscription ends with ``FORBIDDEN``. An outage ends nothing (the next
    check asks again)."""
    if recheck is None:
        return None

    async def check() -> None:
        try:
            principal = await recheck()
            allowed = principal is not None and await may_read(executor, principal, agent_id)
        except GraphUnavailable:
            return
        if not allowed:
            raise ApiError(
                ErrorCode.FORBIDDEN,
                "This API key was revoked or may no longer access that agent; "
                "the subscription ended.",
            )

    return check
