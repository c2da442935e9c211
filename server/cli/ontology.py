"""``hippograph ontology``: an operator's entity and relation types for a tenant or an agent
(``graph/memory/ontology``; docs/ontology.md).

``apply FILE`` checks the document, says what it changes and which stored items it would not
fit (they stay stored and readable), then makes it the newest version; ``check FILE`` does the
same without applying; ``show`` prints the one in force; ``reset`` goes back to the inherited
one (the tenant's, else the built-in).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import typer

from graph.errors import GraphError
from graph.executor import Executor, connected
from graph.memory.ontology import Ontology, parse_ontology_text
from graph.memory.ontology.service import (
    CheckReport,
    check_ontology,
    define_ontology,
    scope_ontology,
)
from graph.memory.ontology.store import versions
from server.settings import get_settings

__all__ = ["app", "register"]

T = TypeVar("T")
app = typer.Typer(help="Operator-defined entity and relation types.", no_args_is_help=True)

_AGENT = typer.Option(None, "--agent", help="The agent the ontology is for.")
_TENANT = typer.Option(None, "--tenant", help="The tenant (every agent of it) the ontology is for.")
_FILE = typer.Argument(..., help="The ontology document (YAML or JSON).")


def _scope(agent: str | None, tenant: str | None) -> tuple[str, str]:
    if bool(agent) == bool(tenant):
        raise typer.BadParameter("give exactly one of --agent or --tenant")
    return ("agent", agent) if agent else ("tenant", tenant or "")


def _read(path: Path) -> Ontology:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise typer.BadParameter(f"cannot read {path}: {exc}") from exc
    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    try:
        return parse_ontology_text(text, fmt=fmt)
    except GraphError as exc:
        for problem in getattr(exc, "problems", [str(exc)]):
            typer.echo(f"  {problem}", err=True)
        raise typer.BadParameter(f"{path} is not a valid ontology") from exc


def _run(work: Callable[[Executor], Awaitable[T]]) -> T:
    settings = get_settings()

    async def go() -> T:
        async with connected(
            settings.bolt_uri,
            settings.neo4j_user,
            settings.neo4j_secret(),
            settings.neo4j_database,
        ) as ex:
            return await work(ex)

    try:
        return asyncio.run(go())
    except GraphError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc


def _print_report(report: CheckReport) -> None:
    current = report.current
    typer.echo(f"in force: {current.name} (version {current.version}, {current.scope})")
    typer.echo("changes:" if report.changes else "changes: none")
    for line in report.changes:
        typer.echo(f"  {line}")
    if not report.findings:
        typer.echo(f"stored items that would not fit: none ({report.agents} agent(s) counted)")
        return
    typer.echo(f"stored items that would not fit ({report.agents} agent(s); they stay stored):")
    for f in report.findings:
        examples = f" e.g. {', '.join(f.examples)}" if f.examples else ""
        typer.echo(f"  {f.kind} {f.type}: {f.count} — {f.detail}{examples}")


@app.command("check")
def check_command(
    file: Path = _FILE,
    agent: str = _AGENT,
    tenant: str = _TENANT,
) -> None:
    """What applying FILE would change, and the stored items it would not fit. Changes nothing."""
    scope, scope_id, new = (*_scope(agent, tenant), _read(file))
    _print_report(_run(lambda ex: check_ontology(ex, scope, scope_id, new)))


@app.command("apply")
def apply_command(
    file: Path = _FILE,
    agent: str = _AGENT,
    tenant: str = _TENANT,
) -> None:
    """Make FILE the ontology of an agent or a tenant (a new version; stored facts unchanged,
    the scope's entities relabelled by type)."""
    scope, scope_id, new = (*_scope(agent, tenant), _read(file))
    applied, report = _run(lambda ex: define_ontology(ex, scope, scope_id, new, by="cli"))
    _print_report(report)
    verb = "applied" if applied.changed else "unchanged"
    typer.echo(f"{verb}: {new.name} is version {applied.version} of {scope} {scope_id!r}")


@app.command("reset")
def reset_command(agent: str = _AGENT, tenant: str = _TENANT) -> None:
    """Go back to the inherited ontology (an agent's tenant's, else the built-in one)."""
    scope, scope_id = _scope(agent, tenant)
    applied, report = _run(lambda ex: define_ontology(ex, scope, scope_id, None, by="cli"))
    _print_report(report)
    typer.echo(f"{'reset' if applied.changed else 'unchanged'}: version {applied.version}")


@app.command("show")
def show_command(
    agent: str = _AGENT,
    tenant: str = _TENANT,
    history: bool = typer.Option(False, "--history", help="List every version instead."),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of YAML."),
) -> None:
    """Print the ontology in force (as a document `apply` reads back), or its versions."""
    scope, scope_id = _scope(agent, tenant)
    if history:
        for row in _run(lambda ex: versions(ex, scope, scope_id)):
            name = row["name"] or "(inherited)"
            typer.echo(
                f"{row['version']:>4}  {row['created_at']}  {name}  {row['created_by'] or ''}"
            )
        return
    ontology = _run(lambda ex: scope_ontology(ex, scope, scope_id))
    typer.echo(f"# {ontology.name}: version {ontology.version} ({ontology.scope})")
    document: dict[str, Any] = ontology.document()
    if as_json:
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        import yaml

        typer.echo(yaml.safe_dump(document, sort_keys=False, allow_unicode=True).rstrip())


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="ontology")
