"""The GraphQL view of ``/graphql``: strawberry's ASGI view over HTTP and WebSocket
(graphql-transport-ws), with our typed context, the GraphiQL page, and the rules HTTP
requests keep applied to every socket:

* A message is bounded like a request body (``max_body_bytes``): a longer text frame closes the
  socket with 4413 (``BAD_INPUT: message too large ...``) before it is parsed.
* Every operation a socket sends (a query or mutation in a ``subscribe`` message, or a
  subscription) resolves the socket's key again (the key store's cache, 30 s, is the staleness
  allowed) and takes one request of its rate budget; a refusal is the operation's ``error``
  (``FORBIDDEN``, ``UNAVAILABLE``, or ``RATE_LIMITED`` with ``retryAfterSeconds``). It then runs
  with a context of its own: fresh DataLoaders, the principal just resolved, ``rate_take`` for
  its expensive fields (``gql.rate_budget``) and ``recheck`` for a subscription's periodic
  re-checks.
* A socket that sends no ``connection_init`` within ``socket_init_timeout_s`` closes (4408) and
  counts as a failed authentication of its address.
* A socket is idle while it runs no operation and has sent no message for
  ``socket_idle_timeout_s``; then it closes (1000, ``IDLE: ...``). A subscriber that only
  listens is not idle while its subscription runs; a subscription ended by a revoked key or an
  erased agent leaves it idle.

The sockets' caps and authentication are :mod:`server.sockets` (through the auth middleware).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from contextlib import suppress
from json import JSONDecodeError
from typing import Any

from graphql import GraphQLError
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from strawberry.asgi import ASGIWebSocketAdapter, GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http.exceptions import NonJsonMessageReceived, NonTextMessageReceived
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
    Operation,
    _OperationStreamClosed,
)
from strawberry.types.unset import UNSET, UnsetType
from strawberry.utils.aio import aclosing

from gql.context import Context
from gql.graphiql import HEADERS as GRAPHIQL_HEADERS
from gql.graphiql import graphiql_html
from gql.permissions import ANONYMOUS, Principal
from server.auth import key_from_headers
from server.composition import Memory
from server.health import readiness
from server.limits import Refusal, rate_limited
from server.sockets import SocketSession

__all__ = ["CodedTransportWS", "HippographGraphQL", "RefusingWebSocketAdapter"]

MESSAGE_TOO_LARGE = 4413


def _session(request: Request | WebSocket | Any) -> SocketSession | None:
    """The socket's session, set by the auth middleware (None without it)."""
    session = request.scope.get("state", {}).get("socket")
    return session if isinstance(session, SocketSession) else None


def _utf8_size(text: str) -> int:
    """The size of ``text`` in UTF-8, without encoding it when its length decides."""
    return len(text) if text.isascii() else len(text.encode())


class RefusingWebSocketAdapter(ASGIWebSocketAdapter):
    """Strawberry's WebSocket adapter; a connection refused at ``connection_init`` closes with
    the refusal's code and reason (set by :meth:`HippographGraphQL.on_ws_connect`) instead of
    a bare 4403 "Forbidden", and a message longer than the view's ``max_message_bytes``
    closes the socket (4413) before it is parsed."""

    async def iter_json(self, *, ignore_parsing_errors: bool = False) -> AsyncGenerator[object]:
        limit = getattr(self.view, "max_message_bytes", None)
        try:
            while self.ws.application_state != WebSocketState.DISCONNECTED:
                text = await self.ws.receive_text()
                if limit is not None and len(text) > limit // 4 and _utf8_size(text) > limit:
                    await self.close(
                        MESSAGE_TOO_LARGE,
                        f"BAD_INPUT: message too large (over {limit} bytes)",
                    )
                    return
                try:
                    yield self.view.decode_json(text)
                except JSONDecodeError as e:
                    if not ignore_parsing_errors:
                        raise NonJsonMessageReceived from e
        except KeyError as e:
            raise NonTextMessageReceived from e
        except WebSocketDisconnect:
            pass

    async def close(self, code: int, reason: str) -> None:
        refusal = self.ws.scope.get("state", {}).get("refusal")
        if code == 4403 and isinstance(refusal, Refusal):
            code, reason = 4000 + refusal.status, refusal.close_reason
        await super().close(code, reason)


