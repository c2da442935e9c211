"""The ``hippograph`` command line. Each command group lives in its own module of this package."""

from __future__ import annotations

import typer

from server.cli import (
    apikey,
    erase,
    jobs,
    mcp,
    memory,
    neo4j,
    ontology,
    rank,
    retrieve,
    seed,
    serve,
    transfer,
    webhook,
)

app = typer.Typer(
    name="hippograph",
    help="Hippograph: long-term memory for LLM agents on Neo4j, served over GraphQL.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(neo4j.app, name="neo4j")
for _group in (
    serve,
    memory,
    retrieve,
    jobs,
    apikey,
    seed,
    mcp,
    erase,
    transfer,
    ontology,
    rank,
    webhook,
):
    _group.register(app)


def main() -> None:
    app()
