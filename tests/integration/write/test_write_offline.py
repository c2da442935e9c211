"""The offline path (no LLM: spaCy + rules) against the real Neo4j."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from graph.executor import Executor
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.fakes import RecordingExecutor
from tests.integration.write.helpers import SPEAKER, counts
from tests.integration.write.history import fact_history, facts_as_of, get_fact, relationships_as_of

pytestmark = pytest.mark.neo4j


@pytest.mark.parametrize(
    ("first_msg", "second_msg"),
    [
        ("I live in Curitiba.", "I moved to São Paulo."),
        ("Eu moro em Curitiba.", "Eu me mudei para São Paulo."),
    ],
)
async def test_offline_move_supersedes_and_cascades(
    executor: Executor, agent_id: str, embedder: Embedder, first_msg: str, second_msg: str
) -> None:
    pipe = WritePipeline(executor, embedder, None)
    first = await pipe.write(agent_id, first_msg, SPEAKER)
    between = datetime.now(UTC)
    await asyncio.sleep(0.05)
    second = await pipe.write(agent_id, second_msg, SPEAKER)
    assert first.success and second.success
    assert first.llm_calls == second.llm_calls == 0
    old_id = first.facts_added[0].id
    assert [u.target_id for u in second.facts_updated] == [old_id]
    old = await get_fact(executor, agent_id, old_id)
    assert old["valid_to"] is not None
    chain = await fact_history(executor, agent_id, old_id)
    assert [v["id"] for v in chain] == [old_id, second.facts_updated[0].id]
    rels = await relationships_as_of(executor, agent_id, datetime.now(UTC))
    assert [(r["type"], r["target_key"]) for r in rels] == [("lives_in", "place:sao_paulo")]
    c = await counts(executor, agent_id)
    assert c["relations"] == 2 and c["active_relations"] == 1 and c["supersedes"] == 1
    then = await facts_as_of(executor, agent_id, between, subject_key="person:rafael")
    assert len(then) == 1 and "Curitiba" in then[0]["text"]


async def test_offline_is_deterministic_and_reconciles(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    pipe = WritePipeline(executor, embedder, None)
    a = await pipe.write(agent_id, "I work at Acme.", SPEAKER, dry_run=True)
    b = await pipe.write(agent_id, "I work at Acme.", SPEAKER, dry_run=True)
    assert (
        [f.text for f in a.facts_added]
        == [f.text for f in b.facts_added]
        == ["Rafael works at Acme."]
    )
    assert a.relations[0]["type"] == b.relations[0]["type"] == "works_at"
    first = await pipe.write(agent_id, "I work at Acme.", SPEAKER)
    again = await pipe.write(agent_id, "I work at Acme.", SPEAKER)
    assert [u.target_id for u in again.facts_unchanged] == [first.facts_added[0].id]
    gone = await pipe.write(agent_id, "I no longer work at Acme.", SPEAKER)
    assert [d.id for d in gone.facts_deleted] == [first.facts_added[0].id]
    c = await counts(executor, agent_id)
    assert c["active_facts"] == 0 and c["active_relations"] == 0


async def test_offline_entities_aliases_and_people(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    pipe = WritePipeline(executor, embedder, None)
    res = await pipe.write(
        agent_id,
        "My friend Guili (Guilherme Maturana) lives in Porto "
        "Alegre. Clara Rezende works at Orion Tech.",
        SPEAKER,
    )
    keys = {e["key"] for e in res.entities_resolved}
    assert {
        "person:guilherme_maturana",
        "place:porto_alegre",
        "person:clara_rezende",
        "organization:orion_tech",
    } <= keys
    types = {(r["source_key"], r["type"], r["target_key"]) for r in res.relations}
    assert ("person:guilherme_maturana", "lives_in", "place:porto_alegre") in types
    assert ("person:clara_rezende", "works_at", "organization:orion_tech") in types
    nxt = await pipe.write(agent_id, "Guili adopted a cat.", SPEAKER)  # greetings are no facts
    [guili] = [e for e in nxt.entities_resolved if e["name"] == "Guili"]
    assert guili["method"] == "alias" and guili["key"] == "person:guilherme_maturana"


async def test_offline_write_is_two_transactions(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """Offline, a message costs the raw event's transaction and ONE write transaction that
    reads the entity and fact candidates, decides and writes; no context read (it only
    informs an LLM extraction), the embedding model checked once, inside the event's
    statement, the agent's ontology read in the event's transaction — and it stores the same."""
    rec = RecordingExecutor(executor)
    pipe = WritePipeline(rec, embedder, None)
    res = await pipe.write(agent_id, "I live in Curitiba and work at Acme.", SPEAKER)
    assert res.success and len(res.facts_added) == 2
    assert rec.round_trips == 2
    assert "spaces/claim" not in rec.statements and "write/entity_lookup" in rec.statements
    assert rec.statements[:2] == ["write/create_events", "ontology/in_force"]
    assert len(rec.statements) <= 16, rec.statements
    rec.reset()
    again = await pipe.write(agent_id, "I live in Curitiba and work at Acme.", SPEAKER)
    assert rec.round_trips == 2
    assert len(rec.statements) <= 17, rec.statements
    assert not again.facts_added and len(again.facts_unchanged) == 2
    assert (await counts(executor, agent_id))["facts"] == 2
