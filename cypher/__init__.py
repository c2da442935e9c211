"""Every Cypher statement of Hippograph, as ``.cypher`` files, and the one loader that reads them.

A statement is addressed by its path below this package without the suffix, e.g.
``load("read/semantic_facts")``. Files start with a short header of ``//`` comments (purpose,
params, returns); the loader keeps them, Neo4j ignores them. This is the only place in the code
base where text becomes a query: user text always travels as parameters.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import LiteralString, cast

__all__ = ["CypherNotFound", "load", "load_script", "names", "validate_identifier"]

_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


class CypherNotFound(LookupError):
    """Raised when a statement name does not match a file in ``cypher/``."""


@cache
def load(name: str) -> LiteralString:
    """Return the text of ``cypher/<name>.cypher``.

    Args:
        name: slash-separated path without suffix, lowercase (``"write/upsert_facts"``).

    Raises:
        CypherNotFound: the name is malformed or no such file exists.
    """
    if not _NAME.match(name):
        raise CypherNotFound(f"malformed cypher name: {name!r}")
    node = resources.files(__package__)
    for part in name.split("/")[:-1]:
        node = node / part
    leaf = node / f"{name.rsplit('/', 1)[-1]}.cypher"
    if not leaf.is_file():
        raise CypherNotFound(f"no cypher file for {name!r}")
    text = leaf.read_text(encoding="utf-8").strip()
    # Files are part of the package (not user input): that is what makes them literal queries.
    return cast(LiteralString, text)


def load_script(name: str) -> list[LiteralString]:
    """Split a multi-statement file (schema migrations) on ``;`` at line ends."""
    body = "\n".join(line for line in load(name).splitlines() if not line.lstrip().startswith("//"))
    parts = [p.strip() for p in re.split(r";\s*(?:\n|$)", body)]
    return [cast(LiteralString, p) for p in parts if p]


def names(folder: str) -> list[str]:
    """Names of every statement in a folder (sorted), e.g. ``names("browser")``."""
    node = resources.files(__package__) / folder
    return sorted(
        f"{folder}/{entry.name[: -len('.cypher')]}"
        for entry in node.iterdir()
        if entry.name.endswith(".cypher")
    )


def validate_identifier(value: str) -> str:
    """Check a label / relationship type / index name before it is used where Cypher can't
    take a parameter. Raises ValueError on anything but ``[A-Za-z][A-Za-z0-9_]{0,63}``."""
    if not _IDENTIFIER.match(value):
        raise ValueError(f"not a safe identifier: {value!r}")
    return value
