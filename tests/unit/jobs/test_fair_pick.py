"""The fair lease's choice of whose job runs next (no Neo4j: the candidate rows are given)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, cast

from graph.executor import Executor
from graph.memory.jobs import JobQueue


def _queue() -> JobQueue:
    return JobQueue(cast(Executor, None), rng=random.Random(7))


def _rows(*pairs: tuple[str | None, str | None]) -> list[dict[str, Any]]:
    return [{"agent_id": a, "tenant": t} for a, t in pairs]


def test_agents_without_tenant_take_turns() -> None:
    queue = _queue()
    rows = _rows(("a", None), ("b", None), ("c", None))
    picks = [queue._pick_agent(rows) for _ in range(9)]
    assert all(sorted(picks[i : i + 3]) == ["a", "b", "c"] for i in range(0, 9, 3))


def test_tenants_take_turns_then_their_agents() -> None:
    queue = _queue()
    rows = _rows(*[(f"big{i}", "T1") for i in range(5)], ("lone", "T2"))
    picks = [queue._pick_agent(rows) for _ in range(10)]
    assert Counter(p == "lone" for p in picks) == {True: 5, False: 5}
    assert picks[0] == "lone" or picks[1] == "lone"
    assert sorted(p for p in picks if p != "lone") == [f"big{i}" for i in range(5)]


def test_a_newcomer_goes_first_and_memory_stays_bounded() -> None:
    queue = _queue()
    for i in range(25_000):
        queue._pick_agent(_rows((f"x{i}", None)))
    assert len(queue._served) <= 20_000
    busy = _rows(("x24999", None), ("new", None))
    assert queue._pick_agent(busy) == "new"


def test_a_job_without_agent_id_is_not_stranded() -> None:
    assert _queue()._pick_agent(_rows((None, None))) is None
