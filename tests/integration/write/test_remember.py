"""Structured remember against the real Neo4j: entities, aliases, facts, relations, events."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact, StructuredRelation
from graph.providers import HashEmbedder
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j


async def _count(executor: Executor, agent_id: str, name: str) -> int:
    rows = await executor.run_text(
        load_query("history_agent_counts"), {"agent_id": agent_id}, read=True
    )
    return int(rows[0][name])


async def test_remember_imports_everything_and_is_idempotent(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    ents = [
        StructuredEntity("Clara Rezende", "person", aliases=["Clarinha"]),
        StructuredEntity("Orion Tech", "organization"),
    ]
    facts = [
        StructuredFact(
            "Clara Rezende works at Orion Tech",
            subject="Clarinha",
            entities=["organization:orion_tech"],
            id="f-clara-1",
            event_ids=["ev-1"],
            categories=["Work"],
        ),
        StructuredFact(
            "Clara likes jazz",
            subject="Clara Rezende",
            kind="weird",
            valid_from=datetime(2024, 1, 1, tzinfo=UTC),
        ),
        StructuredFact("Bob is Clara's friend", subject="Bob"),
    ]
    rels = [
        StructuredRelation("Clara Rezende", "Orion Tech", "works at", evidence_fact_id="f-clara-1"),
        StructuredRelation("Clara Rezende", "Clara Rezende", "same_as"),
        StructuredRelation("Bob", "Clara Rezende", "`bad type`"),
    ]
    events = [StructuredEvent("Clara works at Orion Tech", "Rafael", id="ev-1")]
    seen: list[tuple[int, int]] = []
    res = await remember(
        executor,
        hash_embedder,
        agent_id,
        ents,
        facts,
        rels,
        events,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert res.facts_added == 3 and res.facts_unchanged == 0
    assert res.fact_ids[0] == "f-clara-1"
    assert res.entity_keys["Bob"] == "thing:bob"
    assert res.entity_keys["Clarinha"] == "person:clara_rezende"
    assert res.relations == 2  # `bad type` normalises to bad_type; the self-loop is skipped
    assert any("self-relation" in w for w in res.warnings)
    assert any("coerced" in w for w in res.warnings)
    assert seen and seen[-1][0] == seen[-1][1]
    assert await _count(executor, agent_id, "entities") == 3
    assert await _count(executor, agent_id, "facts") == 3
    assert await _count(executor, agent_id, "relations") == 2
    assert await _count(executor, agent_id, "from_event") == 1
    assert await _count(executor, agent_id, "about") == 4

    again = await remember(executor, hash_embedder, agent_id, ents, facts, rels, events)
    assert again.facts_added == 0 and again.facts_unchanged == 3
    assert again.entities_created == 0
    assert await _count(executor, agent_id, "facts") == 3
    assert await _count(executor, agent_id, "relations") == 2
    assert await _count(executor, agent_id, "aliases") == 4
