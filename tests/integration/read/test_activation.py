"""Spreading activation against the real Neo4j: from the best fact through a relation whose
type the question uses to the facts about the far entity (the second hop of a multi-hop
question)."""

from __future__ import annotations

from collections import Counter

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder
from graph.vector_search import detect

pytestmark = pytest.mark.neo4j

ENTITIES = [
    StructuredEntity("Journal of Tidal Studies"),
    StructuredEntity("Harbour Society"),
    StructuredEntity("Mara Quill", "person"),
    StructuredEntity("Tom Reed", "person"),
]
FACTS = [
    StructuredFact(
        "The Journal of Tidal Studies is a quarterly journal on coastal tides.",
        "Journal of Tidal Studies",
        id="br-journal",
    ),
    StructuredFact(
        "Mara Quill was the founding chair of the Harbour Society.",
        "Mara Quill",
        entities=["Harbour Society"],
        id="br-society",
    ),
    StructuredFact("Tom Reed grows tomatoes in his garden.", "Tom Reed", id="br-other"),
]
RELATIONS = [StructuredRelation("Journal of Tidal Studies", "Harbour Society", "published by")]
QUERY = "Who chaired the group that published the Journal of Tidal Studies?"
OPTIONS = {"enable_reranker": False, "min_score": 0.0, "topk_facts": 50}


async def test_activation_reaches_the_far_end_of_a_relation_the_question_uses(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(
        executor, embedder, agent_id, entities=ENTITIES, facts=FACTS, relations=RELATIONS
    )
    retriever = Retriever(executor, embedder)
    off = await retriever.retrieve(agent_id, QUERY, options={**OPTIONS, "activation_seeds": 0})
    assert off.trace["activation"] == {"status": "off"}
    on = await retriever.retrieve(agent_id, QUERY, options={**OPTIONS, "activation_seeds": 1})
    facts = {f.id: f for f in on.facts}
    assert on.trace["activation"]["rows"] >= 1
    # The society's fact is about the relation's far end: reached, scored below its seed.
    society = facts["br-society"]
    assert "activation" in society.sources and society.scores.activation > 0.0
    assert facts["br-journal"].scores.final >= society.scores.final
    assert facts.get("br-other") is None or facts["br-other"].scores.activation == 0.0


async def test_early_activation_starts_from_the_semantic_hits(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """``activation_early`` (default): the agent's semantic part runs as its own statement
    beside the signals statement (an exact scan of this small agent, or in-index filtered
    search where the server has it: here with a lowered ``search_min_facts``), activation
    starts from its hits, and reaches the same far end as activation after the first
    ranking."""
    await remember(
        executor, embedder, agent_id, entities=ENTITIES, facts=FACTS, relations=RELATIONS
    )
    retriever = Retriever(executor, embedder)
    options = {**OPTIONS, "activation_seeds": 1, "search_min_facts": 1}
    late = await retriever.retrieve(agent_id, QUERY, options={**options, "activation_early": False})
    early = await retriever.retrieve(agent_id, QUERY, options=options)  # the default
    filtered = (await detect(executor)).filtered_for("fact")
    assert late.trace["activation"]["early"] is False
    assert late.trace["signals"]["alongside"] == (["semantic"] if filtered else [])
    assert early.trace["activation"]["early"] is True
    assert early.trace["signals"]["alongside"] == ["semantic"]
    assert early.trace["signals"]["semantic"]["strategy"] == ("search" if filtered else "exact")
    assert [f.id for f in early.facts] == [f.id for f in late.facts]
    society = {f.id: f for f in early.facts}["br-society"]
    assert "activation" in society.sources and society.scores.activation > 0.0


async def test_the_read_budget_stops_at_the_best_entities(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """Every fact activation reads costs a vector read and a cosine: entities are read best
    first (here: the fewest facts, all reached at hop 0) while the ABOUT degree of the ones
    read before stays under ``budget``."""
    members = ["Ada Moss", "Ben Fell", "Cy Tarn"]
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[
            StructuredEntity("Reading Circle"),
            *(StructuredEntity(m, "person") for m in members),
        ],
        facts=[
            StructuredFact(
                "Ada Moss, Ben Fell and Cy Tarn met at the Reading Circle.",
                "Reading Circle",
                entities=members,
                id="rb-seed",
            ),
            *(
                StructuredFact(f"{m} {what}.", m, id=f"rb-{m[:2]}-{i}")
                for m in members
                for i, what in enumerate(["rows on the lake", "bakes rye bread"])
            ),
        ],
    )
    params = {
        "agent_id": agent_id,
        "as_of": None,
        "min_confidence": 0.0,
        "vector": (await embedder.embed(["Who bakes bread?"]))[0],
        "seeds": [{"id": "rb-seed", "score": 1.0}],
        "terms": [],
        "shared": 0.5,
        "unmatched": 0.5,
        "hub_max": 100,
        "agent_facts": 7,
        "max_entities": 20,
        "per_entity": 3,
        "scan": 240,
        "glosses": True,
    }

    async def reached(budget: int) -> Counter[str]:
        rows = await executor.run("traversal/spreading_activation", {**params, "budget": budget})
        return Counter(row["key"] for row in rows)  # facts read per entity

    everyone = await reached(100)
    assert sorted(everyone.values()) == [2, 2, 2]  # each member's own facts; the seed is not
    # The circle (1 fact: the seed) ranks first and is read; the next, 3 facts, fits under 2.
    first = await reached(2)
    assert len(first) == 1 and next(iter(first.values())) == 2
    assert set(first) < set(everyone)
    assert await reached(1) == {}  # only the circle fits, and its one fact is the seed
    assert len(await reached(5)) == 2  # 1 + 3 read before the third member
