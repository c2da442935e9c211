"""Starlette app factory: ``uvicorn server.app:create_app --factory``.

The lifespan owns the Neo4j driver and the providers (one of each per process) and runs the
idempotent schema step; requests reach them through ``app.state.memory`` (a
:class:`graph.memory.facade.Memory` from ``server.composition.build_memory``). With
``worker_enabled`` the lifespan also runs the background job worker in-process. Middleware order
(outermost first): Host/Origin guard (server/origin.py) → request body size limit →
WebSocket Origin guard → authentication + per-key rate limit (and the sockets' caps) →
routes. ``/graphql`` also accepts WebSocket upgrades (graphql-transport-ws) for the
``memoryChanged`` subscription, fed by one poller per agent (and its tenant) and process
(``graph.memory.changes``), and for queries and mutations, under HTTP's rules
(``server.graphql_view``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta

import strawberry
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL

from gql.graphiql import ASSETS_PATH
from gql.schema import QueryLimits, build_schema
from graph.errors import GraphError
from graph.memory.changes import ChangeFeed
from graph.memory.warm_start import WarmStart, warm_start
from graph.schema import ensure_schema
from server.auth import ApiKeyStore, AuthMiddleware, is_loopback
from server.breaker import BreakerExecutor
from server.browser_guide import browser_guide_routes
from server.composition import Memory, build_memory, connect_executor
from server.explorer import OptionalStaticFiles, explorer_routes
from server.graphql_view import HippographGraphQL
from server.health import PublicReadiness, Warming, healthz, metrics, readyz
from server.limits import AuthFailureLimiter, BodySizeLimit, RateLimiter, parse_networks
from server.mcp.http import McpHttp
from server.origin import HostGuard, WebSocketOriginGuard, host_guard_enabled
from server.settings import Settings, get_settings
from server.sockets import SocketSlots
from server.start_group import StartGroup
from server.tracing_setup import configure_tracing, stop_tracing
from server.transfer_routes import EXPORT_PATH, IMPORT_PATH, export_routes
from server.warm_api import warm_queries
from server.worker import (
    sender_wanted,
    start_webhook_sender,
    start_worker,
    stop_sender,
    stop_worker,
)

log = logging.getLogger("hippograph")

__all__ = ["HippographGraphQL", "create_app", "query_limits"]


async def _warm_up(mem: Memory, warming: Warming, schema: strawberry.Schema) -> None:
    """Load the models and plan the hot statements while the API starts serving
    (``graph.memory.warm_start``), then ask every kind of query the API serves
    (``server.warm_api``); ``/readyz`` answers ready once it is done. A failing step is only
    logged: the first real request then does it."""

    async def api_queries() -> None:
        await warm_queries(mem, schema, log.warning)

    group = warming.group
    report = await warm_start(
        mem,
        log=log.warning,
        extra=[("API queries", api_queries)],
        turn=group.database_turn if group is not None else None,
    )
    if group is not None:
        group.mark_warm()
    log.info(
        "warmed up in %.1f s (%s)",
        report.total_s,
        ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items()),
    )
    warming.report = report


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
    schema = build_schema(query_limits(settings))
    app = Starlette(
        routes=_routes(settings, mcp, schema),
        middleware=_middleware(settings),
        lifespan=_lifespan(settings, memory, mcp, schema),
    )
    app.state.public_readiness = PublicReadiness()
    return app


def _lifespan(
    settings: Settings, memory: Memory | None, mcp: McpHttp, schema: strawberry.Schema
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
            recheck_s=settings.subscription_recheck_s,
        )
        try:
            await ensure_schema(mem.executor, mem.embedder.dimensions)
        except GraphError as exc:  # start anyway: /readyz reports it and recovery is automatic
            log.warning("schema not ensured at start: %s", exc)
        # Injected services (tests) never get a worker: it would lease other agents' jobs.
        worker = None
        if memory is None and settings.worker_enabled:
            worker = await start_worker(mem)
        # The webhook sender runs beside the worker (or as settings.webhook_sender says).
        sender = None
        if memory is None and sender_wanted(settings, settings.worker_enabled):
            sender = await start_webhook_sender(mem)
        # Injected services (tests) skip the warm-up: it plans statements the test never runs.
        warm = memory is None and settings.warm_up
        group = (
            StartGroup(settings.api_group_dir, settings.api_processes)
            if memory is None and settings.api_group_dir is not None
            else None
        )
        app.state.warming = Warming(None if warm else WarmStart(), group)
        if group is not None and not warm:
            group.mark_warm()
        warming = asyncio.create_task(_warm_up(mem, app.state.warming, schema)) if warm else None
        try:
            async with mcp.running():
                yield
        finally:
            if warming is not None:
                warming.cancel()
            await app.state.change_feed.close()
            await stop_sender(sender)
            await stop_worker(worker)
            if memory is None:
                await mem.close()
            stop_tracing(tracer_provider)

    return lifespan


def _routes(settings: Settings, mcp: McpHttp, schema: strawberry.Schema) -> list[BaseRoute]:
    graphql = HippographGraphQL(
        schema,
        graphql_ide="graphiql",
        allow_queries_via_get=False,
        subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
        connection_init_wait_timeout=timedelta(seconds=settings.socket_init_timeout_s),
        max_subscriptions_per_connection=settings.max_subscriptions_per_connection,
        max_message_bytes=settings.max_body_bytes,
        socket_idle_s=settings.socket_idle_timeout_s,
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
            sockets=SocketSlots(settings.max_sockets_per_key, settings.max_sockets_per_address),
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
