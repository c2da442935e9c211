"""``hippograph serve`` and ``hippograph up`` (start Neo4j, seed demo data, serve).

``--workers N`` (N > 1) runs N uvicorn worker processes on one socket, under uvicorn's own
supervisor (a dead worker is replaced). Each process builds its own app from the environment,
so the effective settings travel as ``HIPPOGRAPH_*`` variables; ``api_processes`` tells every
process its share of the rate budgets (see server/limits.py and docs/scaling.md).
"""

from __future__ import annotations

import os
from typing import Any

import typer

from server.settings import Settings, get_settings

__all__ = ["default_workers", "register"]


def default_workers(cores: int | None = None) -> int:
    """The rule ``make run`` uses: one API process per core, at most 4 (one Neo4j and the
    embedder share the cores; past 4 the database, not Python, is the limit on one box)."""
    return max(1, min(cores if cores is not None else (os.cpu_count() or 1), 4))


def _serve(settings: Settings, workers: int = 1) -> None:
    import uvicorn

    from server.app import create_app

    if workers <= 1:
        # The app gets the effective settings (host included), so its start-up checks — auth
        # may be off only on loopback — see the address it will really bind.
        uvicorn.run(
            create_app(settings),
            host=settings.api_host,
            port=settings.api_port,
            log_level="info",
            ws_max_size=settings.max_body_bytes,  # a longer frame is never buffered
        )
        return
    processes = settings.api_processes if settings.api_processes > 1 else workers
    create_app(settings.model_copy(update={"api_processes": processes}))  # fail fast here
    os.environ.update(
        {
            "HIPPOGRAPH_API_HOST": settings.api_host,
            "HIPPOGRAPH_API_PORT": str(settings.api_port),
            "HIPPOGRAPH_AUTH_DISABLED": "true" if settings.auth_disabled else "false",
            "HIPPOGRAPH_API_PROCESSES": str(processes),
        }
    )
    uvicorn.run(
        "server.app:create_app",
        factory=True,
        host=settings.api_host,
        port=settings.api_port,
        workers=workers,
        log_level="info",
        ws_max_size=settings.max_body_bytes,
    )


def _workers_option(default_help: str) -> Any:
    return typer.Option(
        None,
        "--workers",
        min=1,
        max=64,
        help=f"API processes (uvicorn workers). Default: {default_help}",
    )


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str | None = typer.Option(
            None, help="Bind address (default from settings: 127.0.0.1)"
        ),
        port: int | None = typer.Option(None, help="Port (default 8000)"),
        workers: int | None = _workers_option("settings api_workers (1)"),
    ) -> None:
        """Serve the GraphQL API (expects Neo4j to be reachable)."""
        s = get_settings()
        _serve(
            s.model_copy(update={"api_host": host or s.api_host, "api_port": port or s.api_port}),
            workers or s.api_workers,
        )

    @app.command()
    def up(
        seed_demo: bool = typer.Option(True, "--seed/--no-seed", help="Load the demo agent first"),
        auth: bool = typer.Option(
            False,
            "--auth/--no-auth",
            help="Require API keys. Default for this demo command: off, allowed on loopback only.",
        ),
        workers: int | None = _workers_option("settings api_workers (1); make run: min(cores, 4)"),
    ) -> None:
        """Start the local Neo4j (unless NEO4J_URI is set), load demo data, then serve."""
        from server.runtime import api_url, browser_url, local_neo4j

        s = get_settings()
        if s.local_neo4j and not local_neo4j(s).start(log=typer.echo):
            typer.echo(
                "Neo4j was already running: if the Browser guide does not open after "
                "connecting, restart it (hippograph neo4j stop; make run) so it reads "
                "the current neo4j.conf."
            )
        if seed_demo:
            from server.cli.seed import run_seed

            run_seed()
        typer.echo(f"GraphiQL: {api_url(s)}/graphql")
        if s.local_neo4j:
            # Not the password itself: terminals, CI logs and screen shares keep what is printed.
            where = (
                "the NEO4J_PASSWORD you set"
                if s.neo4j_password
                else f"generated for this install, kept in {s.neo4j_password_file} (mode 0600)"
            )
            typer.echo(
                f"Neo4j Browser: {browser_url(s)}  (user {s.neo4j_user}; password: {where}; "
                "`hippograph neo4j password` prints it; the Hippograph guide opens after "
                "connecting)"
            )
        if not auth:
            typer.echo("Auth is OFF (demo, loopback only).")
        _serve(
            s.model_copy(update={"auth_disabled": s.auth_disabled or not auth}),
            workers or s.api_workers,
        )