class _Refused(Exception):
    """An operation refused before it runs (its key, or its rate budget)."""

    def __init__(self, refusal: Refusal) -> None:
        self.error = GraphQLError(
            refusal.message, extensions={"code": refusal.code, **refusal.extensions}
        )


class CodedTransportWS(BaseGraphQLTransportWSHandler[Context, None]):
    """Strawberry's graphql-transport-ws handler: each operation with a context of its own,
    its key re-checked and its rate budget taken; the idle and ``connection_init`` timeouts
    (see the module); the few errors strawberry raises itself (the per-connection
    subscription limit) get a code like every other error."""

    last_active = 0.0
    idle_task: asyncio.Task[None] | None = None

    def on_request_accepted(self) -> None:
        super().on_request_accepted()
        self.last_active = time.monotonic()
        self.idle_task = asyncio.create_task(self._close_when_idle())
        self.idle_task.add_done_callback(self._task_done)

    async def handle_message(self, message: Any) -> None:
        self.last_active = time.monotonic()
        await super().handle_message(message)

    async def shutdown(self) -> None:
        if self.idle_task is not None:
            self.idle_task.cancel()
            with suppress(asyncio.CancelledError):
                await self.idle_task
        await super().shutdown()

    async def handle_connection_init_timeout(self) -> None:
        await super().handle_connection_init_timeout()
        session = _session(self.websocket.ws) if self.connection_timed_out else None  # type: ignore[attr-defined]
        if session is not None:
            session.init_timed_out()

    async def _close_when_idle(self) -> None:
        idle = float(getattr(self.view, "socket_idle_s", 300.0))
        while True:
            left = idle if self.operations else self.last_active + idle - time.monotonic()
            if left <= 0:
                reason = f"IDLE: no message and no operation for {idle:g} s"
                await self.websocket.close(1000, reason)
                return
            await asyncio.sleep(left)

    async def send_message(self, message: Any) -> None:
        if message.get("type") == "error":
            for error in message.get("payload") or []:
                ext = error.setdefault("extensions", {})
                limit = error.get("message") == "Subscription limit reached"
                ext.setdefault("code", "RATE_LIMITED" if limit else "BAD_INPUT")
        await super().send_message(message)

    async def _operation_context(self) -> Context:
        """The operation's own context: its key resolved again, one request of its budget.

        Raises:
            _Refused: the key is refused now, or its budget is spent.
        """
        session = _session(self.websocket.ws)  # type: ignore[attr-defined]
        if session is None or session.principal is None:
            return operation_context(self.context, self.context.principal, None)
        principal, refusal = await session.refresh()
        if refusal is not None:
            raise _Refused(refusal)
        assert principal is not None
        wait = session.take(principal)
        if wait > 0:
            raise _Refused(rate_limited(wait))
        return operation_context(self.context, principal, session)

    async def run_operation(self, operation: Operation[Context, None]) -> None:
        """Strawberry's operation task, run with the operation's own context (a refused
        operation gets its ``error`` and runs nothing)."""
        try:
            try:
                context = await self._operation_context()
            except _Refused as refused:
                await operation.send_initial_errors([refused.error])
                return
            result_source = await self.schema.stream(
                operation.query,
                variable_values=operation.variables,
                context_value=context,
                root_value=self.root_value,
                operation_name=operation.operation_name,
            )
            async with aclosing(result_source):
                await self._send_result_stream(operation, result_source)
            await operation.send_operation_message({"id": operation.id, "type": "complete"})
        except _OperationStreamClosed:
            return
        except Exception as error:
            await self.handle_task_exception(error)
            with suppress(Exception):
                await operation.send_operation_message({"id": operation.id, "type": "complete"})
            self.operations.pop(operation.id, None)
            raise
        finally:
            self.last_active = time.monotonic()


