"""``hippograph write`` and ``hippograph remember``: the write pipeline from the command line."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import typer

from graph.memory.facade import Memory
from server.settings import Settings, get_settings

__all__ = ["REMEMBER_FORMAT", "load_jsonl", "record_type", "register"]

_DATE_FIELDS = ("valid_from", "valid_to", "created_at", "valid_until", "occurred_at")
# Record types of a `remember` file; the key that names one (RECORD_KEY, or LEGACY_KEY in
# files written before it: there "kind" names the record, so a fact's own kind cannot be set).
RECORD_TYPES = ("entity", "fact", "relation", "event")
RECORD_KEY = "record"
LEGACY_KEY = "kind"

REMEMBER_FORMAT = """JSON Lines: one object per line. "record" names its type (entity,
fact, relation or event); the other keys are the record's fields.
Example: docs/examples/remember.jsonl.

entity    name; type (person, organization, ...; default thing),
          aliases (list), key, profile_text, importance
fact      text, subject (a name, alias or key); entities (list),
          kind (fact, preference, decision, procedural, semantic),
          confidence, importance, valid_from, valid_to, valid_until,
          temporal_class, categories (list), speaker, event_ids (list), id
relation  source, target (names, aliases or keys), type (snake_case,
          e.g. works_at); strength, confidence, valid_from
event     text, speaker; occurred_at, id, thread_id, source

Times are ISO 8601 (2025-03-01T10:00:00Z). A name no entity line
declares becomes an entity of type thing. Older files name the record
type in "kind" (no "record" key) and are read as before; in them a
fact's own kind cannot be given."""


async def write_once(
    settings: Settings,
    agent: str,
    message: str,
    speaker: str,
    *,
    thread: str | None = None,
    dry_run: bool = False,
    verbose: bool = False,
    idempotency_key: str | None = None,
    memory: Memory | None = None,
) -> dict[str, Any]:
    """What ``hippograph write`` does: one message through the process's write pipeline.
    ``memory`` shares an existing one (tests); else one is built from ``settings`` and closed."""
    from graph.schema import ensure_schema
    from server.composition import build_memory

    mem = memory or build_memory(settings)
    try:
        await ensure_schema(mem.executor, mem.embedder.dimensions)
        result = await mem.writer.write(
            agent,
            message,
            speaker,
            thread_id=thread,
            dry_run=dry_run,
            verbose=verbose,
            idempotency_key=idempotency_key,
        )
        return result.to_dict()
    finally:
        if memory is None:
            await mem.close()


def _record(cls: type, data: dict[str, Any], line_no: int) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise typer.BadParameter(f"line {line_no}: unknown field(s) {sorted(unknown)}")
    for key in _DATE_FIELDS:
        if isinstance(data.get(key), str):
            data[key] = datetime.fromisoformat(data[key].replace("Z", "+00:00"))
    try:
        return cls(**data)
    except TypeError as exc:
        raise typer.BadParameter(f"line {line_no}: {exc}") from exc


def record_type(data: dict[str, Any]) -> str | None:
    """The record type a line names, taking its key out of ``data``: ``"record"``, or, in a
    line without one, ``"kind"`` (the older form). None when neither names a record type."""
    key = RECORD_KEY if RECORD_KEY in data else LEGACY_KEY
    kind = data.pop(key, None)
    return kind if kind in RECORD_TYPES else None


