"""Every transaction carries the configured timeout: Neo4j terminates a runaway one and the
caller gets a typed ``GraphTimeout``."""

from __future__ import annotations

import pytest

from graph.errors import GraphTimeout, GraphUnavailable
from graph.executor import Neo4jExecutor, Transaction, connect
from server.settings import Settings
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j


async def test_runaway_transactions_are_terminated_with_a_typed_error(settings: Settings) -> None:
    ex = connect(
        settings.bolt_uri,
        settings.neo4j_user,
        settings.neo4j_secret(),
        settings.neo4j_database,
        tx_timeout_s=0.5,
    )
    try:
        with pytest.raises(GraphTimeout):
            await ex.run_text(load_query("sleep"), {"ms": 20_000}, read=True)

        async def slow(tx: Transaction) -> object:
            result = await tx.tx.run(load_query("sleep"), {"ms": 20_000})
            return await result.data()

        with pytest.raises(GraphTimeout):
            await ex.read(slow)
        with pytest.raises(GraphTimeout):
            await ex.write(slow)
        assert issubclass(GraphTimeout, GraphUnavailable)  # clients see UNAVAILABLE: retry
        assert await ex.run_text(load_query("sleep"), {"ms": 10}, read=True) == [{"slept": True}]
    finally:
        await ex.close()


def test_the_service_executor_gets_the_timeout_from_settings() -> None:
    from server.composition import connect_executor

    executor = connect_executor(Settings(neo4j_tx_timeout_s=7))
    assert isinstance(executor, Neo4jExecutor) and executor.tx_timeout_s == 7
