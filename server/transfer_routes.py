"""``GET /export?agent=ID``: an agent's memory as a JSON Lines download (the format of
``hippograph export``, :mod:`graph.memory.transfer.records`); ``POST /import?agent=ID``: the
upload that brings such a file (or a Mem0 ``get_all`` export, ``&format=mem0``) into an agent.

Behind the same authentication and rate limit as ``/graphql``; the caller's key must cover the
agent and the agent must belong to the key's tenant (the read check of the GraphQL agent
fields: nothing is claimed). The body streams page by page, so a large agent never sits in the
server's memory. ``embeddings=false`` leaves the vectors out (a much smaller file; an importer
re-embeds).

An import writes memory wholesale (ids mapped, validity and provenance as the file gives them),
an operator's action like erase: admin keys only. The JSON Lines body is read line by line as it
arrives (constant memory, one line at most ``MAX_LINE_BYTES``); a Mem0 document is one JSON value,
read whole. Bodies up to ``Settings.import_max_bytes`` (``/graphql`` keeps its smaller limit).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from gql.permissions import ANONYMOUS, Principal
from graph.errors import BadInput, EmbedderMismatch
from graph.memory.facade import Memory
from graph.memory.transfer import export_agent, import_agent
from graph.memory.transfer.peers import import_mem0
from graph.tenancy import may_access
from server.limits import json_error

__all__ = ["EXPORT_PATH", "IMPORT_PATH", "export_routes"]

EXPORT_PATH = "/export"
IMPORT_PATH = "/import"
_MAX_AGENT_ID = 200
MAX_LINE_BYTES = 16_000_000  # one record (a long document's chunk with its vector fits easily)


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


async def _records(request: Request) -> AsyncIterator[dict[str, Any]]:
    """The JSON objects of a JSON Lines body, one line at a time as it streams in."""
    buffer, number = b"", 0
    async for chunk in request.stream():
        buffer += chunk
        if len(buffer) > MAX_LINE_BYTES and b"\n" not in buffer:
            raise BadInput(f"line {number + 1}: longer than {MAX_LINE_BYTES} bytes")
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            number += 1
            if line.strip():
                yield _record(line, number)
    if buffer.strip():
        yield _record(buffer, number + 1)


def _record(line: bytes, number: int) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"line {number}: not a JSON object ({type(exc).__name__})") from exc
    if not isinstance(data, dict):
        raise BadInput(f"line {number}: expected a JSON object")
    return data


async def import_upload(request: Request) -> Response:
    """Import the body into ``?agent=`` (``&format=hippograph``, the default, or ``mem0``);
    answers what was written, or a typed error (nothing is written before the body's first
    record is checked; a file refused part-way leaves the batches before it, and importing it
    again completes it: ids are mapped, so nothing doubles)."""
    agent = request.query_params.get("agent", "").strip()
    if not agent or len(agent) > _MAX_AGENT_ID:
        return json_error(400, "BAD_INPUT", "give ?agent=ID (at most 200 characters)")
    fmt = request.query_params.get("format", "hippograph")
    if fmt not in ("hippograph", "mem0"):
        return json_error(400, "BAD_INPUT", "format is hippograph (JSON Lines) or mem0 (JSON)")
    principal: Principal = request.scope.get("state", {}).get("principal", ANONYMOUS)
    if not principal.admin:
        return json_error(403, "FORBIDDEN", "Importing memory needs an admin key.")
    memory: Memory = request.app.state.memory
    try:
        if fmt == "mem0":
            try:
                data = json.loads(await request.body())
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise BadInput(f"the body is not a JSON document ({type(exc).__name__})") from exc
            report = await import_mem0(memory.executor, memory.embedder, agent, data)
            return JSONResponse({"success": True, "agentId": agent, "format": fmt, **report})
        result = await import_agent(memory.executor, memory.embedder, agent, _records(request))
    except (BadInput, EmbedderMismatch) as exc:
        return json_error(400, "BAD_INPUT", str(exc))
    return JSONResponse(
        {
            "success": True,
            "agentId": agent,
            "format": fmt,
            "sourceAgent": result.source_agent,
            "sourceEmbedder": result.source_embedder,
            "reembedded": result.reembedded,
            "written": result.written,
        }
    )


def export_routes() -> list[Route]:
    """The download and upload routes, for :func:`server.app.create_app`."""
    return [
        Route(EXPORT_PATH, export_download, methods=["GET"]),
        Route(IMPORT_PATH, import_upload, methods=["POST"]),
    ]
