"""The process's change feed (graph/memory/changes) on the real Neo4j: one read per interval
and agent whatever the number of subscribers, a change committed late (stamped before changes
already delivered) still delivered once, a subscriber that falls behind told so, and pollers
stopped with their last subscriber."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.changes import Change, ChangeFeed, ChangeStream, Position, SubscriberLagging
from graph.memory.changes import feed as feed_module
from tests.bench.bench_subscriptions import audit_row
from tests.fakes import RecordingExecutor

pytestmark = pytest.mark.neo4j

POLL_S = 0.1


async def _record(executor: Executor, agent_id: str, at: datetime, *rows: dict[str, Any]) -> None:
    """Audit records as the write pipeline stores them, stamped ``at``."""
    await executor.run("write/create_audits", {"agent_id": agent_id, "now": at, "rows": list(rows)})


async def _next(stream: ChangeStream[Change], timeout: float = 10.0) -> Change:
    return await asyncio.wait_for(anext(stream), timeout)


@pytest.fixture
async def recorder(executor: Executor) -> AsyncIterator[RecordingExecutor]:
    yield RecordingExecutor(executor)


async def test_one_read_per_interval_for_any_number_of_subscribers(
    recorder: RecordingExecutor, executor: Executor, agent_id: str, other_agent: str
) -> None:
    feed = ChangeFeed(recorder, poll_s=POLL_S, lookback_s=2.0)
    streams = [feed.open(agent_id, f"key{i % 3}", None, lambda c: c) for i in range(25)]
    streams.append(feed.open(other_agent, "key0", None, lambda c: c))
    started = time.monotonic()
    await asyncio.sleep(0.6)
    audit = audit_row()
    await _record(executor, agent_id, datetime.now(UTC), audit)
    received = await asyncio.gather(*(_next(s) for s in streams[:25]))
    elapsed = time.monotonic() - started
    # No fact stands behind this record: its text is not shown.
    assert {(c.id, c.kind.value, c.text) for c in received} == {(audit["id"], "ADD", None)}
    reads = recorder.names.count("browse/memory_changes")
    # Two agents, one poller each: about two reads per interval, not 26.
    assert feed.pollers == 2
    assert reads <= 2 * (elapsed / POLL_S + 2), (reads, elapsed)
    for stream in streams:
        await stream.aclose()
    assert feed.pollers == 0
    await asyncio.sleep(0.05)
    stopped = recorder.names.count("browse/memory_changes")
    await asyncio.sleep(3 * POLL_S)
    assert recorder.names.count("browse/memory_changes") == stopped
    # Every slot was given back: a key may open as many as before.
    assert feed._per_key == {}


async def test_a_late_commit_is_delivered_once(executor: Executor, agent_id: str) -> None:
    feed = ChangeFeed(executor, poll_s=POLL_S, lookback_s=3.0)
    stream = feed.open(agent_id, "k", None, lambda c: c)
    try:
        await asyncio.sleep(0.3)
        first = audit_row()
        second = audit_row()
        now = datetime.now(UTC)
        await _record(executor, agent_id, now, second)
        assert (await _next(stream)).id == second["id"]
        await asyncio.sleep(3 * POLL_S)  # the poller has moved past `now`
        await _record(executor, agent_id, now - timedelta(milliseconds=200), first)
        assert (await _next(stream)).id == first["id"]
        await asyncio.sleep(5 * POLL_S)  # read again while still in the look-back window
        with pytest.raises(TimeoutError):
            await _next(stream, timeout=3 * POLL_S)
    finally:
        await stream.aclose()


async def test_a_subscriber_that_falls_behind_is_told(
    executor: Executor, agent_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed_module, "QUEUE_SIZE", 2)
    feed = ChangeFeed(executor, poll_s=POLL_S, lookback_s=1.0)
    stream = feed.open(agent_id, "k", None, lambda c: c)
    try:
        await asyncio.sleep(0.3)
        await _record(executor, agent_id, datetime.now(UTC), *(audit_row() for _ in range(4)))
        await asyncio.sleep(4 * POLL_S)
        with pytest.raises(SubscriberLagging):
            for _ in range(4):
                await _next(stream)
    finally:
        await stream.aclose()
    assert feed.pollers == 0


async def test_a_resume_from_the_first_instant_replays_without_overflow(
    executor: Executor, agent_id: str
) -> None:
    """The earliest position there is: the look-back before it stops at the first instant."""
    feed = ChangeFeed(executor, poll_s=POLL_S, lookback_s=5.0)
    audit = audit_row()
    await _record(executor, agent_id, datetime.now(UTC), audit)
    stream = feed.open(agent_id, "k", Position(datetime.min.replace(tzinfo=UTC)), lambda c: c)
    try:
        assert (await _next(stream)).id == audit["id"]
    finally:
        await stream.aclose()
