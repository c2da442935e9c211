"""``hippograph serve`` and ``hippograph up`` (start Neo4j, seed demo data, serve)."""

from __future__ import annotations

import typer

from server.settings import Settings, get_settings


def _serve(settings: Settings) -> None:
    import uvicorn

    from server.app import create_app

    # The app gets the effective settings (host included), so its start-up checks — auth may be
    # off only on loopback — see the address it will really bind.
    uvicorn.run(create_app(settings), host=settings.api_host, port=settings.api_port,
                log_level="info")


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str | None = typer.Option(None, help="Bind address (default from settings: 127.0.0.1)"),
        port: int | None = typer.Option(None, help="Port (default 8000)"),
    ) -> None:
        """Serve the GraphQL API (expects Neo4j to be reachable)."""
        s = get_settings()
        _serve(s.model_copy(update={"api_host": host or s.api_host, "api_port": port or s.api_port}))

    @app.command()
    def up(
        seed_demo: bool = typer.Option(True, "--seed/--no-seed", help="Load the demo agent first"),
        auth: bool = typer.Option(
            False, "--auth/--no-auth",
            help="Require API keys. Default for this demo command: off, allowed on loopback only.",
        ),
    ) -> None:
        """Start the local Neo4j (unless NEO4J_URI is set), load demo data, then serve."""
        from server.runtime import api_url, browser_url, local_neo4j

        s = get_settings()
        if s.local_neo4j and not local_neo4j(s).start(log=typer.echo):
            typer.echo("Neo4j was already running: if the Browser guide does not open after "
                       "connecting, restart it (hippograph neo4j stop; make run) so it reads "
                       "the current neo4j.conf.")
        if seed_demo:
            from seed.__main__ import run as run_seed

            run_seed()
        typer.echo(f"GraphiQL: {api_url(s)}/graphql")
        if s.local_neo4j:
            typer.echo(f"Neo4j Browser: {browser_url(s)}  (user {s.neo4j_user}, password "
                       f"{s.neo4j_password.get_secret_value()}; the Hippograph guide opens "
                       f"after connecting)")
        if not auth:
            typer.echo("Auth is OFF (demo, loopback only).")
        _serve(s.model_copy(update={"auth_disabled": s.auth_disabled or not auth}))
