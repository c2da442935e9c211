"""``hippograph retrieve --agent A "question"``: the context an agent would get, plus a table of
every ranked fact with its score components (and the plan and trace with ``--trace``)."""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime
from typing import Any

import typer

from server.settings import get_settings


def _parse_option(raw: str) -> tuple[str, Any]:
    """``key=value`` with a JSON value when it parses (numbers, booleans, objects)."""
    if "=" not in raw:
        raise typer.BadParameter(f"--option expects key=value, got {raw!r}")
    key, value = raw.split("=", 1)
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _why(explanation: Any, count: int = 3) -> str:
    """The largest contributions to a fact's learned score ("" under the formula)."""
    if explanation is None:
        return ""
    return " ".join(f"{name} {c:+.2f}" for name, _, c in explanation.terms(count))


def _explanation(explanation: Any) -> dict[str, Any] | None:
    if explanation is None:
        return None
    return {
        "model": explanation.model,
        "version": explanation.version,
        "raw": explanation.raw,
        "bias": explanation.bias,
        "contributions": [
            {"feature": n, "value": v, "contribution": c} for n, v, c in explanation.terms()
        ],
    }


def _table(result: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{len(result.facts)} facts of {result.total_candidates} candidates "
        f"in {result.duration_ms:.0f} ms (plan: {result.plan.reason})"
    )
    for column in (
        "#",
        "final",
        "formula",
        "rerank",
        "sem",
        "kw",
        "graph",
        "rec",
        "imp",
        "conf",
        "pat",
        "via",
        "why (learned ranker: largest contributions)",
        "fact",
    ):
        table.add_column(column, overflow="fold", justify="right" if column != "fact" else "left")
    for i, fact in enumerate(result.facts, 1):
        s = fact.scores
        table.add_row(
            str(i),
            _fmt(s.final),
            _fmt(s.formula),
            _fmt(s.reranker),
            _fmt(s.semantic),
            _fmt(s.keyword),
            _fmt(s.graph),
            _fmt(s.recency),
            _fmt(s.importance),
            _fmt(s.confidence),
            _fmt(s.pattern),
            ",".join(sorted(fact.sources)),
            _why(fact.explanation),
            fact.text,
        )
    # Piped output (files, tests) gets a wide table instead of rich's 80-column default.
    Console(width=None if sys.stdout.isatty() else 160).print(table)


def register(app: typer.Typer) -> None:
    app.command()(retrieve)


def retrieve(
    query: str = typer.Argument(..., help="The question"),
    agent: str = typer.Option(..., "--agent", "-a", help="Agent id whose memory to search"),
    as_of: str = typer.Option(None, "--as-of", help="Time travel: ISO-8601 instant"),
    top: int = typer.Option(None, "--top", help="topk_facts for this call"),
    rerank: bool = typer.Option(
        True, "--rerank/--no-rerank", help="LLM rerank when an LLM endpoint is configured"
    ),
    option: list[str] = typer.Option(
        None,
        "--option",
        "-o",
        help="Any retrieve option by its flat name: key=value (repeatable)",
    ),
    show_trace: bool = typer.Option(False, "--trace", help="Also print the plan and trace"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Print the context for QUERY and a table of the ranked facts with every score."""
    from graph.errors import GraphError

    options: dict[str, Any] = dict(_parse_option(o) for o in option or [])
    if top is not None:
        options["topk_facts"] = top
    if not rerank:
        options["enable_reranker"] = False
    try:
        result = asyncio.run(_retrieve(agent, query, _instant(as_of), options))
    except GraphError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from exc
    if as_json:
        typer.echo(_as_json(result))
        return
    typer.echo(result.context or "(no relevant memory)")
    typer.echo("")
    _table(result)
    if show_trace:
        typer.echo(
            json.dumps(
                {"plan": result.plan.to_dict(), "trace": result.trace},
                default=str,
                ensure_ascii=False,
                indent=2,
            )
        )


def _instant(as_of: str | None) -> datetime | None:
    """``--as-of`` as a datetime (None: now)."""
    if not as_of:
        return None
    try:
        return datetime.fromisoformat(as_of)
    except ValueError as exc:
        raise typer.BadParameter(f"--as-of is not ISO-8601: {as_of!r}") from exc


async def _retrieve(agent: str, query: str, when: datetime | None, options: dict[str, Any]) -> Any:
    from server.composition import build_memory

    memory = build_memory(get_settings())
    try:
        return await memory.retriever.retrieve(agent, query, as_of=when, options=options)
    finally:
        await memory.close()


def _as_json(result: Any) -> str:
    """The ``--json`` output: context, facts with their scores, events, plan and trace."""
    return json.dumps(
        {
            "context": result.context,
            "facts": [
                {
                    "id": f.id,
                    "text": f.text,
                    "sources": sorted(f.sources),
                    "scores": f.scores.as_dict(),
                    "explanation": _explanation(f.explanation),
                }
                for f in result.facts
            ],
            "events": [
                {"id": e.id, "text": e.text, "score": e.score, "superseded": e.superseded}
                for e in result.events
            ],
            "plan": result.plan.to_dict(),
            "total_candidates": result.total_candidates,
            "duration_ms": result.duration_ms,
            "retrieve_id": result.retrieve_id,
            "trace": result.trace,
        },
        default=str,
        ensure_ascii=False,
        indent=2,
    )
