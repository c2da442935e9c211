"""Fact, entity, event, observation and chunk vectors are stored as 32-bit floats
(``db.create.setNodeVectorProperty``) on every path that writes one: a written message,
``remember``, consolidation, document ingest, an import and a re-embedding (which writes every
label's vectors so). Every cosine of the graph walk, spreading activation and the
exact scans reads a fact's vector, entity resolution an entity's; 32 bits halve what they read.
A 64-bit list property would hold the embedder's values unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from graph.executor import Executor
from graph.memory.documents import ingest_document
from graph.memory.jobs import JobDeps, JobQueue, JobsConfig, Worker, WorkerConfig
from graph.memory.maintenance.consolidate import consolidate_agent
from graph.memory.reembed import reembed_agent
from graph.memory.remember import remember
from graph.memory.text import event_embedding_text
from graph.memory.transfer import export_agent, import_agent
from graph.memory.write import StructuredEvent, StructuredFact, WritePipeline
from graph.providers import Embedder
from server.composition import default_handlers
from tests.cypher import load_query
from tests.integration.jobs.test_maintenance import plant

pytestmark = pytest.mark.neo4j

# 0.1 and 1/3 have no exact 32-bit form: stored in 32 bits they read back changed.
VECTOR = [0.1, 1 / 3] + [0.0] * 382


def as_32_bit(vector: list[float]) -> list[float]:
    return np.asarray(vector, dtype=np.float32).astype(np.float64).tolist()


def widen(vector: list[float]) -> list[float]:
    """The values nudged so that they need 64 bits (32 bits round them back)."""
    return [x * (1 + 1e-9) for x in vector]


class Wide:
    """An embedder whose values need 64 bits (the test embedder's are 32-bit values already)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name, self.dimensions = inner.name, inner.dimensions

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return [widen(v) for v in await self.inner.embed(texts)]


async def vectors(executor: Executor, agent_id: str, label: str) -> dict[str, list[float]]:
    rows = await executor.run_text(
        load_query("node_vectors"), {"agent_id": agent_id, "label": label}, read=True
    )
    return {r["text"]: r["embedding"] for r in rows}


async def remember_one(
    executor: Executor, wide: Wide, agent_id: str, fact: str, said: str, who: str
) -> None:
    """One fact (with the caller's ``VECTOR``) about ``who`` and one message ``who`` said."""
    await remember(
        executor,
        wide,  # type: ignore[arg-type]
        agent_id,
        facts=[StructuredFact(fact, who, embedding=VECTOR)],
        events=[StructuredEvent(text=said, speaker=who)],
    )


async def exported(executor: Executor, embedder: Embedder, agent_id: str) -> list[dict]:
    return [
        r
        async for r in export_agent(executor, agent_id, embedder_name=embedder.name, dimensions=384)
    ]


async def test_remember_and_import_store_fact_and_entity_vectors_in_32_bits(
    executor: Executor, hash_embedder: Embedder, agent_id: str, other_agent: str
) -> None:
    wide = Wide(hash_embedder)
    await remember_one(
        executor, wide, agent_id, "Ana lives in Lisbon", "Ana moved to Lisbon.", "Ana"
    )
    [said] = await wide.embed([event_embedding_text("Ana moved to Lisbon.", "Ana")])
    events = await vectors(executor, agent_id, "Event")
    assert events == {"Ana moved to Lisbon.": as_32_bit(said)} and as_32_bit(said) != said
    stored = await vectors(executor, agent_id, "Fact")
    assert stored == {"Ana lives in Lisbon": as_32_bit(VECTOR)}
    assert stored["Ana lives in Lisbon"][:2] != VECTOR[:2]
    entities = await vectors(executor, agent_id, "Entity")
    assert entities
    for name, vector in entities.items():
        [embedded] = await wide.embed([name])
        assert vector == as_32_bit(embedded) != embedded, name

    records = await exported(executor, hash_embedder, agent_id)
    await import_agent(executor, hash_embedder, other_agent, records)
    assert await vectors(executor, other_agent, "Fact") == stored
    assert await vectors(executor, other_agent, "Entity") == entities
    assert await vectors(executor, other_agent, "Event") == events


async def test_a_written_message_stores_its_fact_vectors_in_32_bits(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    wide = Wide(hash_embedder)
    written = await WritePipeline(executor, wide, None).write(  # type: ignore[arg-type]
        agent_id, "My sister Carla moved to Porto last spring.", "Rui"
    )
    assert written.success
    for label in ("Fact", "Entity"):
        stored = await vectors(executor, agent_id, label)
        assert stored, label
        for text, vector in stored.items():
            [embedded] = await wide.embed([text])
            assert vector == as_32_bit(embedded) != embedded, (label, text)
    [event] = (await vectors(executor, agent_id, "Event")).values()
    [said] = await wide.embed(
        [event_embedding_text("My sister Carla moved to Porto last spring.", "Rui")]
    )
    assert event == as_32_bit(said) != said


async def test_re_embedding_writes_32_bit_vectors(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    wide = Wide(hash_embedder)
    await remember_one(
        executor, wide, agent_id, "Rui plays chess", "I play chess on Sundays.", "Rui"
    )
    # every vector as a 64-bit list, as a database written before 32-bit storage holds them
    wide_vector = widen(VECTOR)
    await executor.run_text(
        load_query("set_vectors_wide"), {"agent_id": agent_id, "vector": wide_vector}
    )
    for label in ("Event", "Entity", "Fact"):
        assert set(map(tuple, (await vectors(executor, agent_id, label)).values())) == {
            tuple(wide_vector)
        }, label
    await reembed_agent(executor, wide, agent_id)  # type: ignore[arg-type]
    for label in ("Event", "Entity", "Fact"):
        after = await vectors(executor, agent_id, label)
        assert after, label
        for vector in after.values():
            assert vector == as_32_bit(vector) != wide_vector, label
    [fact] = (await vectors(executor, agent_id, "Fact")).values()
    [embedded] = await wide.embed(["Rui plays chess"])
    assert fact == as_32_bit(embedded)  # the new model's vector, not the caller's


async def test_observations_and_chunks_store_their_vectors_in_32_bits(
    executor: Executor, hash_embedder: Embedder, agent_id: str, other_agent: str
) -> None:
    wide = Wide(hash_embedder)
    await plant(executor, hash_embedder, agent_id)  # a superseded fact: a "change" observation
    made = await consolidate_agent(executor, wide, None, agent_id)  # type: ignore[arg-type]
    assert made.created >= 1
    config = JobsConfig(worker=WorkerConfig(poll_interval_s=0.05, reaper_interval_s=5.0))
    deps = JobDeps(
        executor=executor,
        queue=JobQueue(executor),
        embedder=wide,  # type: ignore[arg-type]
        config=config,
        writer=WritePipeline(executor, wide, None),  # type: ignore[arg-type]
    )
    await ingest_document(
        executor,
        deps.queue,
        agent_id,
        text="# Notes\n\nClara Rezende loves hiking in the mountains every weekend.",
        fmt="markdown",
        config=config.documents,
    )
    await Worker(deps, default_handlers(), agent_id=agent_id).run_until_idle()
    stored = {label: await vectors(executor, agent_id, label) for label in ("Observation", "Chunk")}
    for label, by_text in stored.items():
        assert by_text, label
        for text, vector in by_text.items():
            [embedded] = await wide.embed([text])
            assert vector == as_32_bit(vector) != embedded, (label, text)

    records = await exported(executor, hash_embedder, agent_id)
    # an export of a database written before 32-bit storage carries 64-bit values
    for record in records:
        if record.get("kind") in ("observation", "chunk"):
            record["props"]["embedding"] = widen(record["props"]["embedding"])
    await import_agent(executor, hash_embedder, other_agent, records)
    for label, by_text in stored.items():
        imported = await vectors(executor, other_agent, label)
        assert set(imported) == set(by_text), label
        for text, vector in imported.items():
            assert vector == as_32_bit(vector) == by_text[text], (label, text)
