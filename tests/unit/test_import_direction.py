"""Imports go one way: ``seed → server → gql → graph/memory (pipelines) → graph → cypher``.

A layer may import the layers below it, never one above: the pipelines never see the server or
the API, and ``cypher`` (the statement loader) depends on nothing of ours. Inside
``graph/memory`` the rooms (its sub-packages and top modules) are layered the same way
(:data:`MEMORY_LAYERS`): a room imports only rooms of a lower layer, never one of its own layer
or above.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MEMORY = ROOT / "graph" / "memory"

# Top-level packages a package's modules must not import.
FORBIDDEN: dict[str, frozenset[str]] = {
    "cypher": frozenset({"graph", "gql", "server", "seed"}),
    "graph": frozenset({"gql", "server", "seed"}),
    "gql": frozenset({"server", "seed"}),
    "server": frozenset({"seed"}),
}

# The rooms of ``graph/memory``, top layer first. A room is a sub-package or a top module.
MEMORY_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"warm_start"}),
    frozenset({"facade"}),
    frozenset({"services"}),
    frozenset({"maintenance"}),
    frozenset({"documents", "erase"}),
    frozenset({"jobs", "browse", "transfer", "read", "reembed", "curation", "change_feed"}),
    frozenset({"remember"}),
    frozenset({"write"}),
    frozenset({"ontology"}),
    frozenset({"spaces", "text", "prompts", "changes"}),
)


def imported_modules(source: str) -> set[str]:
    """The dotted module names ``source`` imports (absolute imports only)."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return modules


def imported_roots(source: str) -> set[str]:
    """The top-level package names ``source`` imports (absolute imports only)."""
    return {name.split(".")[0] for name in imported_modules(source)}


def violations(package: str) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_roots(path.read_text(encoding="utf-8")) & FORBIDDEN[package]
        if bad:
            out.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    return out


def memory_room(module: str) -> str | None:
    """The ``graph/memory`` room a dotted module name belongs to (None: outside it)."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["graph", "memory"] and len(parts) > 2 else None


def memory_layer(room: str) -> int:
    for depth, rooms in enumerate(MEMORY_LAYERS):
        if room in rooms:
            return depth
    raise AssertionError(f"graph/memory/{room} is in no layer of MEMORY_LAYERS")


def memory_violations(modules_of: dict[str, set[str]]) -> list[str]:
    """``room: module → imported room`` for each import of a room of the same layer or above.

    Args:
        modules_of: a room → the dotted modules its files import.
    """
    out = []
    for room, modules in sorted(modules_of.items()):
        for module in sorted(modules):
            target = memory_room(module)
            if target is None or target == room:
                continue
            if memory_layer(target) <= memory_layer(room):
                out.append(f"graph/memory/{room} imports {module}")
    return out


def memory_imports() -> dict[str, set[str]]:
    modules_of: dict[str, set[str]] = {}
    for path in sorted(MEMORY.rglob("*.py")):
        parts = path.relative_to(MEMORY).parts
        if parts == ("__init__.py",):
            continue
        room = parts[0].removesuffix(".py")
        modules_of.setdefault(room, set()).update(
            imported_modules(path.read_text(encoding="utf-8"))
        )
    return modules_of


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downwards(package: str) -> None:
    assert list((ROOT / package).rglob("*.py"))  # the package was read
    assert violations(package) == []


def test_the_rooms_of_graph_memory_import_only_downwards() -> None:
    modules_of = memory_imports()
    assert {"jobs", "maintenance", "documents", "write", "read"} <= set(modules_of)
    assert memory_violations(modules_of) == []


def test_an_upward_import_inside_graph_memory_is_seen() -> None:
    assert memory_violations(
        {
            "jobs": {"graph.memory.maintenance.retention", "graph.memory.write.models"},
            "documents": {"graph.memory.erase.run"},
            "read": {"graph.memory.text", "graph.executor"},
        }
    ) == [
        "graph/memory/documents imports graph.memory.erase.run",
        "graph/memory/jobs imports graph.memory.maintenance.retention",
    ]


def test_an_upward_import_is_seen() -> None:
    assert imported_roots("from server.settings import Settings\nimport gql.schema\n") == {
        "server",
        "gql",
    }
    assert imported_roots("from .sibling import x\n") == set()
