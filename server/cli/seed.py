"""``hippograph seed``: load the demo agent, by running the seed program (``python -m seed``).

The seed sits above the server (it builds its services through the composition root), so the
CLI starts it as its own process rather than importing it."""

from __future__ import annotations

import subprocess
import sys

import typer

__all__ = ["register", "run_seed", "seed_command"]


def seed_command(agent: str | None = None) -> list[str]:
    """``python -m seed [AGENT]`` with this interpreter."""
    return [sys.executable, "-m", "seed", *([agent] if agent else [])]


def run_seed(agent: str | None = None) -> None:
    """Run ``python -m seed [AGENT]`` with this interpreter and environment.

    Raises:
        typer.Exit: the seed failed (its exit status).
    """
    status = subprocess.call(seed_command(agent))
    if status != 0:
        raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    @app.command()
    def seed(
        agent: str = typer.Option("demo", help="Agent id to load the demo story into."),
    ) -> None:
        """Load the demo agent (offline, idempotent: a second run changes nothing)."""
        run_seed(agent)
