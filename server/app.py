"""Starlette app factory: ``uvicorn server.app:create_app --factory``.

The lifespan owns the Neo4j driver and the providers (one of each per process) and runs the
idempotent schema step; requests reach them through ``app.state.memory`` (a
:class:`graph.memory.facade.Memory` from ``server.composition.build_memory``). With
``worker_enabled`` the lifespan also runs the background job worker in-process. Middleware order
(outermost first): Host/Origin guard (server/origin.py) → request body size limit →
WebSocket Origin guard → authentication + per-key rate limit → routes. ``/graphql`` also
accepts WebSocket upgrades (graphql-transport-ws) for the ``memoryChanged`` subscription,
fed by one poller per agent and process (``graph.memory.changes``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket
from strawberry.asgi import ASGIWebSocketAdapter, GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.types.unset import UNSET, UnsetType

from gql.context import Context
from gql.graphiql import ASSETS_PATH, graphiql_html
from gql.graphiql import HEADERS as GRAPHIQL_HEADERS
from gql.permissions import ANONYMOUS
from gql.schema import QueryLimits, build_schema
from graph.errors import GraphError
from graph.memory.changes import ChangeFeed
from graph.memory.warm_start import WarmStart, warm_start
from graph.schema import ensure_schema
from server.auth import ApiKeyStore, AuthMiddleware, Refusal, is_loopback, key_from_headers
from server.breaker import BreakerExecutor
from server.browser_guide import browser_guide_routes
from server.composition import Memory, build_memory, connect_executor
from server.explorer import OptionalStaticFiles, explorer_routes
from server.health import PublicReadiness, Warming, healthz, metrics, readiness, readyz
from server.limits import AuthFailureLimiter, BodySizeLimit, RateLimiter, parse_networks
from server.mcp.http import McpHttp
from server.origin import HostGuard, WebSocketOriginGuard, host_guard_enabled
from server.settings import Settings, get_settings
from server.tracing_setup import configure_tracing, stop_tracing
from server.transfer_routes import EXPORT_PATH, IMPORT_PATH, export_routes
from server.worker import start_worker, stop_worker

log = logging.getLogger("hippograph")

__all__ = ["HippographGraphQL", "create_app", "query_limits"]


async def _warm_up(mem: Memory, warming: Warming) -> None:
    """Load the models and plan the hot statements while the API starts serving
    (``graph.memory.warm_start``); ``/readyz`` answers ready once it is done. A failing step is
    only logged: the first real request then does it."""
    report = await warm_start(mem, log=log.warning)
    log.info(
        "warmed up in %.1f s (%s)",
        report.total_s,
        ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items()),
    )
    warming.report = report


class RefusingWebSocketAdapter(ASGIWebSocketAdapter):
    """Strawberry's WebSocket adapter; a connection refused at ``connection_init`` closes with
    the refusal's code and reason (set by :meth:`HippographGraphQL.on_ws_connect`) instead of
    a bare 4403 "Forbidden"."""

    async def close(self, code: int, reason: str) -> None:
        refusal = self.ws.scope.get("state", {}).get("refusal")
        if code == 4403 and isinstance(refusal, Refusal):
            code = 4000 + refusal.status
            reason = f"{refusal.code}: {refusal.message}".encode()[:123].decode(errors="ignore")
        await super().close(code, reason)


class CodedTransportWS(BaseGraphQLTransportWSHandler[Context, None]):
    """Strawberry's graphql-transport-ws handler; the few errors strawberry raises itself
    (the per-connection subscription limit) get a code like every other error."""

    async def send_message(self, message: Any) -> None:
        if message.get("type") == "error":
            for error in message.get("payload") or []:
                ext = error.setdefault("extensions", {})
                limit = error.get("message") == "Subscription limit reached"
                ext.setdefault("code", "RATE_LIMITED" if limit else "BAD_INPUT")
        await super().send_message(message)


class HippographGraphQL(GraphQL[Context, None]):
    """The strawberry ASGI view with our typed context and GraphiQL page; over WebSocket
    (graphql-transport-ws) it serves subscriptions."""

    websocket_adapter_class = RefusingWebSocketAdapter  # type: ignore[assignment]
    graphql_transport_ws_handler_class = CodedTransportWS

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
        )

    async def on_ws_connect(self, context: Context) -> UnsetType | dict[str, object] | None:
        """Authenticates a WebSocket whose upgrade carried no key: the ``connection_init``
        payload's ``Authorization: Bearer <key>``, ``X-API-Key`` or ``apiKey``. A refusal
        closes the connection with 4000 + its HTTP status (4401, 4403, 4429, 4503) and a
        reason starting with its error code."""
        assert context.request is not None
        state = context.request.scope.setdefault("state", {})
        authenticate = state.get("authenticate")
        if authenticate is None:  # the upgrade's headers were checked (or auth is off)
            return UNSET
        params = {str(k).lower(): v for k, v in (context.connection_params or {}).items()}
        if isinstance(params.get("apikey"), str):
            params.setdefault("x-api-key", params["apikey"])
        key = key_from_headers({k: v for k, v in params.items() if isinstance(v, str)})
        principal, refusal = await authenticate(key)
        if refusal is not None:
            state["refusal"] = refusal
            raise ConnectionRejectionError()
        context.principal = principal
        return UNSET

    @property
    def graphql_ide_html(self) -> str:
        return graphiql_html()

    async def render_graphql_ide(self, request: Request) -> Response:
        """The page, with headers that forbid framing it (see gql/graphiql.py)."""
        return HTMLResponse(self.graphql_ide_html, headers=GRAPHIQL_HEADERS)


def query_limits(settings: Settings) -> QueryLimits:
    """The GraphQL document limits configured by settings."""
    return QueryLimits(
        max_depth=settings.max_query_depth,
        max_chars=settings.max_query_chars,
        max_aliases=settings.max_aliases,
        max_cost=settings.max_query_cost,
        max_tokens=settings.max_query_tokens,
        max_selections=settings.max_query_selections,
        max_operations=settings.max_query_operations,
        introspection=settings.introspection,
        rerank_cost=settings.rerank_rate_cost,
    )


def create_app(settings: Settings | None = None, memory: Memory | None = None) -> Starlette:
    """Build the ASGI app. Pass ``memory`` (``build_memory`` over a test executor/embedder) to
    share services with a test; else built from settings.

    Raises:
        RuntimeError: authentication is disabled while the API is configured to bind to a
            non-loopback address.
    """
    settings = settings or get_settings()
    if settings.auth_disabled and not is_loopback(settings.api_host):
        raise RuntimeError(
            f"HIPPOGRAPH_AUTH_DISABLED=true is only allowed on loopback; api_host is "
            f"{settings.api_host!r}. Create API keys (hippograph apikey create) instead."
        )
    if not (settings.home / "graphiql" / ".pins").is_file():
        log.warning(
            "GraphiQL assets missing under %s: run scripts/bootstrap.sh", settings.home / "graphiql"
        )
    mcp = McpHttp(settings)  # MCP over streamable HTTP at /mcp (server/mcp/)
    app = Starlette(
        routes=_routes(settings, mcp),
        middleware=_middleware(settings),
        lifespan=_lifespan(settings, memory, mcp),
    )
    app.state.public_readiness = PublicReadiness()
    return app


def _lifespan(
    settings: Settings, memory: Memory | None, mcp: McpHttp
) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """The app's start and stop: services (``memory``, or built from settings), the schema,
    the job worker, the warm-up and the MCP session manager."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        mem = memory
        # Injected services (tests) bring their own tracing, if any.
        tracer_provider = configure_tracing(settings) if memory is None else None
        if mem is None:
            # Fail fast while Neo4j is down instead of waiting out the driver's retries.
            mem = build_memory(settings, executor=BreakerExecutor(connect_executor(settings)))
        app.state.memory = mem
        app.state.key_store = ApiKeyStore(mem.executor)
        app.state.change_feed = ChangeFeed(
            mem.executor,
            poll_s=settings.subscription_poll_s,
            lookback_s=settings.subscription_lookback_s,
            max_per_key=settings.max_subscriptions_per_key,
        )
        try:
            await ensure_schema(mem.executor, mem.embedder.dimensions)
        except GraphError as exc:  # start anyway: /readyz reports it and recovery is automatic
            log.warning("schema not ensured at start: %s", exc)
        # Injected services (tests) never get a worker: it would lease other agents' jobs.
        worker = None
        if memory is None and settings.worker_enabled:
            worker = await start_worker(mem)
        # Injected services (tests) skip the warm-up: it plans statements the test never runs.
        warm = memory is None and settings.warm_up
        app.state.warming = Warming(None if warm else WarmStart())
        warming = asyncio.create_task(_warm_up(mem, app.state.warming)) if warm else None
        try:
            async with mcp.running():
                yield
        finally:
            if warming is not None:
                warming.cancel()
            await app.state.change_feed.close()
            await stop_worker(worker)
            if memory is None:
                await mem.close()
            stop_tracing(tracer_provider)

    return lifespan


