"""Cypher that only tests and benchmarks run (fixtures, reference answers, clean-up).

Kept out of the ``cypher`` package so it never ships in the wheel; same file format (the
``//`` header), run with ``executor.run_text(load_query("name"), params)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import LiteralString, cast

__all__ = ["ROOT", "load_query"]

ROOT = Path(__file__).parent


def load_query(name: str) -> LiteralString:
    """The text of ``tests/cypher/<name>.cypher`` (a file of this repository, not user input)."""
    path = ROOT / f"{name}.cypher"
    if not path.is_file() or "/" in name:
        raise LookupError(f"no test cypher file {name!r}")
    return cast(LiteralString, path.read_text(encoding="utf-8").strip())
