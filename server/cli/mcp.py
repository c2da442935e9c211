"""``hippograph mcp``: serve the memory tools over MCP stdio (HTTP is ``/mcp`` of ``serve``)."""

from __future__ import annotations

import typer

from server.settings import get_settings

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("mcp")
    def mcp_cmd(
        agent: str | None = typer.Option(
            None,
            "--agent",
            help="Serve only this agent (default HIPPOGRAPH_MCP_AGENT); "
            "ignored when HIPPOGRAPH_MCP_API_KEY is set",
        ),
        worker: bool = typer.Option(
            False,
            "--worker/--no-worker",
            help="Also run background jobs (document ingest, maintenance) in this process",
        ),
    ) -> None:
        """Serve the memory tools over MCP stdio, for a client that spawns this command.

        Scope: HIPPOGRAPH_MCP_API_KEY (an API key), else --agent / HIPPOGRAPH_MCP_AGENT, else
        every agent when HIPPOGRAPH_AUTH_DISABLED=true. The same tools are served over
        streamable HTTP at /mcp by `hippograph serve`.
        """
        import asyncio
        import logging
        import sys

        from server.mcp.stdio import run_stdio, stdio_scope

        s = get_settings()
        if agent:
            s = s.model_copy(update={"mcp_agent": agent})
        problem = stdio_scope(s)
        if problem:
            typer.echo(problem, err=True)
            raise typer.Exit(2)
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
        asyncio.run(run_stdio(s, worker=worker))
