"""``remember`` writes one transaction per bounded batch and, when a batch fails
after earlier ones committed, reports exactly what was stored and what was not (and why),
instead of an error that hides the committed half."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from graph.errors import GraphUnavailable
from graph.executor import Executor, Transaction
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import HashEmbedder
from tests.cypher import load_query
from tests.fakes import WrappedExecutor
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

T = TypeVar("T")


class DropsAtWrite(WrappedExecutor):
    """Neo4j goes away at the ``n``-th write transaction (it never runs)."""

    def __init__(self, inner: Executor, n: int) -> None:
        super().__init__(inner)
        self.n, self.writes = n, 0

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.writes += 1
        if self.writes == self.n:
            raise GraphUnavailable("connection lost")
        return await super().write(work)


async def _facts(executor: Executor, agent_id: str) -> int:
    rows = await executor.run_text(
        load_query("count_agent_facts"), {"agent_id": agent_id}, read=True
    )
    return int(next(iter(rows[0].values())))


async def test_a_failed_batch_reports_what_was_stored_and_what_was_not(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    facts = [StructuredFact(text=f"Eve visited city number {i}", subject="Eve") for i in range(5)]
    # writes: 1 entity batch, then fact batches of 2 (writes 2, 3 and 4), then relations (5)
    flaky = DropsAtWrite(executor, 3)
    result = await remember(
        flaky,
        hash_embedder,
        agent_id,
        batch_size=2,
        entities=[
            StructuredEntity(name="Eve", type="person"),
            StructuredEntity(name="Bob", type="person"),
        ],
        facts=facts,
        relations=[
            StructuredRelation(source="Eve", target="Bob", type="knows"),
            StructuredRelation(source="Eve", target="Bob", type="123"),
        ],
    )
    assert result.complete is False and result.error and "facts batch" in result.error
    assert result.facts_added == 2 and len(result.fact_ids) == 2
    assert await _facts(executor, agent_id) == 2
    refused = {(r.section, r.index): r.reason for r in result.refused}
    assert "not usable" in refused[("relations", 1)]  # skipped before any write
    assert [i for s, i in refused if s == "facts"] == [2, 3, 4]
    assert ("relations", 0) in refused and "GraphUnavailable" in refused[("relations", 0)]
    assert result.relations == 0


async def test_a_failure_before_anything_is_stored_is_the_error_itself(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    with pytest.raises(GraphUnavailable):
        await remember(
            DropsAtWrite(executor, 1),
            hash_embedder,
            agent_id,
            facts=[StructuredFact(text="Eve likes tea", subject="Eve")],
        )


async def test_the_api_lists_skipped_relations(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    res = await gql(
        memory_for(executor, hash_embedder),
        """mutation($a: ID!) {
      remember(agentId: $a, relations: [{source: "Eve", target: "Bob", type: "knows"},
                                        {source: "Eve", target: "Eve", type: "knows"}]) {
        summary { relations complete error refused { section index key reason } } } }""",
        {"a": agent_id},
    )
    assert res.errors is None, res.errors
    summary = res.data["remember"]["summary"]
    assert summary["relations"] == 1 and summary["complete"] is True and summary["error"] is None
    assert summary["refused"] == [
        {"section": "RELATIONS", "index": 1, "key": "thing:eve", "reason": "self-relation"}
    ]
