"""The benchmarks' and speed guard's profiling executor against the real Neo4j: each plan is
filed under the statement that ran it, also when statements run concurrently (one
``retrieve`` sends its signals and its searches at once)."""

from __future__ import annotations

import asyncio

import pytest

from graph.executor import Executor, Neo4jExecutor
from tests.bench.profiling import ProfilingExecutor

pytestmark = pytest.mark.neo4j


async def test_concurrent_statements_keep_their_names(executor: Executor) -> None:
    assert isinstance(executor, Neo4jExecutor)
    prof = ProfilingExecutor(executor)
    await asyncio.gather(
        *(prof.run("schema/ping", read=True) for _ in range(4)),
        *(prof.run("schema/get_version", read=True) for _ in range(4)),
        prof.run_text("RETURN 1 AS one", read=True),
    )
    assert set(prof.plans) == {"schema/ping", "schema/get_version", "<text>"}
    assert prof.round_trips == 9
