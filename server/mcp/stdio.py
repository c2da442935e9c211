"""``hippograph mcp``: the MCP server over stdio, for an MCP client that spawns it.

Tenancy is fixed for the session: ``HIPPOGRAPH_MCP_API_KEY`` (resolved like an HTTP request's
key, revocation included), else ``HIPPOGRAPH_MCP_AGENT`` (exactly that one agent), else, with
``HIPPOGRAPH_AUTH_DISABLED=true``, the local operator (every agent), as the API does on loopback.
stdout carries the protocol: nothing else may print there (logs go to stderr).
"""

from __future__ import annotations

import hmac
import logging

from mcp.server.mcpserver import Context

from gql.errors import ApiError, ErrorCode
from gql.permissions import LOCAL_ADMIN, Principal
from graph.errors import GraphError
from graph.schema import ensure_schema
from server.auth import ApiKeyStore
from server.breaker import BreakerExecutor
from server.composition import Memory, build_memory, connect_executor
from server.mcp.build import Caller, build_mcp
from server.settings import Settings
from server.worker import start_worker, stop_worker

__all__ = ["StdioCaller", "run_stdio", "stdio_scope"]

log = logging.getLogger("hippograph.mcp")


def stdio_scope(settings: Settings) -> str | None:
    """Why the stdio server may not start (no key, agent or disabled auth), or None."""
    if settings.mcp_api_key or settings.mcp_agent or settings.auth_disabled:
        return None
    return (
        "Give the MCP session a scope: HIPPOGRAPH_MCP_API_KEY=<key> (see `hippograph apikey "
        "create`) or HIPPOGRAPH_MCP_AGENT=<agent id> (or --agent)."
    )


class StdioCaller:
    """Resolves the session's principal on every call (keys are cached for 30 s)."""

    def __init__(self, memory: Memory, settings: Settings) -> None:
        self.memory = memory
        self.settings = settings
        self.keys = ApiKeyStore(memory.executor)

    async def principal(self) -> Principal:
        s = self.settings
        if s.mcp_api_key is not None:
            key = s.mcp_api_key.get_secret_value()
            admin = s.admin_api_key.get_secret_value() if s.admin_api_key else None
            if admin and hmac.compare_digest(key.encode(), admin.encode()):
                return Principal(tenant="admin", all_agents=True, admin=True, key_id="admin")
            found = await self.keys.resolve(key)
            if found is None:
                raise ApiError(
                    ErrorCode.FORBIDDEN, "Unknown or revoked API key (HIPPOGRAPH_MCP_API_KEY)."
                )
            return found
        if s.mcp_agent:
            return Principal(tenant="local", agents=frozenset({s.mcp_agent}), operator=True)
        if s.auth_disabled:
            return LOCAL_ADMIN
        raise ApiError(ErrorCode.FORBIDDEN, stdio_scope(s) or "No MCP scope configured.")

    async def __call__(self, ctx: Context) -> Caller:
        return Caller(self.memory, await self.principal())


async def run_stdio(settings: Settings, *, worker: bool = False) -> None:
    """Serve MCP on stdin/stdout until the client closes it."""
    memory = build_memory(settings, executor=BreakerExecutor(connect_executor(settings)))
    handle = None
    try:
        try:
            await ensure_schema(memory.executor, memory.embedder.dimensions)
        except GraphError as exc:  # calls answer UNAVAILABLE until Neo4j is back
            log.warning("schema not ensured at start: %s", exc)
        if worker:
            handle = await start_worker(memory)
        server = build_mcp(StdioCaller(memory, settings), erase_tools=settings.mcp_erase_tools)
        await server.run_stdio_async()
    finally:
        await stop_worker(handle)
        await memory.close()
