"""The ``hippograph`` command line. Each command group lives in its own ``cli_*.py`` module."""

from __future__ import annotations

import typer

from server import cli_neo4j, cli_serve

app = typer.Typer(
    name="hippograph",
    help="Hippograph: long-term memory for LLM agents on Neo4j, served over GraphQL.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(cli_neo4j.app, name="neo4j")
cli_serve.register(app)

# Optional groups register themselves when their modules exist (added by later features).
for _name in ("cli_memory", "cli_retrieve", "cli_jobs", "cli_apikey", "cli_schema", "cli_seed",
              "cli_mcp"):
    try:
        _mod = __import__(f"server.{_name}", fromlist=["register"])
    except ModuleNotFoundError as _exc:
        if _exc.name != f"server.{_name}":
            raise
        continue
    _mod.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
