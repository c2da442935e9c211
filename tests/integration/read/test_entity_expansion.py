"""Entity-centric expansion (``entity_expansion``): the facts of the entities a question names
and of their co-mentioned neighbours join the candidates, scored by specificity — against the
real Neo4j."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.write import StructuredEntity, StructuredFact, remember
from graph.providers import Embedder

pytestmark = pytest.mark.neo4j

ENTITIES = [
    StructuredEntity("Ana", "person"),
    StructuredEntity("Pedro", "person"),
    StructuredEntity("Riverside Book Club", "organization"),
]
FACTS = [
    StructuredFact(
        "Ana joined the Riverside Book Club last spring",
        "Ana",
        entities=["Riverside Book Club"],
        id="ee-club-ana",
    ),
    StructuredFact(
        "Pedro leads the Riverside Book Club meetings",
        "Pedro",
        entities=["Riverside Book Club"],
        id="ee-club-pedro",
    ),
    StructuredFact("Pedro collects vintage stamps from Portugal", "Pedro", id="ee-stamps"),
    StructuredFact("Ana runs along the river every morning", "Ana", id="ee-run"),
]
QUERY = "What happens at the Riverside Book Club?"
OPTIONS = {"enable_reranker": False, "min_score": 0.0, "topk_facts": 50}


async def test_named_expansion_reaches_co_mentioned_neighbours(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(executor, embedder, agent_id, entities=ENTITIES, facts=FACTS)
    retriever = Retriever(executor, embedder)
    off = {f.id: f for f in (await retriever.retrieve(agent_id, QUERY, options=OPTIONS)).facts}
    on_result = await retriever.retrieve(
        agent_id, QUERY, options={**OPTIONS, "entity_expansion": "named"}
    )
    on = {f.id: f for f in on_result.facts}
    # Pedro is co-mentioned with the club (no RELATES_TO anywhere): his other fact is reached
    # one hop away only with the expansion on.
    assert "ee-stamps" not in off or off["ee-stamps"].scores.graph == 0.0
    assert "entity" in on["ee-stamps"].sources and on["ee-stamps"].hops == 1
    assert on["ee-stamps"].scores.graph > 0.0
    # The club's own facts (hop 0) weigh more than a neighbour's.
    assert on["ee-club-pedro"].hops == 0
    assert on["ee-club-pedro"].scores.graph > on["ee-stamps"].scores.graph
    assert on_result.trace["entity_expansion"]["rows"] >= 3
    assert (
        "entity_expansion" not in (await retriever.retrieve(agent_id, QUERY, options=OPTIONS)).trace
    )


async def test_feedback_expansion_seeds_from_the_best_hits(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(executor, embedder, agent_id, entities=ENTITIES, facts=FACTS)
    retriever = Retriever(executor, embedder)
    query = "Which book group meets to discuss novels?"  # names no entity
    named = await retriever.retrieve(
        agent_id, query, options={**OPTIONS, "entity_expansion": "named"}
    )
    assert "entity_expansion" in named.trace and named.trace["entity_expansion"]["rows"] == 0
    feedback = await retriever.retrieve(
        agent_id, query, options={**OPTIONS, "entity_expansion": "feedback"}
    )
    reached = {f.id for f in feedback.facts if "entity" in f.sources}
    assert {"ee-club-ana", "ee-club-pedro"} <= reached
