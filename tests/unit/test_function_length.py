"""A function reads in one sitting: at most 80 lines from its ``def`` to its last line.

A longer one is split along the steps it already has. The packages held to it are listed in
:data:`PACKAGES`; a package joins by being added there. :data:`ALLOWED` names the functions
still waiting to be split (the test prints them on every run); a function leaves the list when
it is split.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 80
PACKAGES = ("graph", "gql", "server")
# ``path:function`` of the functions still over the bound, printed on every run; an entry
# whose function is no longer over it fails the test (the list only shrinks).
ALLOWED: frozenset[str] = frozenset()
# Generated code (gql/clients/python/generate.py) is held to the schema, not to this rule.
GENERATED = (
    "gql/clients/python/hippograph_client/aio",
    "gql/clients/python/hippograph_client/sync",
)


def long_functions(source: str, max_lines: int = MAX_LINES) -> list[tuple[str, int, int]]:
    """``(name, first line, length)`` of every function (nested ones too) over ``max_lines``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > max_lines:
                out.append((node.name, node.lineno, length))
    return sorted(out, key=lambda f: f[1])


@pytest.mark.parametrize("package", PACKAGES)
def test_functions_are_at_most_80_lines(package: str) -> None:
    files = [
        path
        for path in sorted((ROOT / package).rglob("*.py"))
        if not str(path.relative_to(ROOT)).startswith(GENERATED)
    ]
    assert files  # the package was read
    found = [
        (f"{path.relative_to(ROOT)}:{name}", line, length)
        for path in files
        for name, line, length in long_functions(path.read_text(encoding="utf-8"))
    ]
    waiting = sorted(a for a in ALLOWED if a.startswith(f"{package}/"))
    if waiting:
        print(f"\n{package}: functions over {MAX_LINES} lines still allowed: {waiting}")
    too_long = [
        f"{name} (line {line}, {length} lines)"
        for name, line, length in found
        if name not in ALLOWED
    ]
    assert too_long == []
    assert [a for a in waiting if a not in {name for name, _, _ in found}] == []  # stale


def test_a_long_function_is_seen() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    source = f"def short():\n    return 1\n\n\nasync def long():\n{body}\n"
    assert long_functions(source) == [("long", 5, 81)]
