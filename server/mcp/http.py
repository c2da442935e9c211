"""The streamable HTTP transport, mounted at ``/mcp`` of the API app (``server/app.py``).

The route sits behind the same :class:`~server.auth.AuthMiddleware` as ``/graphql``: the
``Authorization: Bearer`` (or ``X-API-Key``) header resolves to the caller's principal, and the
per-key rate limit is recorded on the request so that tool calls answer ``RATE_LIMITED`` as tool
errors. The server is *stateless* (every POST stands alone, JSON responses), so any API process
behind any load balancer can answer any request; the tools need no server-to-client requests.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import BaseRoute

from gql.errors import ApiError, ErrorCode
from gql.permissions import ANONYMOUS
from server.mcp.build import Caller, build_mcp
from server.settings import Settings

__all__ = ["McpHttp", "caller_from_request"]

PATH = "/mcp"


async def caller_from_request(ctx: Context, rerank_cost: int = 1) -> Caller:
    """The caller of an HTTP call: the principal and rate-limit state set by ``AuthMiddleware``,
    the ``Memory`` owned by the app lifespan (``rerank_cost``: ``rerank_rate_cost``)."""
    request: Any = ctx.request_context.request
    if request is None:
        raise ApiError(ErrorCode.INTERNAL, "No HTTP request for this call.")
    state = request.scope.get("state") or {}
    return Caller(
        memory=request.app.state.memory,
        principal=state.get("principal", ANONYMOUS),
        rate_wait_s=float(state.get("rate_wait_s", 0.0)),
        rate_take=state.get("rate_take"),
        rerank_cost=rerank_cost,
    )


class McpHttp:
    """The ``/mcp`` route and the session manager its app lifespan must run."""

    def __init__(self, settings: Settings) -> None:
        self.server = build_mcp(
            partial(caller_from_request, rerank_cost=settings.rerank_rate_cost),
            erase_tools=settings.mcp_erase_tools,
        )
        app = self.server.streamable_http_app(
            streamable_http_path=PATH,
            stateless_http=True,
            json_response=True,
            max_request_body_size=settings.max_body_bytes,
            host=settings.api_host,
            # DNS-rebinding protection (Host/Origin must be loopback) guards a keyless local
            # server against web pages; with API keys it would only break reverse proxies.
            transport_security=TransportSecuritySettings(
                enable_dns_rebinding_protection=settings.auth_disabled,
                allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
                allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
            ),
        )
        self.routes: list[BaseRoute] = list(app.routes)

    def running(self) -> AbstractAsyncContextManager[None]:
        """Run the session manager (once per app lifespan)."""
        return self.server.session_manager.run()