def _routes(settings: Settings, mcp: McpHttp) -> list[BaseRoute]:
    graphql = HippographGraphQL(
        build_schema(query_limits(settings)),
        graphql_ide="graphiql",
        allow_queries_via_get=False,
        subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
        connection_init_wait_timeout=timedelta(seconds=10),
        max_subscriptions_per_connection=settings.max_subscriptions_per_connection,
    )
    return [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        WebSocketRoute("/graphql", graphql),  # subscriptions (graphql-transport-ws)
        # GraphiQL's scripts/styles, fetched by scripts/bootstrap.sh (check_dir: may be absent).
        Mount(
            ASSETS_PATH, OptionalStaticFiles(directory=settings.home / "graphiql", check_dir=False)
        ),
        *browser_guide_routes(),
        *explorer_routes(settings.home),  # the memory explorer page and its bundle
        *export_routes(),
        *mcp.routes,
    ]


def _middleware(settings: Settings) -> list[Middleware]:
    admin_key = settings.admin_api_key.get_secret_value() if settings.admin_api_key else None
    listed = settings.allowed_host_names
    guard = host_guard_enabled(settings.auth_disabled, settings.api_host, listed)
    return [
        # Outermost: a rebinding page's request is refused before anything else looks at it.
        *([Middleware(HostGuard, listed=listed)] if guard else []),
        Middleware(WebSocketOriginGuard, listed=listed),
        Middleware(
            BodySizeLimit,
            max_bytes=settings.max_body_bytes,
            per_path={IMPORT_PATH: settings.import_max_bytes},
        ),
        Middleware(
            AuthMiddleware,
            auth_disabled=settings.auth_disabled,
            admin_key=admin_key,
            limiter=RateLimiter(settings.rate_limit_per_minute, settings.api_processes),
            failures=AuthFailureLimiter(settings.auth_failures_per_minute, settings.api_processes),
            address_failures=AuthFailureLimiter(
                settings.auth_failures_per_address_per_minute, settings.api_processes
            ),
            trusted_proxies=parse_networks(settings.trusted_proxies),
            paths=(
                "/graphql",
                "/mcp",
                EXPORT_PATH,
                IMPORT_PATH,
                *(() if settings.readyz_public else ("/readyz",)),
                *(() if settings.metrics_public else ("/metrics",)),
            ),
            deferred_limit_paths=("/mcp",),
            # Without a key: the short answer (server/health.py public_readiness).
            optional_paths=("/readyz",) if settings.readyz_public else (),
        ),
    ]