def load_jsonl(path: Path) -> dict[str, list[Any]]:
    """Parse a JSONL import file (:data:`REMEMBER_FORMAT`): one object per line, its record
    type (entity | fact | relation | event) in ``"record"`` (or ``"kind"``, the older form)
    and the fields of the matching ``Structured*`` record."""
    from graph.memory.write import (
        StructuredEntity,
        StructuredEvent,
        StructuredFact,
        StructuredRelation,
    )

    kinds: dict[str, type] = {
        "entity": StructuredEntity,
        "fact": StructuredFact,
        "relation": StructuredRelation,
        "event": StructuredEvent,
    }
    out: dict[str, list[Any]] = {k: [] for k in kinds}
    with path.open(encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise typer.BadParameter(f"line {no}: invalid JSON ({exc.msg})") from exc
            kind = record_type(data) if isinstance(data, dict) else None
            if kind is None:
                raise typer.BadParameter(
                    f"line {no}: 'record' must be one of {sorted(kinds)} (see --help)"
                )
            out[kind].append(_record(kinds[kind], data, no))
    return out


def register(app: typer.Typer) -> None:
    app.command("write")(write_cmd)
    app.command("remember", epilog=REMEMBER_FORMAT)(remember_cmd)
    app.command("reembed")(reembed_cmd)


def write_cmd(
    message: str = typer.Argument(..., help="The message to remember"),
    agent: str = typer.Option(..., "--agent", help="Agent id"),
    speaker: str = typer.Option(..., "--speaker", help="Who said the message"),
    thread: str | None = typer.Option(None, "--thread", help="Thread id"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Decide, persist nothing"),
    verbose: bool = typer.Option(False, "--verbose", help="Include the per-stage trace"),
    idempotency_key: str | None = typer.Option(None, "--idempotency-key"),
) -> None:
    """Run the write pipeline on one message and print the WriteResult as JSON."""
    from graph.errors import BadInput, EmbedderMismatch

    try:
        out = asyncio.run(
            write_once(
                get_settings(),
                agent,
                message,
                speaker,
                thread=thread,
                dry_run=dry_run,
                verbose=verbose,
                idempotency_key=idempotency_key,
            )
        )
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2, default=str))
    except (BadInput, EmbedderMismatch) as exc:
        typer.echo(
            json.dumps({"success": False, "error": str(exc), "code": type(exc).__name__}),
            err=True,
        )
        raise typer.Exit(2) from exc


def remember_cmd(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="JSONL file"),
    agent: str = typer.Option("default", "--agent", help="Agent id"),
    batch_size: int = typer.Option(2_000, "--batch-size", min=1, max=10_000),
) -> None:
    """Import entities, facts, relations and events from a JSON Lines file as given (no LLM;
    the file's format is below)."""
    records = load_jsonl(file)
    out = asyncio.run(_remember(records, agent, batch_size))
    typer.echo(json.dumps(out, ensure_ascii=False, indent=2, default=str))


async def _remember(records: dict[str, list[Any]], agent: str, batch_size: int) -> dict[str, Any]:
    from graph.progress import progress_bar
    from graph.schema import ensure_schema
    from server.composition import build_memory

    memory = build_memory(get_settings())
    total = sum(len(v) for v in records.values())
    bar = progress_bar(total=total, unit="rec", desc="remember")

    def progress(done: int, all_rows: int) -> None:
        bar.total = all_rows  # names unknown to the file become entities too
        bar.update(done - bar.n)

    try:
        await ensure_schema(memory.executor, memory.embedder.dimensions)
        result = await memory.admin.remember(
            agent,
            entities=records["entity"],
            facts=records["fact"],
            relations=records["relation"],
            events=records["event"],
            progress=progress,
            batch_size=batch_size,
        )
        out = dataclasses.asdict(result)
        out.pop("fact_ids")
        out.pop("entity_keys")
        return out
    finally:
        bar.close()
        await memory.close()


def reembed_cmd(
    agents: list[str] = typer.Option(..., "--agent", help="Agent id (repeat for several)"),
    batch_size: int = typer.Option(256, "--batch-size", min=1, max=10_000),
) -> None:
    """Re-embed agents with the configured embedder (HIPPOGRAPH_EMBEDDER) and record it.

    For a switch between models of the same dimension (MiniLM <-> e5); run it while
    nothing writes to those agents. Prints what was re-embedded per agent as JSON."""
    typer.echo(json.dumps(asyncio.run(_reembed(agents, batch_size)), ensure_ascii=False, indent=2))


async def _reembed(agents: list[str], batch_size: int) -> list[dict[str, Any]]:
    from graph.schema import ensure_schema
    from server.composition import build_memory

    memory = build_memory(get_settings())
    try:
        await ensure_schema(memory.executor, memory.embedder.dimensions)
        return [await _reembed_one(memory, agent, batch_size) for agent in agents]
    finally:
        await memory.close()


async def _reembed_one(memory: Memory, agent: str, batch_size: int) -> dict[str, Any]:
    from graph.memory.reembed import reembed_agent
    from graph.progress import progress_bar

    bar = progress_bar(total=0, unit="vec", desc=f"reembed {agent}")

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        r = await reembed_agent(
            memory.executor, memory.embedder, agent, batch_size=batch_size, progress=progress
        )
    finally:
        bar.close()
    return {
        "agent_id": r.agent_id,
        "previous": r.previous,
        "embedder": r.embedder,
        "vectors": r.total,
        "by_label": r.by_label,
    }
