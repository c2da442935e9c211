"""Committed work budgets of the hot Cypher statements, and the check against them.

Timing on a shared 2-core machine is noise; the work a plan does is not. ``PROFILE`` reports,
per operator, the database hits and the rows it produced: for fixed data and fixed queries they
depend only on the plan Neo4j chose. The guard (``tests/integration/perf/test_plan_budgets.py``)
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


@dataclass(frozen=True)
class Budget:
    scenario: str
    statement: str
    db_hits: int
    rows: int
    reason: str


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


def load_budgets(path: Path = BUDGETS_FILE) -> dict[Key, Budget]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[Key, Budget] = {}
    for entry in data.get("budget", []):
        budget = Budget(
            entry["scenario"],
            entry["statement"],
            int(entry["db_hits"]),
            int(entry["rows"]),
            entry["reason"],
        )
        if not budget.reason.strip():
            raise ValueError(f"budget {budget.scenario}/{budget.statement} has no reason")
        out[(budget.scenario, budget.statement)] = budget
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


def render(observed: dict[Key, Work], budgets: dict[Key, Budget]) -> str:
    """The budget file for ``observed``, keeping known reasons: printed when the guard fails,
    to copy in deliberately once a plan change is understood."""
    lines = []
    for key, work in sorted(observed.items()):
        if work.db_hits <= FLOOR_DB_HITS and key not in budgets:
            continue
        old = budgets.get(key)
        reason = old.reason if old else "TODO: why this much work is expected"
        lines += [
            "[[budget]]",
            f'scenario = "{key[0]}"',
            f'statement = "{key[1]}"',
            f"db_hits = {work.db_hits}",
            f"rows = {work.rows}",
            f"reason = {json.dumps(reason, ensure_ascii=False)}",
            "",
        ]
    return "\n".join(lines)
