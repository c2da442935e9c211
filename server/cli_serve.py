"""``hippograph serve`` and ``hippograph up`` (start Neo4j, seed demo data, serve)."""

from __future__ import annotations

import typer

from server.settings import get_settings


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str | None = typer.Option(None, help="Bind address (default from settings: 127.0.0.1)"),
        port: int | None = typer.Option(None, help="Port (default 8000)"),
    ) -> None:
        """Serve the GraphQL API (expects Neo4j to be reachable)."""
        import uvicorn

        s = get_settings()
        uvicorn.run(
            "server.app:create_app", factory=True, host=host or s.api_host, port=port or s.api_port,
            log_level="info",
        )

    @app.command()
    def up(
        seed_demo: bool = typer.Option(True, "--seed/--no-seed", help="Load the demo agent first"),
    ) -> None:
        """Start the local Neo4j (unless NEO4J_URI is set), load demo data, then serve."""
        from server.runtime import local_neo4j

        s = get_settings()
        if s.local_neo4j:
            local_neo4j(s).start(log=typer.echo)
        if seed_demo:
            try:
                from seed.__main__ import run as run_seed
            except ImportError:
                typer.echo("(no demo seed available yet)")
            else:
                run_seed()
        serve(host=None, port=None)
