"""Every CLI command answers --help."""

from __future__ import annotations

import typer
from typer.main import get_command
from typer.testing import CliRunner

from server.cli import app


def _paths(cmd, prefix=()):  # type: ignore[no-untyped-def]
    yield prefix
    for name, sub in getattr(cmd, "commands", {}).items():
        yield from _paths(sub, (*prefix, name))


def test_every_command_has_help() -> None:
    root = get_command(app)
    paths = list(_paths(root))
    assert ("neo4j", "start") in paths and ("serve",) in paths
    runner = CliRunner()
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage" in result.output
    assert isinstance(app, typer.Typer)
