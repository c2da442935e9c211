"""``hippograph serve`` and ``hippograph up`` (start Neo4j, seed demo data, serve).

``--workers N`` (N > 1) runs N uvicorn worker processes on one socket, under uvicorn's own
supervisor (a dead worker is replaced). Each process builds its own app from the environment,
so the effective settings travel as ``HIPPOGRAPH_*`` variables; ``api_processes`` tells every
process its share of the rate budgets (see server/limits.py and docs/scaling.md).

The supervisor is uvicorn's own command line, exec'd in place of this one
(:func:`uvicorn_command`): its workers are spawned processes, and a spawned process first
re-imports its parent's main module. Under ``hippograph`` that module is the whole CLI (seconds
of imports on a busy machine) and the supervisor, which pings every worker from the start and
kills one that does not answer within its health-check timeout, killed workers before they ever
started. Under ``python -m uvicorn`` the main module is uvicorn's, the workers answer at once,
and :data:`HEALTHCHECK_S` leaves room for a worker whose import or warm-up holds the
interpreter on a loaded machine.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import typer

from server.settings import Settings, get_settings
from server.start_group import StartGroup, alive

__all__ = ["HEALTHCHECK_S", "default_workers", "group_dir", "register", "uvicorn_command"]

# Seconds a worker may take to answer the supervisor's health check (uvicorn's default: 5).
HEALTHCHECK_S = 30


def default_workers(cores: int | None = None) -> int:
    """The rule ``make run`` uses: one API process per core, at most 4 (one Neo4j and the
    embedder share the cores; past 4 the database, not Python, is the limit on one box)."""
    return max(1, min(cores if cores is not None else (os.cpu_count() or 1), 4))


def _serve(settings: Settings, workers: int = 1, group: Path | None = None) -> None:
    """Serve with ``workers`` processes; ``group``: their start-up folder, made already (a
    process holds its warm-up turn: :meth:`server.start_group.StartGroup.spawn_holding_turn`)."""
    import uvicorn

    from server.app import create_app

    if workers <= 1:
        if group is not None:  # one process: it waits for the turn's holder all the same
            settings = settings.model_copy(update={"api_group_dir": group})
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
    env = {
        **os.environ,
        "HIPPOGRAPH_API_HOST": settings.api_host,
        "HIPPOGRAPH_API_PORT": str(settings.api_port),
        "HIPPOGRAPH_AUTH_DISABLED": "true" if settings.auth_disabled else "false",
        "HIPPOGRAPH_API_PROCESSES": str(processes),
        # The workers warm up in turn and report ready together (server/start_group.py).
        "HIPPOGRAPH_API_GROUP_DIR": str(group or group_dir(settings.home, os.getpid())),
    }
    command = uvicorn_command(settings, workers)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execvpe(command[0], command, env)  # the supervisor replaces this process


def group_dir(home: Path, supervisor: int) -> Path:
    """A fresh start-up folder for the workers of the supervisor ``supervisor`` (this process,
    which the supervisor replaces), under ``<home>/run``; the folders of supervisors that are
    gone are removed."""
    run = home / "run"
    run.mkdir(parents=True, exist_ok=True)
    for old in run.glob("api-*"):
        pid = old.name.removeprefix("api-")
        if not pid.isdigit() or int(pid) == supervisor or not alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    folder = run / f"api-{supervisor}"
    folder.mkdir()
    return folder


def uvicorn_command(settings: Settings, workers: int) -> list[str]:
    """``python -m uvicorn`` serving ``server.app:create_app`` with ``workers`` processes on
    the settings' address (see the module docstring for why not in this process)."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "server.app:create_app",
        "--factory",
        "--host",
        settings.api_host,
        "--port",
        str(settings.api_port),
        "--workers",
        str(workers),
        "--log-level",
        "info",
        "--ws-max-size",
        str(settings.max_body_bytes),
        "--timeout-worker-healthcheck",
        str(HEALTHCHECK_S),
    ]


def _print_addresses(settings: Settings) -> None:
    """Every address the server will answer on and what it is for
    (:func:`server.runtime.addresses`), printed before the server starts."""
    from server.runtime import address_lines

    typer.echo("Hippograph serves (ready once /readyz answers 200):")
    for line in address_lines(settings):
        typer.echo(line)


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
        s = s.model_copy(update={"api_host": host or s.api_host, "api_port": port or s.api_port})
        _print_addresses(s)
        _serve(s, workers or s.api_workers)

    @app.command()
    def up(
        seed_demo: bool = typer.Option(
            True, "--seed/--no-seed", help="Load the demo agent (while the API starts)"
        ),
        auth: bool = typer.Option(
            False,
            "--auth/--no-auth",
            help="Require API keys. Default for this demo command: off, allowed on loopback only.",
        ),
        workers: int | None = _workers_option("settings api_workers (1); make run: min(cores, 4)"),
    ) -> None:
        """Start the local Neo4j (unless NEO4J_URI is set), load demo data, then serve (the
        demo loads while the API processes start; they warm up once it is in)."""
        from server.runtime import local_neo4j

        s = get_settings()
        if s.local_neo4j and not local_neo4j(s).start(log=typer.echo):
            typer.echo(
                "Neo4j was already running: if the Browser guide does not open after "
                "connecting, restart it (hippograph neo4j stop; make run) so it reads "
                "the current neo4j.conf."
            )
        group = None
        if seed_demo:
            from server.cli.seed import seed_command

            # The demo loads beside the API's start: the workers import and load their models
            # meanwhile, and their database steps wait for it (it holds their warm-up turn).
            group = group_dir(s.home, os.getpid())
            StartGroup(group, 1).spawn_holding_turn(seed_command())
        _print_addresses(s)
        if s.local_neo4j:
            # Not the password itself: terminals, CI logs and screen shares keep what is printed.
            where = (
                "the NEO4J_PASSWORD you set"
                if s.neo4j_password
                else f"generated for this install, kept in {s.neo4j_password_file} (mode 0600)"
            )
            typer.echo(f"Neo4j Browser password: {where}; `hippograph neo4j password` prints it.")
        if not auth:
            typer.echo("Auth is OFF (demo, loopback only).")
        _serve(
            s.model_copy(update={"auth_disabled": s.auth_disabled or not auth}),
            workers or s.api_workers,
            group,
        )
