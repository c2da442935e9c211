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
    ex = BreakerExecutor(Neo4jExecutor(driver, "neo4j", autocommit_reads=False),  # type: ignore[arg-type]
                         cooldown_s=3.0,
                         clock=lambda: now[0])
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
