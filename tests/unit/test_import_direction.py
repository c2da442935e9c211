"""Imports go one way: ``server → gql → graph/memory (pipelines) → graph → cypher``.

A layer may import the layers below it, never one above: the pipelines never see the server or
the API, and ``cypher`` (the statement loader) depends on nothing of ours.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Top-level packages a package's modules must not import.
FORBIDDEN: dict[str, frozenset[str]] = {
    "cypher": frozenset({"graph", "gql", "server", "seed"}),
    "graph": frozenset({"gql", "server", "seed"}),
    "gql": frozenset({"server", "seed"}),
}


def imported_roots(source: str) -> set[str]:
    """The top-level package names ``source`` imports (absolute imports only)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def violations(package: str) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_roots(path.read_text(encoding="utf-8")) & FORBIDDEN[package]
        if bad:
            out.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downwards(package: str) -> None:
    assert list((ROOT / package).rglob("*.py"))  # the package was read
    assert violations(package) == []


def test_an_upward_import_is_seen() -> None:
    assert imported_roots("from server.settings import Settings\nimport gql.schema\n") == {
        "server",
        "gql",
    }
    assert imported_roots("from .sibling import x\n") == set()
