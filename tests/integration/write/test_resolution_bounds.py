"""Entity resolution and reconciliation candidates read through the vector indexes once an
agent (a subject) is large, so their database hits do not grow with it (PROFILE, not timings).
Small agents keep the exact scan (tests/unit/write/test_overfetch.py holds the rules)."""

from __future__ import annotations

import random
import string
import uuid
from collections.abc import AsyncIterator

import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor, Neo4jExecutor
from graph.memory.remember import remember
from graph.memory.text import fold
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.memory.write.config import Scan
from graph.memory.write.extract.context import load_context
from graph.memory.write.reconcile.candidates import load_fact_candidates
from graph.memory.write.resolve.candidates import load_entity_candidates
from graph.providers import Embedder
from graph.vector_search import detect
from tests.bench.profiling import ProfilingExecutor, operators

pytestmark = pytest.mark.neo4j

NAMES = ["Marta Okafor", "Lisbon", "Vertix Labs", "Carla", "Santa Maria hospital"]
SCAN = Scan(entity_max=200, fact_max=200, cap=4_096)


def _people(n: int) -> list[StructuredEntity]:
    return [StructuredEntity(f"Person {i} Lastname{i % 97}", "person") for i in range(n)]


@pytest.fixture
async def big_agent(executor: Executor) -> AsyncIterator[str]:
    agent = f"test-{uuid.uuid4().hex[:12]}"
    yield agent
    await delete_agent(executor, agent)


def _unseen_names(n: int) -> list[str]:
    """Names made of words no other test writes (random letters): the over-fetch of the shared
    entity index on Neo4j 5.26 also grows with how many *other* agents hold a name near the
    asked one, which depends on what the test database holds at that moment; these names keep
    such a crowd out of a test about the agent's own size."""
    rng = random.Random(uuid.uuid4().int)

    def word() -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(9)).title()

    return [f"{word()} {word()}" for _ in range(n)]


def _hits_by_operator(prof: ProfilingExecutor) -> dict[str, list[str]]:
    """Each profiled plan as `operator db-hits details` lines (a failure's evidence)."""

    def lines(plan: dict[str, object], depth: int = 0) -> list[str]:
        args = plan.get("args")
        details = str(args.get("Details", "")) if isinstance(args, dict) else ""
        own = f"{'  ' * depth}{plan.get('operatorType')} {plan.get('dbHits')} {details[:120]}"
        children = plan.get("children")
        return [own] + [
            line
            for c in (children if isinstance(children, list) else [])
            for line in lines(c, depth + 1)
        ]

    return {name: lines(plan) for name, plan in prof.plans.items()}


async def _resolution_hits(
    executor: Executor,
    embedder: Embedder,
    agent: str,
    names: list[str] = NAMES,
) -> tuple[int, ProfilingExecutor, list[dict[str, object]]]:
    assert isinstance(executor, Neo4jExecutor)
    prof = ProfilingExecutor(executor)
    vecs = await embedder.embed(names)
    rows = [
        {"index": i, "norm": fold(n), "embedding": v}
        for i, (n, v) in enumerate(zip(names, vecs, strict=True))
    ]
    await load_entity_candidates(prof, agent, [fold(n) for n in names], [], rows, 3, 0.5, SCAN)
    return sum(prof.hits.values()), prof, rows


async def test_resolution_of_a_large_agent_uses_the_entity_vector_index(
    executor: Executor, agent_id: str, big_agent: str, hash_embedder: Embedder
) -> None:
    await remember(executor, hash_embedder, agent_id, entities=_people(300))
    await remember(executor, hash_embedder, big_agent, entities=_people(1_500))
    names = _unseen_names(len(NAMES))
    small, _, _ = await _resolution_hits(executor, hash_embedder, agent_id, names)
    large, prof, rows = await _resolution_hits(executor, hash_embedder, big_agent, names)
    # Neo4j 2026: in-index filtered search of the agent's own entities; 5.26: global over-fetch.
    filtered = (await detect(executor)).filtered_for("entity")
    statement = "write/nearest_entities_search" if filtered else "write/nearest_entities_index"
    assert statement in prof.hits, dict(prof.hits)
    assert "write/nearest_entities" not in prof.hits  # no exact scan
    plan_ops = operators(prof.plans[statement])
    assert any("Vector" in op for op in plan_ops) if filtered else "ProcedureCall" in plan_ops, (
        plan_ops
    )
    for name, plan in prof.plans.items():
        assert "NodeByLabelScan" not in operators(plan), name
    # The alias prefix match seeks its prefix, whatever the statistics (no statistics refresh
    # here: on a sample taken before these aliases existed, a seek of the agent's aliases with
    # the prefix as a filter was once chosen; that index offers only the prefix seek now).
    alias_reads = [
        line.strip()
        for line in _hits_by_operator(prof)[statement]
        if "Alias(" in line and "INDEX" in line
    ]
    assert alias_reads, _hits_by_operator(prof)[statement]
    assert all(
        line.startswith("NodeIndexSeekByRange") and "agent_norm STARTS WITH" in line
        for line in alias_reads
    ), alias_reads
    # Five times the entities, about the same database hits (the size probe reads at most
    # entity_max + 1 index entries) — and fewer than the exact scan of the same agent.
    assert large <= small * 1.5 + 100, (small, large, dict(prof.hits), _hits_by_operator(prof))
    scan = ProfilingExecutor(executor)  # type: ignore[arg-type]
    await scan.run(
        "write/nearest_entities",
        {"agent_id": big_agent, "rows": rows, "k": 3, "min_similarity": 0.5},
        read=True,
    )
    assert large < sum(scan.hits.values()), (large, dict(scan.hits))


