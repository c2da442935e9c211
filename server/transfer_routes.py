"""``GET /export?agent=ID``: an agent's memory as a JSON Lines download (the format of
``hippograph export``, :mod:`graph.memory.transfer.records`); ``POST /import?agent=ID``: the
upload that brings such a file (or a Mem0 ``get_all`` export, ``&format=mem0``) into an agent.

Behind the same authentication and rate limit as ``/graphql``; the caller's key must cover the
agent and the agent must belong to the key's tenant (the read check of the GraphQL agent
fields: nothing is claimed). The body streams page by page, so a large agent never sits in the
server's memory. ``embeddings=false`` leaves the vectors out (a much smaller file; an importer
re-embeds).

An import writes memory wholesale (ids mapped, validity and provenance as the file gives them),
an operator's action like erase: admin keys only. The JSON Lines body is spooled to a temporary
file as it arrives (linear; memory holds at most ``SPOOL_MEMORY_BYTES``), checked whole, line by
line (one line at most ``MAX_LINE_BYTES``), and only then written: a bad line is a typed error
naming it, and nothing is written. Bodies up to ``Settings.import_max_bytes`` (``/graphql`` keeps
its smaller limit). A Mem0 document is one JSON value mapped whole, so its body is capped lower,
at ``MEM0_MAX_BYTES`` (413 past it, before it is parsed).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import AsyncIterator
from typing import IO

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from gql.permissions import ANONYMOUS, Principal
from graph.errors import BadInput, EmbedderMismatch
from graph.memory.facade import Memory
from graph.memory.transfer import export_lines
from graph.memory.transfer.importer import MAX_LINE_BYTES, import_export_file
from graph.memory.transfer.peers import import_mem0
from graph.tenancy import may_access
from server.limits import json_error

__all__ = ["EXPORT_PATH", "IMPORT_PATH", "export_routes"]

EXPORT_PATH = "/export"
IMPORT_PATH = "/import"
_MAX_AGENT_ID = 200
MEM0_MAX_BYTES = 64_000_000  # a Mem0 document is parsed and mapped whole, in memory
SPOOL_MEMORY_BYTES = 8_000_000  # an import body past this goes to a temporary file


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
        async for line in export_lines(
            memory.executor, agent, memory.embedder, embeddings=embeddings
        ):
            yield line.encode()

    filename = "".join(c if c.isalnum() or c in "-_." else "_" for c in agent)
    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="{filename}.jsonl"'},
    )


class BodyTooLarge(Exception):
    """The body passed the limit it is read under."""


async def _spool(request: Request, out: IO[bytes]) -> None:
    """Write the request body to ``out`` chunk by chunk as it streams in (linear time)."""
    async for chunk in request.stream():
        out.write(chunk)


async def _body(request: Request, limit: int) -> bytes:
    """The whole body, refused past ``limit`` bytes while it streams (joined once: linear)."""
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit)
        parts.append(chunk)
    return b"".join(parts)


def _json_document(body: bytes) -> object:
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"the body is not a JSON document ({type(exc).__name__})") from exc
    except RecursionError as exc:
        raise BadInput("the body is JSON nested too deeply") from exc


async def import_upload(request: Request) -> Response:
    """Import the body into ``?agent=`` (``&format=hippograph``, the default, or ``mem0``);
    answers what was written, or a typed error. A JSON Lines body is checked whole before
    anything is written: a bad line is refused, naming it, and the agent is left as it was.
    Importing the same file again rewrites the same nodes (ids are mapped: nothing doubles)."""
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
                body = await _body(request, MEM0_MAX_BYTES)
            except BodyTooLarge:
                return json_error(
                    413,
                    "BAD_INPUT",
                    f"A Mem0 document is read whole: at most {MEM0_MAX_BYTES} bytes.",
                    reason="body_size",
                )
            data = await asyncio.to_thread(_json_document, body)
            del body
            report = await import_mem0(memory.executor, memory.embedder, agent, data)
            return JSONResponse({"success": True, "agentId": agent, "format": fmt, **report})
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY_BYTES) as spool:
            await _spool(request, spool)
            result = await import_export_file(
                memory.executor, memory.embedder, agent, spool, max_line_bytes=MAX_LINE_BYTES
            )
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
