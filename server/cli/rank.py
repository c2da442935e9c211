"""``hippograph rank``: a tenant's ranking model, learned from its users' feedback on retrieved
facts (GraphQL ``feedback``, the MCP tool ``feedback``; graph/memory/learning).

``train`` fits the tenant's verdicts on top of the shipped model and makes the result the
tenant's newest version (refused with too few verdicts); ``show`` prints the model in force, the
verdicts and the versions; ``reset`` goes back to the shipped model (a new version, the history
kept). Agents nobody owns (auth off, the operator's own writes) use the ``local`` tenant's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import typer

from graph.errors import GraphError
from graph.executor import Executor, connected
from graph.memory.learning import MIN_LABELS, UNOWNED_TENANT, RankLearning
from server.settings import get_settings

__all__ = ["app", "register"]

T = TypeVar("T")
app = typer.Typer(help="Tenants' ranking models, learned from feedback.", no_args_is_help=True)

_TENANT = typer.Option(
    UNOWNED_TENANT,
    "--tenant",
    help=f"The tenant (default {UNOWNED_TENANT!r}: the agents nobody owns).",
)


def _run(work: Callable[[RankLearning], Awaitable[T]]) -> T:
    settings = get_settings()

    async def go() -> T:
        async with connected(
            settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
        ) as ex:
            return await work(_learning(ex))

    try:
        return asyncio.run(go())
    except GraphError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc


def _learning(ex: Executor) -> RankLearning:
    return RankLearning(ex, None)


@app.command("train")
def train_command(
    tenant: str = _TENANT,
    min_labels: int = typer.Option(
        MIN_LABELS, "--min-labels", min=2, help="Refuse with fewer verdicts than this."
    ),
) -> None:
    """Fit the tenant's ranking model from its verdicts (on top of the shipped model) and make
    it the tenant's newest version: its retrieves use it within 30 s."""
    version, fitted = _run(lambda learning: learning.train(tenant, min_labels=min_labels, by="cli"))
    typer.echo(
        f"trained: version {version} of tenant {tenant!r} from {fitted.labels} verdicts "
        f"({fitted.helpful} helpful); log loss {fitted.log_loss_before:.3f} → "
        f"{fitted.log_loss_after:.3f} on them"
    )


@app.command("reset")
def reset_command(tenant: str = _TENANT) -> None:
    """Go back to the shipped model (a new version; the verdicts and history stay)."""
    version = _run(lambda learning: learning.reset(tenant, by="cli"))
    typer.echo(f"reset: version {version} of tenant {tenant!r} is the shipped model")


@app.command("show")
def show_command(
    tenant: str = _TENANT,
    top: int = typer.Option(8, "--top", min=0, help="The strongest corrections to list."),
) -> None:
    """The model in force for the tenant, its verdicts and its versions."""
    state = _run(lambda learning: learning.show(tenant))
    model = state.model
    typer.echo(
        f"tenant {tenant!r}: {model.name} ({model.kind}), version {state.version}"
        + (" (never trained: the shipped model)" if state.version == 0 else "")
    )
    typer.echo(
        f"verdicts: {state.labels} ({state.helpful} helpful) over {state.retrieves} retrieves"
    )
    residual = model.residual
    if residual is not None and top:
        names = [model.features[i] for i in residual.columns]
        strongest = sorted(
            zip(names, residual.weights.tolist(), strict=True), key=lambda nw: -abs(nw[1])
        )
        typer.echo("strongest corrections (raw score per standard deviation of the feature):")
        for name, weight in strongest[:top]:
            typer.echo(f"  {name:<24} {weight:+.3f}")
    for row in state.history:
        typer.echo(
            f"{row['version']:>4}  {row['created_at']}  {row['kind']:<8} {row['labels']:>6} "
            f"verdicts  {row['created_by'] or ''}"
        )


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="rank")
