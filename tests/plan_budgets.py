"""Committed work budgets of the hot Cypher statements, and the check against them.

Timing on a shared 2-core machine is noise; the work a plan does is not. ``PROFILE`` reports,
per operator, the database hits and the rows it produced: for fixed data and fixed queries they
depend only on the plan Neo4j chose. The guard (``tests/integration/read/test_plan_budgets.py``)
profiles every statement that ``retrieve`` and an offline ``write`` run on a fixed synthetic
memory and compares each statement's totals with its budget in ``tests/plan_budgets.toml``:
over budget by more than ``TOLERANCE`` fails, and so does a hot statement without a budget or a
budget no statement used (the file stays the list of what is guarded).

Pure functions only; the profiling is in the test.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BUDGETS_FILE = Path(__file__).with_name("plan_budgets.toml")
TOLERANCE = 0.20
# Below this many db hits a statement's budget is not worth a line: a plan change that stays
# under it cannot matter for latency (a few index lookups).
FLOOR_DB_HITS = 200


@dataclass(frozen=True)
class Work:
    """What one statement did, summed over the scenario's calls."""

    db_hits: int = 0
    rows: int = 0
    calls: int = 0

    def __add__(self, other: Work) -> Work:
        return Work(self.db_hits + other.db_hits, self.rows + other.rows, self.calls + other.calls)


# The vector search forms a server can have (graph/vector_search.py): the 5.26 procedure's
# global top-k, or the in-index filtered SEARCH of Neo4j 2026.01+. Some statements exist in
# one form only (read/semantic_facts_index or read/semantic_facts_search); the rest are the same.
FORMS = ("procedure", "filtered")


@dataclass(frozen=True)
class Budget:
    scenario: str
    statement: str
    db_hits: int
    rows: int
    reason: str
    form: str = ""  # "": on every form; else only on servers of that form (FORMS)


Key = tuple[str, str]  # (scenario, statement)


def plan_work(plan: Any) -> Work:
    """Database hits and rows of a profiled plan, summed over its operators (one call)."""

    def walk(node: Any) -> tuple[int, int]:
        hits, rows = int(node.get("dbHits", 0) or 0), int(node.get("rows", 0) or 0)
        for child in node.get("children", []):
            inner = walk(child)
            hits, rows = hits + inner[0], rows + inner[1]
        return hits, rows

    hits, rows = walk(plan)
    return Work(hits, rows, 1)


def load_entries(path: Path = BUDGETS_FILE) -> list[Budget]:
    """Every budget of the file, of every form."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for entry in data.get("budget", []):
        budget = Budget(
            entry["scenario"],
            entry["statement"],
            int(entry["db_hits"]),
            int(entry["rows"]),
            entry["reason"],
            entry.get("form", ""),
        )
        if not budget.reason.strip():
            raise ValueError(f"budget {budget.scenario}/{budget.statement} has no reason")
        if budget.form and budget.form not in FORMS:
            raise ValueError(f"budget {budget.scenario}/{budget.statement}: form {budget.form!r}")
        out.append(budget)
    return out


def load_budgets(path: Path = BUDGETS_FILE, form: str = FORMS[0]) -> dict[Key, Budget]:
    """The budgets that apply on a server of ``form``, by (scenario, statement)."""
    out: dict[Key, Budget] = {}
    for budget in load_entries(path):
        if budget.form and budget.form != form:
            continue
        key = (budget.scenario, budget.statement)
        if key in out:
            raise ValueError(f"two budgets for {key[0]}/{key[1]} on the {form} form")
        out[key] = budget
    return out


def problems(
    observed: dict[Key, Work], budgets: dict[Key, Budget], tolerance: float = TOLERANCE
) -> list[str]:
    """Every way the observed work breaks the committed budgets (empty: within budget)."""
    out = []
    for key, work in sorted(observed.items()):
        scenario, statement = key
        budget = budgets.get(key)
        if budget is None:
            if work.db_hits > FLOOR_DB_HITS:
                out.append(
                    f"{scenario}/{statement}: no budget for {work.db_hits} db hits, "
                    f"{work.rows} rows ({work.calls} calls)"
                )
            continue
        for what, seen, allowed in (
            ("db hits", work.db_hits, budget.db_hits),
            ("rows", work.rows, budget.rows),
        ):
            if seen > allowed * (1 + tolerance):
                out.append(
                    f"{scenario}/{statement}: {seen} {what} > budget {allowed} "
                    f"+{tolerance:.0%} ({work.calls} calls)"
                )
    for key in sorted(set(budgets) - set(observed)):
        out.append(f"{key[0]}/{key[1]}: budgeted but never run (remove it or fix the scenario)")
    return out


def render(
    observed: dict[Key, Work], budgets: dict[Key, Budget], keep: list[Budget] | None = None
) -> str:
    """The budget file for ``observed``, keeping known reasons and forms: printed when the
    guard fails, to copy in deliberately once a plan change is understood. ``keep``: the other
    forms' budgets, written as they are (this run could not observe them)."""
    entries = [
        Budget(
            key[0],
            key[1],
            work.db_hits,
            work.rows,
            old.reason if old else "TODO: why this much work is expected",
            old.form if old else "",
        )
        for key, work in sorted(observed.items())
        if work.db_hits > FLOOR_DB_HITS or key in budgets
        for old in [budgets.get(key)]
    ]
    lines = []
    for b in entries + list(keep or []):
        lines += [
            "[[budget]]",
            f'scenario = "{b.scenario}"',
            f'statement = "{b.statement}"',
            *([f'form = "{b.form}"'] if b.form else []),
            f"db_hits = {b.db_hits}",
            f"rows = {b.rows}",
            f"reason = {json.dumps(b.reason, ensure_ascii=False)}",
            "",
        ]
    return "\n".join(lines)
