"""The test command's check of `make run`'s database (tests/isolation.py): what it reports."""

from __future__ import annotations

from tests.isolation import compare


def test_the_isolation_check_sees_a_new_or_changed_agent() -> None:
    before = {"checked": True, "running": True, "agents": {"mine": {"Fact": [3, 30, 4]}}}
    same = {"checked": True, "running": True, "agents": {"mine": {"Fact": [3, 30, 4]}}}
    assert compare(before, same) == []
    added = {**same, "agents": {**same["agents"], "test-1": {"Entity": [1, 5, 0]}}}
    assert compare(before, added) == [
        "new agent in `make run`'s database: 'test-1' {'Entity': [1, 5, 0]}"
    ]
    changed = {**same, "agents": {"mine": {"Fact": [4, 40, 5]}}}
    assert "agent changed" in compare(before, changed)[0]
    stopped = {"checked": True, "running": False, "data": {"files": 0, "newest_change": 0}}
    started = {"checked": True, "running": False, "data": {"files": 9, "newest_change": 5}}
    assert compare(stopped, started) and compare(stopped, stopped) == []
    assert compare(stopped, same)  # the tests started `make run`'s server
