"""A relationship supported by several facts stays while one of them is active: forgetting its
newest evidence hands it to the next one; forgetting the last closes it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.executor import Executor
from graph.memory.curation.edits import forget
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder
from tests.integration.write.history import relationships_as_of

pytestmark = pytest.mark.neo4j


async def test_forgetting_one_evidence_fact_keeps_a_relation_another_supports(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    ents = [StructuredEntity("Clara", "person"), StructuredEntity("Orion Tech", "organization")]
    facts = [
        StructuredFact("Clara works at Orion Tech.", "Clara", ["Orion Tech"]),
        StructuredFact("Clara joined Orion Tech as an engineer.", "Clara", ["Orion Tech"]),
    ]
    first, second = (await remember(executor, embedder, agent_id, ents, facts)).fact_ids
    for evidence in (first, second):  # two messages supporting the same relationship
        await remember(
            executor,
            embedder,
            agent_id,
            relations=[
                StructuredRelation("Clara", "Orion Tech", "works_at", evidence_fact_id=evidence)
            ],
        )

    async def works_at() -> list[str]:
        rels = await relationships_as_of(executor, agent_id, datetime.now(UTC))
        return [r["type"] for r in rels if r["type"] == "works_at"]

    assert await works_at() == ["works_at"]
    newest = await forget(executor, agent_id, second)
    assert newest.invalidated_relationships == []
    assert await works_at() == ["works_at"]  # the first fact still supports it
    last = await forget(executor, agent_id, first)
    assert len(last.invalidated_relationships) == 1
    assert await works_at() == []
