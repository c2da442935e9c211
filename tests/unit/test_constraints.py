"""The lock file: constraints.txt pins every installed package exactly (graphql-core and
strawberry above all: the document limits rely on their behaviour), bootstrap installs with it
and reinstalls when it changes."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    found = {}
    for line in lines:
        if line and not line.startswith("#"):
            name, _, pinned = line.partition("==")
            assert pinned, f"not an exact pin: {line!r}"
            found[name.lower().replace("_", "-")] = pinned
    return found


def test_the_security_relevant_libraries_are_pinned_to_what_is_installed() -> None:
    locked = pins()
    for name in ("graphql-core", "strawberry-graphql", "starlette", "uvicorn", "mcp"):
        assert locked[name] == version(name), name


def test_graphql_core_still_has_the_validation_budget() -> None:
    from graphql.validation.rules import overlapping_fields_can_be_merged as rule

    assert rule.MAX_COMPLEXITY_BUDGET > 0  # the bound on field comparisons the limits rely on


def test_bootstrap_installs_with_the_constraints_and_stamps_them() -> None:
    script = (ROOT / "scripts" / "bootstrap.sh").read_text()
    installs = re.findall(r"pip install [^\n]*-e \"[^\"]+\"", script)
    assert installs and all("-c constraints.txt" in line for line in installs)
    assert re.search(r"stamp=.*cat pyproject\.toml constraints\.txt[^|]*\| sha256sum", script)
