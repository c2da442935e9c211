"""``GET /export?agent=ID``: an agent's memory as a JSON Lines download (the format of
``hippograph export``, :mod:`graph.memory.transfer.records`).

Behind the same authentication and rate limit as ``/graphql``; the caller's key must cover the
agent and the agent must belong to the key's tenant (the read check of the GraphQL agent
fields: nothing is claimed). The body streams page by page, so a large agent never sits in the
server's memory. ``embeddings=false`` leaves the vectors out (a much smaller file; an importer
re-embeds).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gql.permissions import ANONYMOUS, Principal
from graph.memory.facade import Memory
from graph.memory.transfer import export_agent
from graph.tenancy import may_access
from server.limits import json_error

__all__ = ["EXPORT_PATH", "export_routes"]

EXPORT_PATH = "/export"
_MAX_AGENT_ID = 200


async def export_download(request: Request) -> Response:
    """Stream the export of ``?agent=`` after the tenant check."""
    agent = request.query_params.get("agent", "").strip()
    if not agent or len(agent) > _MAX_AGENT_ID:
        return json_error(400, "BAD_INPUT", "give ?agent=ID (at most 200 characters)")
    embeddings = request.query_params.get("embeddings", "true").lower() not in ("false", "0")
    principal: Principal = request.scope.get("state", {}).get("principal", ANONYMOUS)
    memory: Memory = request.app.state.memory
    allowed = principal.can_access(agent) and (
        principal.admin
        or await may_access(
            memory.executor, principal.tenant, agent, named=agent in principal.agents, claim=False
        )
    )
    if not allowed:
        return json_error(403, "FORBIDDEN", "This API key may not access that agent.")

    async def lines() -> AsyncIterator[bytes]:
        async for record in export_agent(
            memory.executor,
            agent,
            embedder_name=memory.embedder.name,
            dimensions=memory.embedder.dimensions,
            embeddings=embeddings,
        ):
            yield (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()

    filename = "".join(c if c.isalnum() or c in "-_." else "_" for c in agent)
    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="{filename}.jsonl"'},
    )


def export_routes() -> list[Route]:
    """The download route, for :func:`server.app.create_app`."""
    return [Route(EXPORT_PATH, export_download, methods=["GET"])]
