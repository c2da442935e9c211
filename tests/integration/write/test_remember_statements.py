"""A structured import's writes are a bounded number of statements and database hits per row
(PROFILE counts, not timings): the new facts and their ABOUT links are one statement, the
entity and fact lookups stay on their unique constraints, and the import's time is sent once
rather than as a datetime per fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.executor import Executor, Neo4jExecutor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder
from tests.bench.profiling import ProfilingExecutor
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

N_FACTS = 60


def _corpus() -> tuple[list[StructuredEntity], list[StructuredFact], list[StructuredRelation]]:
    names = [f"Place {i}" for i in range(12)]
    entities = [StructuredEntity(n, "place", aliases=[f"{n} town"]) for n in names]
    facts = [
        StructuredFact(
            f"{names[i % 12]} is near {names[(i + 1) % 12]} (record {i})",
            names[i % 12],
            entities=[names[(i + 1) % 12], names[(i + 2) % 12]],
            id=f"f{i}",
        )
        for i in range(N_FACTS)
    ]
    relations = [StructuredRelation(names[i], names[i + 1], "near") for i in range(11)]
    return entities, facts, relations


async def test_an_import_writes_facts_and_links_in_bounded_statements_and_hits(
    executor: Executor, agent_id: str, hash_embedder: Embedder
) -> None:
    assert isinstance(executor, Neo4jExecutor)
    prof = ProfilingExecutor(executor)
    entities, facts, relations = _corpus()
    before = datetime.now(UTC)
    res = await remember(prof, hash_embedder, agent_id, entities, facts, relations)
    assert res.complete and res.facts_added == N_FACTS
    # One statement creates the facts with their 3 ABOUT links each.
    fact_writes = {name: hits for name, hits in prof.hits.items() if "fact" in name}
    assert set(fact_writes) == {
        "write/facts_by_hash",
        "write/facts_by_id",
        "remember/create_facts",
    }
    # Per fact: its MERGE and properties, three entity seeks and link merges (measured: 62;
    # 68 as two statements; an entity index scan per link instead of a seek: 98 at this size,
    # growing with the agent).
    assert prof.hits["remember/create_facts"] <= 75 * N_FACTS
    assert sum(prof.hits.values()) <= 100 * N_FACTS

    rows = await executor.run_text(
        load_query("remember_fact_links"), {"agent_id": agent_id}, read=True
    )
    assert len(rows) == N_FACTS and all(len(r["about"]) == 3 for r in rows)
    times = await executor.run_text(
        load_query("remember_fact_times"), {"agent_id": agent_id}, read=True
    )
    # Every fact: the same import time (sent once), exactly one primary link.
    (only,) = times
    assert only["created_at"] == only["valid_from"] == only["last_confirmed_at"]
    assert before <= only["created_at"] <= datetime.now(UTC) and only["primary"] == 1
