"""Export an agent's memory as JSON Lines records (:mod:`graph.memory.transfer.records`).

Reads in pages of ``page_size`` (keyset paging on ids, one ``cypher/export/*.cypher`` statement
per kind), so an export of any size holds one page in memory. :func:`export_agent` yields the
records as dicts; :func:`export_lines` yields them as the lines of the file the CLI and the HTTP
download write.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.spaces import recorded_space
from graph.memory.transfer.records import ExportHeader, encode_props
from graph.providers import Embedder

__all__ = ["export_agent", "export_counts", "export_lines"]

# kind → (statement, paging key column)
_PAGES: tuple[tuple[str, str, str], ...] = (
    ("entity", "export/entities", "key"),
    ("alias", "export/aliases", "norm"),
    ("event", "export/events", "id"),
    ("document", "export/documents", "id"),
    ("chunk", "export/chunks", "id"),
    ("fact", "export/facts", "id"),
    ("fact_link", "export/fact_links", "id"),
    ("relation", "export/relations", "id"),
    ("observation", "export/observations", "id"),
)


async def export_counts(executor: Executor, agent_id: str) -> dict[str, int]:
    """How many records of each kind the agent holds (facts counted twice: fact and link pass)."""
    rows = await executor.run("export/counts", {"agent_id": agent_id}, read=True)
    return {k: int(v) for k, v in rows[0].items()} if rows else {}


def _record(kind: str, row: dict[str, Any], embeddings: bool) -> dict[str, Any] | None:
    out: dict[str, Any] = {"kind": kind}
    for key, value in row.items():
        if key == "props":
            out["props"] = encode_props(value, embeddings=embeddings)
        elif key == "causes":
            out["causes"] = [
                {"id": c["id"], "props": encode_props(c["props"] or {})} for c in value
            ]
        else:
            out[key] = value
    if kind == "fact_link" and not out["supersedes"] and not out["causes"]:
        return None
    return out


async def export_agent(
    executor: Executor,
    agent_id: str,
    *,
    embedder_name: str,
    dimensions: int,
    page_size: int = 1000,
    embeddings: bool = True,
) -> AsyncIterator[dict[str, Any]]:
    """Yield the header, then every record of ``agent_id`` in import order.

    Args:
        embedder_name / dimensions: the model of this server, written to the header when the
            agent has no recorded model (an agent records the model of its first write).
        embeddings: include the vectors (an importer with the same model then needs no
            embedder calls); without them the importer always re-embeds.

    Raises:
        BadInput: an empty agent id.
    """
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    if page_size < 1:
        raise BadInput("page_size must be positive")
    recorded = await recorded_space(executor, agent_id)
    name = (recorded or embedder_name) if embeddings else "none"
    yield ExportHeader(agent_id, name, dimensions, datetime.now(UTC)).to_json()
    for kind, statement, column in _PAGES:
        after = ""
        while True:
            rows = await executor.run(
                statement, {"agent_id": agent_id, "after": after, "limit": page_size}, read=True
            )
            for row in rows:
                record = _record(kind, dict(row), embeddings)
                if record is not None:
                    yield record
            if len(rows) < page_size:
                break
            after = str(rows[-1][column])


async def export_lines(
    executor: Executor,
    agent_id: str,
    embedder: Embedder,
    *,
    page_size: int = 1000,
    embeddings: bool = True,
) -> AsyncIterator[str]:
    """:func:`export_agent` as JSON Lines: one compact UTF-8 JSON object a record, each ending
    in a newline; ``embedder`` is this server's model (its name and dimensions)."""
    async for record in export_agent(
        executor,
        agent_id,
        embedder_name=embedder.name,
        dimensions=embedder.dimensions,
        page_size=page_size,
        embeddings=embeddings,
    ):
        yield json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
