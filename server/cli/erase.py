"""``hippograph erase``: remove a fact, a subject or a whole agent for good (with every copy of
its text; see ``graph/memory/erase``)."""

from __future__ import annotations

import asyncio

import typer

from graph.errors import GraphError
from graph.executor import connected
from graph.memory.erase import EraseReport, EraseTarget, erase, erase_target
from graph.memory.jobs.queue import JobQueue
from server.settings import Settings, get_settings

__all__ = ["register", "run_erase"]


async def run_erase(settings: Settings, target: EraseTarget) -> EraseReport:
    """What ``hippograph erase`` does once confirmed (tests call it directly)."""
    async with connected(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    ) as ex:
        return await erase(ex, target, queue=JobQueue(ex))


def _describe(t: EraseTarget) -> str:
    if t.everything:
        return f"EVERY memory of agent {t.agent_id!r} (its id is released)"
    if t.fact_id:
        return f"fact {t.fact_id} of agent {t.agent_id!r} with its older versions and sources"
    return (
        f"entity {t.entity_key!r} of agent {t.agent_id!r}, every fact about it and every "
        "message or document naming it"
    )


def erase_command(
    agent: str = typer.Option(..., "--agent", help="The agent whose memory to erase from."),
    fact: str = typer.Option(None, "--fact", help="Erase this fact (and its older versions)."),
    entity: str = typer.Option(None, "--entity", help="Erase this subject (an entity key)."),
    everything: bool = typer.Option(False, "--all", help="Erase the whole agent."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Erase for good (a hard delete, unlike `forget`): the data, its embeddings and every
    copy of its text (messages, documents, audit text, receipts, jobs). Cannot be undone."""
    try:
        target = erase_target(agent, fact_id=fact, entity_key=entity, everything=everything)
    except GraphError as exc:
        raise typer.BadParameter(str(exc)) from exc
    if not yes and not typer.confirm(f"Erase {_describe(target)}? This cannot be undone"):
        typer.echo("nothing erased")
        raise typer.Exit(1)
    try:
        report = asyncio.run(run_erase(get_settings(), target))
    except GraphError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    counts = report.counts()
    typer.echo(
        "erased: "
        + (", ".join(f"{k}={v}" for k, v in counts.items() if k != "audit_id") or "nothing")
    )
    if report.audit_id:
        typer.echo(f"audit record: {report.audit_id}")


def register(root: typer.Typer) -> None:
    root.command("erase")(erase_command)
