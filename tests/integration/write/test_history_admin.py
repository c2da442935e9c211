"""forget, merge_entities and as_of reads against the real Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.errors import BadInput, NotFound
from graph.executor import Executor
from graph.memory.curation.edits import forget, merge_entities
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import HashEmbedder
from tests.integration.write.helpers import counts
from tests.integration.write.history import fact_history, facts_as_of, get_fact, relationships_as_of

pytestmark = pytest.mark.neo4j


async def test_forget_closes_fact_and_cascades(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity("Ana", "person"), StructuredEntity("Acme", "org")],
        facts=[StructuredFact("Ana works at Acme", "Ana", ["Acme"], id="f1")],
        relations=[StructuredRelation("Ana", "Acme", "works_at", evidence_fact_id="f1")],
    )
    before = datetime.now(UTC)
    res = await forget(executor, agent_id, "f1", reason="user asked")
    assert len(res.invalidated_relationships) == 1
    fact = await get_fact(executor, agent_id, "f1")
    assert fact["valid_to"] is not None and fact["invalidated_at"] is not None
    c = await counts(executor, agent_id)
    # Two audit records: the import's ADD and the FORGET.
    assert (c["facts"], c["active_facts"], c["active_relations"], c["audits"]) == (1, 0, 0, 2)
    assert [f["id"] for f in await facts_as_of(executor, agent_id, before)] == ["f1"]
    assert len(await relationships_as_of(executor, agent_id, before)) == 1
    with pytest.raises(NotFound):
        await forget(executor, agent_id, "f1")
    with pytest.raises(NotFound):
        await forget(executor, "some-other-agent", "f1")


async def test_merge_entities_repoints_everything(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[
            StructuredEntity("Ana Souza", "person", aliases=["Aninha"]),
            StructuredEntity("Ana S.", "person", key="person:ana_s"),
            StructuredEntity("Acme", "organization"),
            StructuredEntity("Bob", "person"),
        ],
        facts=[
            StructuredFact("Ana S. works at Acme", "person:ana_s", ["Acme"], id="fa"),
            StructuredFact("Ana Souza likes tea", "Ana Souza", id="fb"),
        ],
        relations=[
            StructuredRelation("person:ana_s", "Acme", "works_at", evidence_fact_id="fa"),
            StructuredRelation("Bob", "person:ana_s", "friend_of"),
            StructuredRelation("Ana Souza", "person:ana_s", "same_person"),
        ],
    )
    res = await merge_entities(executor, agent_id, "person:ana_souza", "person:ana_s")
    assert res.aliases_moved == 1 and res.facts_resubjected == 1
    assert res.relationships_moved == 2 and res.relationships_closed == 1
    rels = await relationships_as_of(executor, agent_id, datetime.now(UTC) + timedelta(0, 1))
    assert {(r["source_key"], r["type"], r["target_key"]) for r in rels} == {
        ("person:ana_souza", "works_at", "organization:acme"),
        ("person:bob", "friend_of", "person:ana_souza"),
    }
    fact = await get_fact(executor, agent_id, "fa")
    assert fact["subject_key"] == "person:ana_souza"
    c = await counts(executor, agent_id)
    assert c["entities"] == 4  # the dropped entity is kept, marked merged_into
    rows = await executor.run(
        "write/match_keys", {"agent_id": agent_id, "keys": ["person:ana_s"]}, read=True
    )
    assert rows[0]["merged_into"] == "person:ana_souza"
    with pytest.raises(BadInput):
        await merge_entities(executor, agent_id, "person:bob", "person:bob")
    with pytest.raises(NotFound):
        await merge_entities(executor, agent_id, "person:bob", "person:nobody")
    # A merged entity cannot be merged again, either way round: nothing moves twice.
    with pytest.raises(BadInput, match="already merged"):
        await merge_entities(executor, agent_id, "person:bob", "person:ana_s")
    with pytest.raises(BadInput, match="already merged"):
        await merge_entities(executor, agent_id, "person:ana_s", "person:bob")
    assert (await counts(executor, agent_id)) == c


async def test_fact_history_both_ways(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    from graph.memory.write import WritePipeline

    pipe = WritePipeline(executor, hash_embedder, None)
    a = await pipe.write(agent_id, "I live in Curitiba.", "Rafael")
    b = await pipe.write(agent_id, "I moved to Lisbon.", "Rafael")
    c = await pipe.write(agent_id, "I moved to Porto.", "Rafael")
    ids = [a.facts_added[0].id, b.facts_updated[0].id, c.facts_updated[0].id]
    for fid in ids:
        assert [v["id"] for v in await fact_history(executor, agent_id, fid)] == ids
    with pytest.raises(NotFound):
        await fact_history(executor, agent_id, "missing")