async def test_small_agents_keep_the_exact_scan_on_their_own_entities(
    executor: Executor, agent_id: str, hash_embedder: Embedder
) -> None:
    await remember(executor, hash_embedder, agent_id, entities=_people(50))
    _, prof, _ = await _resolution_hits(executor, hash_embedder, agent_id)
    assert "write/nearest_entities_index" not in prof.hits
    ops = operators(prof.plans["write/nearest_entities"])
    # Through the agent_id index: never every Entity of every agent.
    assert "NodeByLabelScan" not in ops and "NodeIndexSeek" in ops, ops


async def test_candidates_of_a_large_subject_come_from_the_fact_vector_index(
    executor: Executor, agent_id: str, hash_embedder: Embedder
) -> None:
    facts = [
        StructuredFact(f"Ana noted item {i} about topic {i % 13}", "Ana") for i in range(400)
    ] + [StructuredFact("Bruno likes chess", "Bruno")]
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity("Ana", "person"), StructuredEntity("Bruno", "person")],
        facts=facts,
    )
    assert isinstance(executor, Neo4jExecutor)
    prof = ProfilingExecutor(executor)
    texts = ["Ana noted item 7 about topic 7", "Bruno likes chess a lot"]
    vecs = await hash_embedder.embed(texts)
    rows = [
        {"index": 0, "subject_key": "person:ana", "content_hash": "none", "embedding": vecs[0]},
        {"index": 1, "subject_key": "person:bruno", "content_hash": "none", "embedding": vecs[1]},
    ]
    # The fact vector index is shared with every other test's facts (and their deleted
    # entries): with the production cap a crowded index can end Ana's over-fetch in the exact
    # fallback, which is correct but not what this test is about. A cap past any test
    # database's size keeps her in the index path.
    wide = Scan(entity_max=SCAN.entity_max, fact_max=SCAN.fact_max, cap=200_000)
    cands, _ = await load_fact_candidates(prof, agent_id, rows, 10, [], 0.5, wide)
    assert "ProcedureCall" in operators(prof.plans["write/fact_candidates_index"])
    ana = [c for c in cands if c["index"] == 0]
    assert ana and ana[0]["text"] == "Ana noted item 7 about topic 7" and len(ana) <= 10
    # Bruno's one fact: the exact scan (small subject), same shape of rows, and cheap (asked
    # alone: in a crowded test database Ana may legitimately end in the exact fallback).
    assert [c["text"] for c in cands if c["index"] == 1] == ["Bruno likes chess"]
    prof = ProfilingExecutor(executor)
    await load_fact_candidates(prof, agent_id, rows[1:], 10, [], 0.5, wide)
    assert prof.hits["write/fact_candidates"] < 20, operators(prof.plans["write/fact_candidates"])
    assert prof.hits["write/subject_scope"] < 20, operators(prof.plans["write/subject_scope"])
    # The informed extraction's context of the same subject: its nearest facts, bounded.
    prof = ProfilingExecutor(executor)
    aliases, known = await load_context(prof, agent_id, ["ana"], vecs[0], 10, SCAN)
    assert [a["key"] for a in aliases] == ["person:ana"]
    assert 0 < len(known) <= 10 and all(f["key"] == "person:ana" for f in known)
    assert known[0]["text"] == "Ana noted item 7 about topic 7"
    assert "write/context_facts" not in prof.hits


async def test_single_valued_check_reads_only_the_messages_source_and_type_pairs(
    executor: Executor, agent_id: str, hash_embedder: Embedder
) -> None:
    """``write/active_relations`` answers the (source, type) pairs of the message's
    single-valued relations only: a speaker with many relations of other types (and other
    single-valued types) gives just the one relation a new target would supersede. Its work
    is the source's outgoing relations, whatever the size of the agent or the database."""
    assert isinstance(executor, Neo4jExecutor)
    people = _people(120)
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[
            StructuredEntity("Rafael", "person"),
            *people,
            StructuredEntity("Lisbon", "place"),
        ],
        relations=[
            *[StructuredRelation("Rafael", p.name, "knows") for p in people],
            StructuredRelation("Rafael", "Lisbon", "lives_in"),
            StructuredRelation("Rafael", people[0].name, "works_at"),
        ],
    )
    prof = ProfilingExecutor(executor)
    single = [{"key": "person:rafael", "type": "lives_in"}]
    _, active = await load_fact_candidates(prof, agent_id, [], 10, single, 0.5, SCAN)
    assert [(r["source_key"], r["type"], r["target_key"]) for r in active] == [
        ("person:rafael", "lives_in", "place:lisbon")
    ]
    # the source through the unique (agent_id, key) lookup — not an Entity index scanned and
    # filtered (work growing with the database) — then its outgoing relations (122 here)
    assert operators(prof.plans["write/active_relations"])[-1] == "NodeUniqueIndexSeek"
    assert prof.hits["write/active_relations"] <= 4 * 122 + 20
