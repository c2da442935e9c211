"""The API's circuit breaker fails fast after Neo4j was found unreachable, then probes again."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j.exceptions import ServiceUnavailable

from graph.errors import GraphUnavailable
from graph.executor import Neo4jExecutor
from server.breaker import BreakerExecutor


class FlakyDriver:
    """Stands in for the neo4j driver: down until ``up`` is set; counts real attempts."""

    def __init__(self) -> None:
        self.up = False
        self.attempts = 0

    async def execute_query(self, query: str, **kwargs: Any) -> Any:
        self.attempts += 1
        if not self.up:
            raise ServiceUnavailable("connection refused")
        return [], None, None


async def test_fails_fast_during_cooldown_and_recovers() -> None:
    driver = FlakyDriver()
    now = [100.0]
    ex = BreakerExecutor(
        Neo4jExecutor(driver, "neo4j", autocommit_reads=False),  # type: ignore[arg-type]
        cooldown_s=3.0,
        clock=lambda: now[0],
    )
    with pytest.raises(GraphUnavailable):
        await ex.run("schema/ping", read=True)
    assert driver.attempts == 1 and ex.is_open
    with pytest.raises(GraphUnavailable, match="moments ago"):
        await ex.run("schema/ping", read=True)
    assert driver.attempts == 1  # no new attempt while open
    driver.up = True
    now[0] += 3.5
    assert await ex.run("schema/ping", read=True) == []
    assert driver.attempts == 2 and not ex.is_open


class BusyDriver:
    """Every pooled connection stays in use: the driver gives up acquiring one."""

    async def execute_query(self, query: str, **kwargs: Any) -> Any:
        from neo4j.exceptions import ConnectionAcquisitionTimeoutError

        raise ConnectionAcquisitionTimeoutError("failed to obtain a connection from the pool")


async def test_a_full_connection_pool_is_a_typed_busy_error_and_does_not_open_the_breaker() -> None:
    from gql.errors import ErrorCode, api_error_from
    from graph.errors import GraphBusy

    ex = BreakerExecutor(Neo4jExecutor(BusyDriver(), "neo4j", autocommit_reads=False))  # type: ignore[arg-type]
    with pytest.raises(GraphBusy) as caught:
        await ex.run("schema/ping", read=True)
    assert not ex.is_open  # overload is not an outage: other requests still try
    known = api_error_from(caught.value)
    assert known is not None and known.code is ErrorCode.UNAVAILABLE  # not INTERNAL
