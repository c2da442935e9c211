"""Imports go one way: ``seed → server → gql → graph/memory (pipelines) → graph → cypher``.

A layer may import the layers below it, never one above: the pipelines never see the server or
the API, and ``cypher`` (the statement loader) depends on nothing of ours. Inside
``graph/memory`` the rooms (its sub-packages and top modules) are layered the same way
(:data:`MEMORY_LAYERS`), and so are the rooms of the write pipeline (:data:`WRITE_LAYERS`: a
stage imports only earlier stages and what they share): a room imports only rooms of a lower
layer, never one of its own layer or above. No modules of ``graph/memory`` import each other
in a loop.
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
    frozenset({"maintenance", "webhooks", "learning"}),
    frozenset({"documents", "erase"}),
    frozenset({"jobs", "browse", "transfer", "read", "reembed", "curation"}),
    frozenset({"remember"}),
    frozenset({"write"}),
    frozenset({"ontology"}),
    frozenset({"spaces", "text", "prompts", "changes"}),
)

# The rooms of ``graph/memory/write``, top layer first: the call, the order of the stages, the
# stages from the last to the first (a stage may use an earlier one's results and helpers,
# never a later one), then what the stages share.
WRITE_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"pipeline"}),
    frozenset({"sequence"}),
    frozenset({"commit"}),
    frozenset({"reconcile"}),
    frozenset({"resolve"}),
    frozenset({"extract"}),
    frozenset({"guard", "shared_tx", "failed"}),
    frozenset({"llm", "overfetch", "trace"}),
    frozenset({"models", "config"}),
)

# Each layered place: its dotted name and its layers.
PLACES: dict[str, tuple[frozenset[str], ...]] = {
    "graph.memory": MEMORY_LAYERS,
    "graph.memory.write": WRITE_LAYERS,
}


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


def room_of(place: str, module: str) -> str | None:
    """The room of ``place`` a dotted module name belongs to (None: outside it, or ``place``
    itself, a package's face)."""
    prefix = place.split(".")
    parts = module.split(".")
    if parts[: len(prefix)] != prefix or len(parts) == len(prefix):
        return None
    return parts[len(prefix)]


def layer_of(place: str, room: str) -> int:
    for depth, rooms in enumerate(PLACES[place]):
        if room in rooms:
            return depth
    raise AssertionError(f"{place.replace('.', '/')}/{room} is in no layer of its place")


def layer_violations(place: str, modules_of: dict[str, set[str]]) -> list[str]:
    """``room imports module`` for each import of a room of the same layer or above.

    Args:
        place: a key of :data:`PLACES`.
        modules_of: a room of ``place`` → the dotted modules its files import.
    """
    out = []
    folder = place.replace(".", "/")
    for room, modules in sorted(modules_of.items()):
        for module in sorted(modules):
            target = room_of(place, module)
            if target is None or target == room:
                continue
            if layer_of(place, target) <= layer_of(place, room):
                out.append(f"{folder}/{room} imports {module}")
    return out


def memory_violations(modules_of: dict[str, set[str]]) -> list[str]:
    """:func:`layer_violations` of the rooms of ``graph/memory``."""
    return layer_violations("graph.memory", modules_of)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def place_imports(place: str) -> dict[str, set[str]]:
    """A room of ``place`` → the dotted modules its files import (its face, the package's
    ``__init__.py``, belongs to no room)."""
    folder = ROOT / place.replace(".", "/")
    modules_of: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).parts
        if parts == ("__init__.py",):
            continue
        room = parts[0].removesuffix(".py")
        modules_of.setdefault(room, set()).update(
            imported_modules(path.read_text(encoding="utf-8"))
        )
    return modules_of


def memory_imports() -> dict[str, set[str]]:
    return place_imports("graph.memory")


def module_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Module → the modules of ``sources`` it imports (``from package import module`` names the
    module; any other name, the package)."""
    graph: dict[str, set[str]] = {}
    for name, source in sources.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name in sources)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    target = full if full in sources else node.module
                    if target in sources:
                        targets.add(target)
        graph[name] = targets - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import each other in a loop, one sorted list per loop (strongly
    connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            loop = stack[stack.index(v) :]
            del stack[stack.index(v) :]
            if len(loop) > 1:
                out.append(sorted(loop))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downwards(package: str) -> None:
    assert list((ROOT / package).rglob("*.py"))  # the package was read
    assert violations(package) == []


def test_the_rooms_of_graph_memory_import_only_downwards() -> None:
    modules_of = memory_imports()
    assert {"jobs", "maintenance", "documents", "write", "read", "remember"} <= set(modules_of)
    assert memory_violations(modules_of) == []


def test_the_write_stages_import_only_earlier_stages() -> None:
    modules_of = place_imports("graph.memory.write")
    assert {"pipeline", "guard", "extract", "resolve", "reconcile", "commit"} <= set(modules_of)
    assert layer_violations("graph.memory.write", modules_of) == []


def test_no_modules_of_graph_memory_import_each_other_in_a_loop() -> None:
    sources = {
        module_name(path): path.read_text(encoding="utf-8") for path in sorted(MEMORY.rglob("*.py"))
    }
    assert len(sources) > 100
    assert circles(module_graph(sources)) == []


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


def test_a_later_stage_imported_by_an_earlier_one_is_seen() -> None:
    assert layer_violations(
        "graph.memory.write",
        {
            "extract": {"graph.memory.write.resolve.stage", "graph.memory.write.config"},
            "reconcile": {"graph.memory.write.resolve.candidates", "graph.memory.write"},
            "guard": {"graph.memory.write.failed"},
        },
    ) == [
        "graph/memory/write/extract imports graph.memory.write.resolve.stage",
        "graph/memory/write/guard imports graph.memory.write.failed",
    ]


def test_a_loop_of_imports_is_seen() -> None:
    graph = module_graph(
        {
            "graph.memory.a": "from graph.memory.b import x\n",
            "graph.memory.b": "import graph.memory.c\n",
            "graph.memory.c": "from graph.memory import a\n",
            "graph.memory.d": "from graph.memory.a import y\n",
            "graph.memory": "",
        }
    )
    assert circles(graph) == [["graph.memory.a", "graph.memory.b", "graph.memory.c"]]


def test_an_upward_import_is_seen() -> None:
    assert imported_roots("from server.settings import Settings\nimport gql.schema\n") == {
        "server",
        "gql",
    }
    assert imported_roots("from .sibling import x\n") == set()
