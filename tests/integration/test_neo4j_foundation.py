"""The foundation against the real server: schema, vector and full-text indexes, APOC."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity
from graph.providers import MiniLMEmbedder
from graph.schema import SCHEMA_VERSION, ensure_schema, schema_state
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j


async def test_server_is_neo4j_5_26(executor: Executor) -> None:
    comp = (await executor.run("schema/components", read=True))[0]
    assert comp["version"].startswith("5.26.")


async def test_apoc_is_loaded(executor: Executor) -> None:
    # Only the routines the code calls are loaded (graph/runtime/local_neo4j.py APOC_USED).
    plugins = (await executor.run("schema/procedures_like", read=True))[0]
    assert plugins["apoc"] >= 1
    version = (await executor.run("schema/apoc_version", read=True))[0]["version"]
    assert version.startswith("5.26.")


async def test_ensure_schema_is_idempotent_and_online(executor: Executor) -> None:
    first = await ensure_schema(executor, 384)
    second = await ensure_schema(executor, 384)
    assert first.version == second.version >= SCHEMA_VERSION
    assert first.missing == second.missing == ()
    assert first.indexes.keys() == second.indexes.keys()
    for name in (
        "fact_embedding",
        "event_embedding",
        "entity_embedding",
        "fact_text",
        "event_text",
        "entity_names",
        "entity_key",
        "alias_norm",
        "alias_agent_norm",
        "relates_evidence",
    ):
        assert second.indexes[name] == "ONLINE", name


async def test_aliases_written_before_the_prefix_key_get_it_from_the_migration(
    executor: Executor, hash_embedder, agent_id: str
) -> None:
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity(n, "person") for n in ("Ana Souza", "Anabela Reis", "Rui")],
    )
    keys = await executor.run_text(load_query("alias_keys"), {"agent_id": agent_id})
    want = [(k["norm"], f"{len(agent_id)}:{agent_id}:{k['norm']}") for k in keys]
    assert len(keys) >= 3 and [(k["norm"], k["agent_norm"]) for k in keys] == want
    # as a database from before the migration: the key missing, the migration not applied
    await executor.run_text(load_query("strip_alias_keys"), {"agent_id": agent_id})
    name = "schema/v010_alias_prefix"
    try:
        await executor.run_text(load_query("forget_migration"), {"name": name})
        assert name in (await schema_state(executor)).missing
        await ensure_schema(executor, 384)
    finally:
        await ensure_schema(executor, 384)  # the meta node names every migration again
    keys = await executor.run_text(load_query("alias_keys"), {"agent_id": agent_id})
    assert [(k["norm"], k["agent_norm"]) for k in keys] == want
    assert (await schema_state(executor)).missing == ()
    # aliases an older process writes after the migration get the key at the next start
    await executor.run_text(load_query("strip_alias_keys"), {"agent_id": agent_id})
    await ensure_schema(executor, 384)
    keys = await executor.run_text(load_query("alias_keys"), {"agent_id": agent_id})
    assert [(k["norm"], k["agent_norm"]) for k in keys] == want
    # and the prefix match finds the person by the start of a name again
    near = await executor.run(
        "write/nearest_entities",
        {
            "agent_id": agent_id,
            "rows": [{"index": 0, "norm": "ana", "embedding": [0.0] * 383 + [1.0]}],
            "k": 5,
            "min_similarity": 0.99,
        },
        read=True,
    )
    assert sorted(r["name"] for r in near) == ["Ana Souza", "Anabela Reis"]


async def test_schema_refuses_other_dimension(executor: Executor) -> None:
    from graph.schema import DimensionMismatch

    with pytest.raises(DimensionMismatch):
        await ensure_schema(executor, 768)
    assert (await schema_state(executor)).dimensions == 384


async def test_vector_index_returns_nearest_neighbour(
    executor: Executor, minilm: MiniLMEmbedder, agent_id: str
) -> None:
    texts = [
        "Clara Rezende lives in Porto Alegre",
        "The quarterly budget was approved by the board",
        "Bruno enjoys playing the guitar on weekends",
    ]
    vectors = await minilm.embed(texts)
    await executor.run_text(
        load_query("create_facts"),
        {
            "agent_id": agent_id,
            "rows": [{"text": t, "embedding": v} for t, v in zip(texts, vectors, strict=True)],
        },
    )
    query = (await minilm.embed(["Where does Clara live?"]))[0]
    # The bare index is global (top-k, then the agent filter): ask for every fact in the database
    # so facts of other agents (a shared dev server, benchmarks) cannot crowd this agent's out.
    total = (await executor.run_text(load_query("count_all_facts"), {}, read=True))[0]["facts"]
    rows = await executor.run_text(
        load_query("vector_top"),
        {"agent_id": agent_id, "vector": query, "k": max(50, total)},
        read=True,
    )
    assert len(rows) == len(texts)
    assert rows[0]["text"] == texts[0]
    assert rows[0]["score"] > rows[1]["score"]


async def test_fulltext_index_finds_words(executor: Executor, hash_embedder, agent_id: str) -> None:
    texts = ["Marcos Tavares mora em Porto Alegre", "Vertix hired Orion Tech for the audit"]
    vectors = await hash_embedder.embed(texts)
    await executor.run_text(
        load_query("create_facts"),
        {
            "agent_id": agent_id,
            "rows": [{"text": t, "embedding": v} for t, v in zip(texts, vectors, strict=True)],
        },
    )
    rows = await executor.run_text(
        load_query("fulltext_top"), {"agent_id": agent_id, "q": "orion"}, read=True
    )
    assert [r["text"] for r in rows] == [texts[1]]
