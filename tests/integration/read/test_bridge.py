"""The relation bridge against the real Neo4j: from the best fact through a relation whose
type the question uses to the facts about the far entity (the second hop of a multi-hop
question)."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation, remember
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


async def test_the_bridge_reaches_the_far_end_of_a_relation_the_question_uses(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(
        executor, embedder, agent_id, entities=ENTITIES, facts=FACTS, relations=RELATIONS
    )
    retriever = Retriever(executor, embedder)
    off = await retriever.retrieve(agent_id, QUERY, options={**OPTIONS, "bridge_seeds": 0})
    assert off.trace["bridge"] == {"status": "off"}
    on = await retriever.retrieve(agent_id, QUERY, options={**OPTIONS, "bridge_seeds": 1})
    facts = {f.id: f for f in on.facts}
    assert on.trace["bridge"]["rows"] >= 1
    # The society's fact is about the relation's far end: reached, scored below its seed.
    society = facts["br-society"]
    assert "bridge" in society.sources and society.scores.bridge > 0.0
    assert facts["br-journal"].scores.final >= society.scores.final
    assert facts.get("br-other") is None or facts["br-other"].scores.bridge == 0.0


async def test_an_early_bridge_starts_from_the_semantic_hits_where_the_index_filters(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """``bridge_early`` (default): on a server with in-index filtered search (this agent sent through it
    by a lowered ``search_min_facts``) the bridge starts from the semantic hits while the
    signals statement runs, and reaches the same far end; elsewhere the option changes
    nothing (the bridge waits for the first ranking)."""
    await remember(
        executor, embedder, agent_id, entities=ENTITIES, facts=FACTS, relations=RELATIONS
    )
    filtered = (await detect(executor)).filtered_for("fact")
    retriever = Retriever(executor, embedder)
    options = {**OPTIONS, "bridge_seeds": 1, "search_min_facts": 1}
    late = await retriever.retrieve(agent_id, QUERY, options={**options, "bridge_early": False})
    early = await retriever.retrieve(agent_id, QUERY, options=options)  # the default
    assert late.trace["bridge"]["early"] is False
    assert early.trace["bridge"]["early"] is filtered
    assert early.trace["signals"]["alongside"] == (["semantic"] if filtered else [])
    society = {f.id: f for f in early.facts}["br-society"]
    assert "bridge" in society.sources and society.scores.bridge > 0.0
