"""Starlette app factory: ``uvicorn server.app:create_app --factory``.

The lifespan owns the Neo4j driver and the providers (one of each per process) and runs the
idempotent schema step; requests reach them through ``app.state.services``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from strawberry.asgi import GraphQL

from graph.errors import GraphError
from graph.schema import ensure_schema
from gql.schema import schema
from server.health import healthz, metrics, readyz
from server.services import Services, build_services
from server.settings import Settings, get_settings

log = logging.getLogger("hippograph")

__all__ = ["create_app"]


class HippographGraphQL(GraphQL[Any, None]):
    async def get_context(self, request: Request, response: Response | None = None) -> Any:  # type: ignore[override]
        return {"request": request, "response": response, "services": request.app.state.services}


def create_app(settings: Settings | None = None, services: Services | None = None) -> Starlette:
    """Build the ASGI app. Pass ``services`` to inject fakes (tests); else built from settings."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        svc = services or build_services(settings)
        app.state.services = svc
        try:
            await ensure_schema(svc.executor, svc.embedder.dimensions)
        except GraphError as exc:  # start anyway: /readyz reports it and recovery is automatic
            log.warning("schema not ensured at start: %s", exc)
        try:
            yield
        finally:
            if services is None:
                await svc.close()

    graphql = HippographGraphQL(schema, graphql_ide="graphiql")
    routes = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics),
        Route("/graphql", graphql, methods=["GET", "POST"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
