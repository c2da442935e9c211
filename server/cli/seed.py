"""``hippograph seed``: load the demo agent (same as ``python -m seed``)."""

from __future__ import annotations

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command()
    def seed(
        agent: str = typer.Option("demo", help="Agent id to load the demo story into."),
    ) -> None:
        """Load the demo agent (offline, idempotent: a second run changes nothing)."""
        from seed.__main__ import run

        run(agent)
