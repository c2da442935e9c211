"""The executor's rows: every value the server can send comes out as ``Record.data`` makes it
(nodes as their properties, relationships as ``(start, type, end)``, paths as alternating
lists), with every temporal value a Python ``datetime``/``date``/``time``, at any depth."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import neo4j
import pytest

from graph.executor import Executor, Neo4jExecutor
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j


def _reference(value: Any) -> Any:
    """What a row should hold: the driver's ``Record.data`` with temporal values made native."""
    if isinstance(value, (neo4j.time.DateTime, neo4j.time.Date, neo4j.time.Time)):
        return value.to_native()
    if isinstance(value, dict):
        return {k: _reference(v) for k, v in value.items()}
    if type(value) in (list, tuple):  # not Point or Duration, which are tuples too
        return type(value)(_reference(v) for v in value)
    return value


def _native_only(value: Any) -> None:
    assert not isinstance(value, (neo4j.time.DateTime, neo4j.time.Date, neo4j.time.Time))
    assert not isinstance(value, (neo4j.graph.Node, neo4j.graph.Relationship, neo4j.graph.Path))
    if isinstance(value, dict):
        for v in value.values():
            _native_only(v)
    elif type(value) in (list, tuple):
        for v in value:
            _native_only(v)


async def test_rows_hold_what_record_data_holds_with_native_times(executor: Executor) -> None:
    assert isinstance(executor, Neo4jExecutor)
    tag = uuid.uuid4().hex
    params = {"tag": tag, "blob": b"\x00\xffbytes"}
    try:
        rows = await executor.run_text(load_query("row_values"), params)
        async with executor.driver.session(database=executor.database) as session:
            result = await session.run(load_query("row_values"), params)
            expected = [_reference(record.data()) async for record in result]
    finally:
        await executor.run_text(load_query("delete_row_probes"), {"tag": tag})
    assert len(rows) == 1
    row = rows[0]
    assert row == expected[0]
    _native_only(row)
    at = dt.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=dt.UTC)
    assert row["node"] == {"tag": tag, "name": "a", "at": at}
    assert row["rel"] == (row["node"], "PROBED", {"tag": tag, "name": "b"})
    assert row["path"] == [row["node"], "PROBED", {"tag": tag, "name": "b"}]
    assert row["nested"]["list"] == [at, dt.time(10, 11, 12)]
    assert row["nested"]["plain"] == {"x": 1, "y": [2.5, 3.5]}
    assert row["mixed"] == [1, 2.5, "x", None, True, at]
    assert row["times"] == [at, dt.datetime(2024, 1, 1)]
    assert row["nodes_in_maps"] == [{"n": row["node"], "k": 1}]
    assert row["nested_lists"] == [[1, 2], [at], []]
    assert isinstance(row["dur"], neo4j.time.Duration)
    assert isinstance(row["pt"], neo4j.spatial.CartesianPoint) and tuple(row["pt"]) == (1.0, 2.0)
    assert row["blob"] == b"\x00\xffbytes"
    assert row["nothing"] is None and row["empty"] == [] and row["empty_map"] == {}
