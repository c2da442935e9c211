"""The adaptive over-fetch loop (pure async, a scripted index instead of Neo4j)."""

from __future__ import annotations

from typing import Any

from graph.memory.read.search import SearchStats, overfetch


def _index(total: int, mine_every: int, floor_at: dict[int, float] | None = None):  # type: ignore[no-untyped-def]
    """A fake global index of ``total`` hits where every ``mine_every``-th belongs to us."""

    async def query(k: int) -> dict[str, Any]:
        fetched = min(k, total)
        rows = [{"i": i} for i in range(fetched) if i % mine_every == 0]
        floor = (floor_at or {}).get(k, 0.9)
        return {"fetched": fetched, "rows": rows, "floor": floor}

    return query


async def test_grows_until_enough_rows() -> None:
    stats = SearchStats()
    rows, complete = await overfetch(_index(100_000, 100), 20, 100, 50_000, 0.6, stats)
    assert complete and len(rows) >= 20 and stats.rounds == [100, 400, 1600, 6400]


async def test_stops_when_index_exhausted() -> None:
    stats = SearchStats()
    rows, complete = await overfetch(_index(500, 100), 20, 100, 50_000, 0.6, stats)
    assert complete and len(rows) == 5 and stats.rounds == [100, 400, 1600]


async def test_stops_when_floor_below_threshold() -> None:
    stats = SearchStats()
    _rows, complete = await overfetch(
        _index(100_000, 1000, {400: 0.5}), 20, 100, 50_000, 0.6, stats
    )
    assert complete and stats.rounds == [100, 400]


async def test_cap_reports_incomplete() -> None:
    stats = SearchStats()
    _rows, complete = await overfetch(_index(10**7, 10**6), 20, 100, 1600, None, stats)
    assert not complete and stats.capped and stats.rounds == [100, 400, 1600]
