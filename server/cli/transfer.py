"""``hippograph export`` and ``hippograph import``: an agent's memory as JSON Lines, and imports
from other memory systems (a Mem0 ``get_all`` export, a Graphiti graph in Neo4j)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import typer

from server.settings import get_settings

__all__ = ["export_to", "import_from", "private_file", "read_lines", "register"]


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSON Lines file, one line at a time (blank lines skipped).

    Raises:
        BadInput: naming the line (see :func:`graph.memory.transfer.importer.json_lines`).
    """
    from graph.memory.transfer.importer import json_lines

    with path.open("rb") as fh:
        for _, record in json_lines(fh):
            yield record


def private_file(path: Path) -> TextIO:
    """``path`` opened for writing with mode 0600 (created so, or narrowed when it existed,
    whatever the umask): an export holds a whole memory."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "w", encoding="utf-8")


async def export_to(
    out: TextIO, agent: str, *, page_size: int = 1000, embeddings: bool = True, memory: Any = None
) -> int:
    """Write the export of ``agent`` to ``out`` with a progress bar; returns the record count.
    ``memory`` shares an existing one (tests); else one is built from settings and closed."""
    from graph.memory.transfer import export_counts, export_lines
    from graph.progress import progress_bar
    from server.composition import build_memory

    mem = memory or build_memory(get_settings())
    try:
        counts = await export_counts(mem.executor, agent)
        total = sum(counts.values()) + counts.get("facts", 0)  # facts are read twice
        bar = progress_bar(total=total, unit="rec", desc=f"export {agent}")
        written = 0
        try:
            async for line in export_lines(
                mem.executor, agent, mem.embedder, page_size=page_size, embeddings=embeddings
            ):
                out.write(line)
                written += 1
                bar.update(1)
        finally:
            bar.close()
        return written
    finally:
        if memory is None:
            await mem.close()


async def import_from(
    path: Path, agent: str, *, batch_size: int = 500, memory: Any = None
) -> dict[str, Any]:
    """Import a Hippograph export file into ``agent`` with a progress bar; the result as JSON.
    The file is checked whole first: a bad line is refused, naming it, before anything is
    written."""
    from graph.memory.transfer.importer import import_export_file
    from graph.progress import progress_bar
    from graph.schema import ensure_schema
    from server.composition import build_memory

    mem = memory or build_memory(get_settings())
    bar = progress_bar(total=None, unit="rec", desc=f"import {agent}")
    try:
        await ensure_schema(mem.executor, mem.embedder.dimensions)
        with path.open("rb") as fh:
            r = await import_export_file(
                mem.executor, mem.embedder, agent, fh, batch_size=batch_size, progress=bar.update
            )
        return {
            "agent_id": r.agent_id,
            "source_agent": r.source_agent,
            "source_embedder": r.source_embedder,
            "embedder": r.embedder,
            "reembedded": r.reembedded,
            "written": r.written,
        }
    finally:
        bar.close()
        if memory is None:
            await mem.close()


def _fail(exc: Exception) -> None:
    typer.echo(
        json.dumps({"success": False, "error": str(exc), "code": type(exc).__name__}), err=True
    )
    raise typer.Exit(2) from exc


def register(app: typer.Typer) -> None:
    app.command("export")(export_cmd)
    app.command("import")(import_cmd)


def export_cmd(
    agent: str = typer.Option(..., "--agent", help="Agent id to export"),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="File to write (default: standard output)"
    ),
    page_size: int = typer.Option(1000, "--page-size", min=1, max=10_000),
    embeddings: bool = typer.Option(
        True,
        "--embeddings/--no-embeddings",
        help="Include vectors (without: the importer re-embeds)",
    ),
) -> None:
    """Export an agent's memory as JSON Lines: facts with every version, entities, aliases,
    relation versions, events, documents and observations, after a header line."""
    from graph.errors import GraphError

    try:
        if output is None:
            n = asyncio.run(
                export_to(sys.stdout, agent, page_size=page_size, embeddings=embeddings)
            )
        else:
            with private_file(output) as fh:
                n = asyncio.run(export_to(fh, agent, page_size=page_size, embeddings=embeddings))
    except GraphError as exc:
        _fail(exc)
    typer.echo(f"exported {n} records of {agent}", err=True)


def import_cmd(
    file: Path | None = typer.Argument(
        None, exists=True, dir_okay=False, help="Export file (or the peer's file)"
    ),
    agent: str = typer.Option(..., "--agent", help="Agent id to import into"),
    source: str = typer.Option("hippograph", "--from", help="Format: hippograph | mem0 | graphiti"),
    bolt: str | None = typer.Option(None, "--bolt", help="Graphiti: Neo4j bolt URI"),
    user: str = typer.Option("neo4j", "--user", help="Graphiti: Neo4j user"),
    password: str | None = typer.Option(None, "--password", help="Graphiti: Neo4j password"),
    database: str = typer.Option("neo4j", "--database", help="Graphiti: Neo4j database"),
    group: list[str] = typer.Option(
        None, "--group", help="Graphiti: group_id to import (repeatable; default all)"
    ),
    batch_size: int = typer.Option(500, "--batch-size", min=1, max=10_000),
) -> None:
    """Import into an agent: a Hippograph export (ids mapped, re-embedded when the model
    differs), a Mem0 get_all export (--from mem0) or a Graphiti graph (--from graphiti)."""
    from graph.errors import GraphError

    try:
        if source == "hippograph":
            if file is None:
                raise typer.BadParameter("give the export file")
            out = asyncio.run(import_from(file, agent, batch_size=batch_size))
        elif source == "mem0":
            out = _import_mem0(file, agent, batch_size)
        elif source == "graphiti":
            graphiti = _GraphitiSource(bolt, user, password, database, group)
            out = _import_graphiti(graphiti, agent, batch_size)
        else:
            raise typer.BadParameter("--from must be hippograph, mem0 or graphiti")
    except GraphError as exc:
        _fail(exc)
    typer.echo(json.dumps(out, ensure_ascii=False, indent=2, default=str))


@dataclass(frozen=True)
class _GraphitiSource:
    """Where a Graphiti graph is read from (``--bolt``, ``--user``, ``--password``,
    ``--database``, ``--group``)."""

    bolt: str | None
    user: str
    password: str | None
    database: str
    groups: list[str] | None


def _import_mem0(file: Path | None, agent: str, batch_size: int) -> Any:
    from server.cli import peers

    if file is None:
        raise typer.BadParameter("give the Mem0 export file")
    return asyncio.run(peers.import_mem0(file, agent, batch_size=batch_size))


def _import_graphiti(source: _GraphitiSource, agent: str, batch_size: int) -> Any:
    from server.cli import peers

    if not source.bolt:
        raise typer.BadParameter("--from graphiti needs --bolt URI")
    return asyncio.run(
        peers.import_graphiti(
            source.bolt,
            source.user,
            source.password or "",
            source.database,
            agent,
            groups=source.groups or None,
            batch_size=batch_size,
        )
    )
