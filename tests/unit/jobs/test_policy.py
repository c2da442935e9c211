"""Backoff, failure outcome and scheduling decisions (pure, no database)."""

from __future__ import annotations

import random

from graph.memory.jobs.policy import backoff_delay, dedup_key, on_failure
from graph.memory.jobs.scheduler import due_kinds


def test_backoff_without_jitter_doubles_from_one_second_to_the_cap() -> None:
    delays = [backoff_delay(n, jitter=0) for n in range(1, 9)]
    assert delays == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]


def test_backoff_with_jitter_stays_between_the_exponential_and_the_cap() -> None:
    rng = random.Random(7)
    for attempt in range(1, 12):
        floor = min(30.0, 2.0 ** (attempt - 1))
        samples = [backoff_delay(attempt, rng=rng) for _ in range(200)]
        assert all(floor <= s <= min(30.0, floor * 1.5) for s in samples)
        if floor < 30.0:  # jitter really varies the delay
            assert len({round(s, 6) for s in samples}) > 100


def test_backoff_mean_grows_until_the_cap() -> None:
    rng = random.Random(1)
    means = [sum(backoff_delay(a, rng=rng) for _ in range(300)) / 300 for a in range(1, 7)]
    assert means == sorted(means)
    assert means[-1] == 30.0


def test_backoff_handles_silly_attempts() -> None:
    assert backoff_delay(0, jitter=0) == 1.0
    assert backoff_delay(10_000, jitter=0) == 30.0


def test_failure_retries_then_dies_on_the_third_attempt() -> None:
    rng = random.Random(3)
    first, second, third = (on_failure(a, 3, rng=rng) for a in (1, 2, 3))
    assert (first.status, second.status, third.status) == ("pending", "pending", "dead")
    assert 1.0 <= first.delay_s <= 1.5 and 2.0 <= second.delay_s <= 3.0
    assert on_failure(1, 3, permanent=True).status == "dead"


def test_dedup_key_names_kind_agent_and_subject() -> None:
    assert dedup_key("extract", "a1", "ev1") == "extract|a1|ev1"
    assert dedup_key("profile", "a1", None) == "profile|a1|*"


def test_due_kinds() -> None:
    intervals = {"profile": 10.0, "decay": 5.0, "dedup_entities": 0.0}
    assert due_kinds(intervals, {}, 100.0) == ["decay", "profile"]
    assert due_kinds(intervals, {"profile": 95.0, "decay": 95.0}, 100.0) == ["decay"]
    assert due_kinds(intervals, {"profile": 95.0, "decay": 99.0}, 100.0) == []
