"""The budget check's decisions (the profiling itself: tests/integration/read/test_plan_budgets)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.plan_budgets import (
    BUDGETS_FILE,
    Budget,
    Work,
    load_budgets,
    load_entries,
    plan_work,
    problems,
    render,
)

PLAN = {
    "operatorType": "ProduceResults",
    "dbHits": 0,
    "rows": 5,
    "children": [
        {
            "operatorType": "Limit",
            "dbHits": 0,
            "rows": 5,
            "children": [
                {"operatorType": "NodeIndexSeek", "dbHits": 120, "rows": 40, "children": []}
            ],
        }
    ],
}


def test_plan_work_sums_every_operator() -> None:
    assert plan_work(PLAN) == Work(120, 50, 1)
    assert plan_work(PLAN) + plan_work(PLAN) == Work(240, 100, 2)


def budget(hits: int, rows: int = 1000) -> dict[tuple[str, str], Budget]:
    return {("s", "read/x"): Budget("s", "read/x", hits, rows, "an index seek per query")}


def test_within_tolerance_passes_and_beyond_fails() -> None:
    assert problems({("s", "read/x"): Work(1200, 10, 4)}, budget(1000)) == []
    [found] = problems({("s", "read/x"): Work(1201, 10, 4)}, budget(1000))
    assert "1201 db hits > budget 1000" in found
    [found] = problems({("s", "read/x"): Work(10, 5000, 4)}, budget(1000))
    assert "rows" in found


def test_unbudgeted_heavy_statements_and_stale_budgets_fail() -> None:
    assert problems({("s", "read/tiny"): Work(150, 3, 1)}, {}) == []  # under the floor
    [found] = problems({("s", "read/new"): Work(5000, 3, 1)}, {})
    assert "no budget" in found
    [found] = problems({}, budget(1000))
    assert "never run" in found


def test_rendered_budgets_parse_back_with_their_reasons(tmp_path: Path) -> None:
    text = render(
        {("s", "read/x"): Work(900, 30, 2), ("s", "read/new"): Work(5000, 3, 1)}, budget(1000)
    )
    path = tmp_path / "b.toml"
    path.write_text(text, encoding="utf-8")
    loaded = load_budgets(path)
    assert loaded[("s", "read/x")] == Budget("s", "read/x", 900, 30, "an index seek per query")
    assert loaded[("s", "read/new")].reason.startswith("TODO")


def test_a_budget_without_a_reason_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text(
        '[[budget]]\nscenario = "s"\nstatement = "x"\ndb_hits = 1\nrows = 1\nreason = " "\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="no reason"):
        load_budgets(path)


def test_the_committed_file_gives_every_budget_a_reason() -> None:
    entries = tomllib.loads(BUDGETS_FILE.read_text(encoding="utf-8")).get("budget", [])
    assert entries, "tests/plan_budgets.toml lists no budget"
    assert all(e["reason"].strip() and not e["reason"].startswith("TODO") for e in entries)


FORMS_FILE = """
[[budget]]
scenario = "s"
statement = "read/both"
db_hits = 10
rows = 1
reason = "the same on every server"

[[budget]]
scenario = "s"
statement = "read/x_index"
form = "procedure"
db_hits = 20
rows = 2
reason = "the global top-k"

[[budget]]
scenario = "s"
statement = "read/x_search"
form = "filtered"
db_hits = 30
rows = 3
reason = "the agent's own top-k"
"""


def test_budgets_of_one_vector_search_form_apply_only_on_it(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text(FORMS_FILE, encoding="utf-8")
    procedure = load_budgets(path, form="procedure")
    filtered = load_budgets(path, form="filtered")
    assert set(procedure) == {("s", "read/both"), ("s", "read/x_index")}
    assert set(filtered) == {("s", "read/both"), ("s", "read/x_search")}
    # A run on one form prints the file with the other form's budgets kept as they are.
    others = [b for b in load_entries(path) if b.form and b.form != "filtered"]
    text = render({("s", "read/x_search"): Work(33, 3, 1)}, filtered, others)
    path.write_text(text, encoding="utf-8")
    assert load_budgets(path, form="filtered")[("s", "read/x_search")].db_hits == 33
    assert (
        load_budgets(path, form="procedure")[("s", "read/x_index")]
        == procedure[("s", "read/x_index")]
    )


def test_an_unknown_form_or_two_budgets_for_one_statement_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text(FORMS_FILE.replace('form = "filtered"', 'form = "hnsw"'), encoding="utf-8")
    with pytest.raises(ValueError, match="form 'hnsw'"):
        load_entries(path)
    path.write_text(FORMS_FILE.replace("read/x_index", "read/both"), encoding="utf-8")
    with pytest.raises(ValueError, match="two budgets"):
        load_budgets(path, form="procedure")
    assert ("s", "read/x_search") in load_budgets(path, form="filtered")
