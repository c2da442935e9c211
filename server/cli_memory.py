"""``hippograph write`` and ``hippograph remember``: the write pipeline from the command line."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import typer

from server.settings import Settings, get_settings

__all__ = ["load_jsonl", "register", "write_config"]

_DATE_FIELDS = ("valid_from", "valid_to", "created_at", "valid_until", "occurred_at")


def write_config(settings: Settings) -> Any:
    """Deployment settings → ``WriteConfig`` (the pipeline itself never reads settings)."""
    from graph.memory.write import WriteConfig

    return WriteConfig(mode=settings.write_mode, mutations_frozen=settings.mutations_frozen,
                       pii_mode=settings.pii_mode, max_message_chars=settings.max_message_chars)


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


def load_jsonl(path: Path) -> dict[str, list[Any]]:
    """Parse a JSONL import file: one object per line with ``"kind"``: entity | fact |
    relation | event and the fields of the matching ``Structured*`` record."""
    from graph.memory.write import (
        StructuredEntity,
        StructuredEvent,
        StructuredFact,
        StructuredRelation,
    )

    kinds: dict[str, type] = {"entity": StructuredEntity, "fact": StructuredFact,
                              "relation": StructuredRelation, "event": StructuredEvent}
    out: dict[str, list[Any]] = {k: [] for k in kinds}
    with path.open(encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise typer.BadParameter(f"line {no}: invalid JSON ({exc.msg})") from exc
            kind = data.pop("kind", None) if isinstance(data, dict) else None
            if kind not in kinds:
                raise typer.BadParameter(f"line {no}: 'kind' must be one of {sorted(kinds)}")
            out[kind].append(_record(kinds[kind], data, no))
    return out


def register(app: typer.Typer) -> None:
    @app.command("write")
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
        from graph.errors import BadInput
        from graph.memory.write import WritePipeline
        from graph.schema import ensure_schema
        from server.services import build_services

        async def main() -> dict[str, Any]:
            settings = get_settings()
            services = build_services(settings)
            try:
                await ensure_schema(services.executor, services.embedder.dimensions)
                pipe = getattr(services, "writer", None) or WritePipeline(
                    services.executor, services.embedder, services.llm, write_config(settings))
                result = await pipe.write(agent, message, speaker, thread_id=thread,
                                          dry_run=dry_run, verbose=verbose,
                                          idempotency_key=idempotency_key)
                return result.to_dict()
            finally:
                await services.close()

        try:
            typer.echo(json.dumps(asyncio.run(main()), ensure_ascii=False, indent=2,
                                  default=str))
        except BadInput as exc:
            typer.echo(json.dumps({"success": False, "error": str(exc),
                                   "code": type(exc).__name__}), err=True)
            raise typer.Exit(2) from exc

    @app.command("remember")
    def remember_cmd(
        file: Path = typer.Argument(..., exists=True, dir_okay=False, help="JSONL file"),
        agent: str = typer.Option("default", "--agent", help="Agent id"),
        batch_size: int = typer.Option(500, "--batch-size", min=1, max=10_000),
    ) -> None:
        """Import entities/facts/relations/events from a JSONL file (no LLM)."""
        from graph.memory.write import remember
        from graph.progress import progress_bar
        from graph.schema import ensure_schema
        from server.services import build_services

        records = load_jsonl(file)

        async def main() -> dict[str, Any]:
            settings = get_settings()
            services = build_services(settings)
            total = sum(len(v) for v in records.values())
            bar = progress_bar(total=total, unit="rec", desc="remember")

            def progress(done: int, all_rows: int) -> None:
                bar.total = all_rows  # names unknown to the file become entities too
                bar.update(done - bar.n)

            try:
                await ensure_schema(services.executor, services.embedder.dimensions)
                result = await remember(
                    services.executor, services.embedder, agent, entities=records["entity"],
                    facts=records["fact"], relations=records["relation"],
                    events=records["event"], progress=progress, batch_size=batch_size)
                out = dataclasses.asdict(result)
                out.pop("fact_ids")
                out.pop("entity_keys")
                return out
            finally:
                bar.close()
                await services.close()

        typer.echo(json.dumps(asyncio.run(main()), ensure_ascii=False, indent=2, default=str))
