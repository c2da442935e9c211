"""Walkthrough data of the read-pipeline seed (Marcos Tavares, Vertix, Bruno Almeida) as
structured ``remember`` input, shared by the read integration tests."""

from __future__ import annotations

from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder

MARCOS_ENTITIES = [
    StructuredEntity("Marcos Tavares", "person", aliases=["Marcão"]),
    StructuredEntity("Carolina", "person"),
    StructuredEntity("Porto Alegre", "place"),
    StructuredEntity("Vertix", "organization"),
    StructuredEntity("Bruno Almeida", "person"),
    StructuredEntity("Orion Tech", "organization"),
]
MARCOS_FACTS = [
    StructuredFact(
        "Marcos Tavares lives in Porto Alegre",
        "Marcos Tavares",
        entities=["Porto Alegre"],
        confidence=0.95,
    ),
    StructuredFact(
        "Marcos Tavares is a product manager at Vertix",
        "Marcos Tavares",
        entities=["Vertix"],
        confidence=0.95,
    ),
    StructuredFact(
        "Marcos Tavares is married to Carolina",
        "Marcos Tavares",
        entities=["Carolina"],
        confidence=0.95,
    ),
    StructuredFact("Carolina is an architect", "Carolina", confidence=0.95),
    StructuredFact("Bruno Almeida runs marathons", "Bruno Almeida", confidence=0.95),
    StructuredFact(
        "Bruno Almeida developed an ML model for fraud detection", "Bruno Almeida", confidence=0.95
    ),
    StructuredFact(
        "Bruno Almeida works at Orion Tech",
        "Bruno Almeida",
        entities=["Orion Tech"],
        confidence=0.95,
    ),
]
MARCOS_RELATIONS = [
    StructuredRelation("Marcos Tavares", "Carolina", "married_to"),
    StructuredRelation("Marcos Tavares", "Vertix", "works_at"),
    StructuredRelation("Marcos Tavares", "Porto Alegre", "lives_in"),
    StructuredRelation("Bruno Almeida", "Orion Tech", "works_at"),
]

VERTIX_ENTITIES = [
    StructuredEntity("Vertix", "organization"),
    StructuredEntity("Clara Rezende", "person"),
    StructuredEntity("Ricardo Gomes", "person"),
    StructuredEntity("Ambev", "organization"),
]
VERTIX_FACTS = [
    StructuredFact("Clara Rezende left Vertix", "Clara Rezende", entities=["Vertix"]),
    StructuredFact("Vertix received Series A of R$ 20M", "Vertix"),
    StructuredFact("Ricardo Gomes is co-founder of Vertix", "Ricardo Gomes", entities=["Vertix"]),
    StructuredFact("Vertix signed contract with Ambev", "Vertix", entities=["Ambev"]),
    StructuredFact("Clara Rezende enjoys rock climbing", "Clara Rezende"),
    StructuredFact("Ambev is a brewing company", "Ambev"),
]


async def remember_marcos(executor: Executor, embedder: Embedder, agent_id: str) -> None:
    """Store the whole walkthrough (entities, facts, relations) for ``agent_id``."""
    await remember(
        executor,
        embedder,
        agent_id,
        entities=MARCOS_ENTITIES,
        facts=MARCOS_FACTS,
        relations=MARCOS_RELATIONS,
    )