def operation_context(
    base: Context, principal: Principal, session: SocketSession | None
) -> Context:
    """A socket operation's context: the connection's services and ``connection_init``
    payload, ``principal``, fresh loaders, and (with a session) the key's budget and its
    re-check."""
    recheck = None
    if session is not None:

        async def recheck() -> Principal | None:
            now, refusal = await session.refresh()
            if refusal is not None and refusal.code == "UNAVAILABLE":
                return principal  # an outage decides nothing: the next re-check asks again
            return now

    return Context(
        memory=base.memory,
        principal=principal,
        readiness=base.readiness,
        request=base.request,
        changes=base.changes,
        connection_params=base.connection_params,
        rate_take=(lambda cost: session.take(principal, cost)) if session is not None else None,
        recheck=recheck,
    )


class HippographGraphQL(GraphQL[Context, None]):
    """The strawberry ASGI view with our typed context and GraphiQL page; over WebSocket
    (graphql-transport-ws) it serves subscriptions, queries and mutations, bounded as the
    module says (``max_message_bytes``, ``socket_idle_s``)."""

    websocket_adapter_class = RefusingWebSocketAdapter  # type: ignore[assignment]
    graphql_transport_ws_handler_class = CodedTransportWS

    def __init__(
        self,
        *args: Any,
        max_message_bytes: int = 2_000_000,
        socket_idle_s: float = 300.0,
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.max_message_bytes = max_message_bytes
        self.socket_idle_s = socket_idle_s

    async def get_context(self, request: Request | WebSocket, response: Any = None) -> Context:  # type: ignore[override]
        memory: Memory = request.app.state.memory
        principal = getattr(request.state, "principal", ANONYMOUS)

        async def ready() -> dict[str, Any]:
            return await readiness(memory, request.app.state.warming)

        return Context(
            memory=memory,
            principal=principal,
            readiness=ready,
            request=request,
            changes=getattr(request.app.state, "change_feed", None),
            # HTTP: the auth middleware's take of more of the key's budget (a socket's
            # operations get theirs from their own context).
            rate_take=getattr(request.state, "rate_take", None),
        )

    async def on_ws_connect(self, context: Context) -> UnsetType | dict[str, object] | None:
        """Authenticates a WebSocket whose upgrade carried no key: the ``connection_init``
        payload's ``Authorization: Bearer <key>``, ``X-API-Key`` or ``apiKey``. A refusal
        closes the connection with 4000 + its HTTP status (4401, 4403, 4429, 4503) and a
        reason starting with its error code; so does the key's socket cap."""
        assert context.request is not None
        session = _session(context.request)
        if session is None or session.principal is not None:  # the upgrade's key (or auth off)
            return UNSET
        params = {str(k).lower(): v for k, v in (context.connection_params or {}).items()}
        if isinstance(params.get("apikey"), str):
            params.setdefault("x-api-key", params["apikey"])
        key = key_from_headers({k: v for k, v in params.items() if isinstance(v, str)})
        principal, refusal = await session.identify(key)
        if refusal is None:
            assert principal is not None
            refusal = session.enter(principal, key)
        if refusal is not None or principal is None:
            context.request.scope.setdefault("state", {})["refusal"] = refusal
            raise ConnectionRejectionError()
        context.principal = principal
        return UNSET

    @property
    def graphql_ide_html(self) -> str:
        return graphiql_html()

    async def render_graphql_ide(self, request: Request) -> Response:
        """The page, with headers that forbid framing it (see gql/graphiql.py)."""
        return HTMLResponse(self.graphql_ide_html, headers=GRAPHIQL_HEADERS)
