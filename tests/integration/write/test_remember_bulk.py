"""Bulk structured import: caller-supplied vectors are stored as given (the embedder only sees
what has no vector), bad vectors are refused before anything is stored, and names resolve to
the same entity node across batch boundaries."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import HashEmbedder
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j


class CountingEmbedder:
    """The hash embedder, remembering every text it was asked to embed."""

    def __init__(self) -> None:
        self.inner = HashEmbedder(384)
        self.name, self.dimensions = self.inner.name, self.inner.dimensions
        self.texts: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts += list(texts)
        return await self.inner.embed(texts)


def _unit(i: int) -> list[float]:
    return [1.0 if j == i else 0.0 for j in range(384)]


async def _facts(executor: Executor, agent_id: str) -> dict[str, dict]:
    rows = await executor.run_text(
        load_query("remember_fact_links"), {"agent_id": agent_id}, read=True
    )
    return {r["id"]: r for r in rows}


async def _entities(executor: Executor, agent_id: str) -> dict[str, dict]:
    rows = await executor.run_text(
        load_query("remember_entity_vectors"), {"agent_id": agent_id}, read=True
    )
    return {r["key"]: r for r in rows}


async def test_caller_vectors_are_stored_as_given_and_not_embedded(
    executor: Executor, agent_id: str
) -> None:
    emb = CountingEmbedder()
    res = await remember(
        executor,
        emb,
        agent_id,
        entities=[
            StructuredEntity("Ada Lovelace", "person", embedding=_unit(1)),
            StructuredEntity("Analytical Engine", "thing"),
        ],
        facts=[
            StructuredFact(
                "Ada Lovelace wrote the first program",
                "Ada Lovelace",
                entities=["Analytical Engine"],
                id="f-given",
                embedding=_unit(2),
            ),
            StructuredFact("Ada Lovelace was born in London", "Ada Lovelace", id="f-embedded"),
        ],
    )
    assert res.facts_added == 2
    # Only what came without a vector reached the embedder.
    assert sorted(emb.texts) == ["Ada Lovelace was born in London", "Analytical Engine"]
    facts = await _facts(executor, agent_id)
    assert facts["f-given"]["embedding"] == _unit(2)
    assert facts["f-embedded"]["embedding"] == pytest.approx(
        emb.inner.embed_one("Ada Lovelace was born in London")
    )
    ents = await _entities(executor, agent_id)
    assert ents["person:ada_lovelace"]["embedding"] == _unit(1)


@pytest.mark.parametrize("vector", [[0.1] * 3, [float("nan")] * 384])
async def test_a_bad_caller_vector_is_refused_before_anything_is_stored(
    executor: Executor, agent_id: str, vector: list[float]
) -> None:
    with pytest.raises(BadInput, match=r"facts\[1\]\.embedding"):
        await remember(
            executor,
            CountingEmbedder(),
            agent_id,
            entities=[StructuredEntity("Ada Lovelace", "person")],
            facts=[
                StructuredFact("Ada wrote notes", "Ada Lovelace"),
                StructuredFact("Ada met Babbage", "Ada Lovelace", embedding=vector),
            ],
        )
    assert await _facts(executor, agent_id) == {}
    assert await _entities(executor, agent_id) == {}


async def test_names_resolve_to_one_node_across_batches(executor: Executor, agent_id: str) -> None:
    # One row per batch: the entity, its alias and the facts and relations naming them are
    # all written by different transactions.
    res = await remember(
        executor,
        HashEmbedder(384),
        agent_id,
        batch_size=1,
        entities=[
            StructuredEntity("Ada Lovelace", "person", aliases=["Countess of Lovelace"]),
            StructuredEntity("Charles Babbage", "person"),
        ],
        facts=[
            StructuredFact("Ada Lovelace wrote notes", "Ada Lovelace", id="f1"),
            StructuredFact(
                "The Countess of Lovelace translated a paper", "countess of lovelace", id="f2"
            ),
            StructuredFact(
                "Babbage designed the engine",
                "Charles Babbage",
                entities=["Ada Lovelace", "Analytical Engine"],
                id="f3",
            ),
            StructuredFact("The engine was never finished", "Analytical Engine", id="f4"),
        ],
        relations=[
            StructuredRelation(
                "Countess of Lovelace", "Charles Babbage", "worked with", evidence_fact_id="f2"
            )
        ],
    )
    assert res.complete and res.facts_added == 4 and res.relations == 1
    ents = await _entities(executor, agent_id)
    assert sorted(ents) == [
        "person:ada_lovelace",
        "person:charles_babbage",
        "thing:analytical_engine",
    ]
    facts = await _facts(executor, agent_id)
    ada, engine = ents["person:ada_lovelace"]["eid"], ents["thing:analytical_engine"]["eid"]
    assert facts["f1"]["about"] == [ada] and facts["f2"]["about"] == [ada]
    assert ada in facts["f3"]["about"] and engine in facts["f3"]["about"]
    assert facts["f4"]["about"] == [engine]

    # A second import in batches resolves the same names to the same nodes, nothing new.
    again = await remember(
        executor,
        HashEmbedder(384),
        agent_id,
        batch_size=1,
        facts=[
            StructuredFact("Ada Lovelace wrote notes", "Countess of Lovelace"),
            StructuredFact(
                "Ada corresponded with Babbage",
                "Ada Lovelace",
                entities=["Analytical Engine"],
                id="f5",
            ),
        ],
    )
    assert again.facts_unchanged == 1 and again.facts_added == 1
    assert len(await _entities(executor, agent_id)) == 3
    facts = await _facts(executor, agent_id)
    assert sorted(facts["f5"]["about"]) == sorted([ada, engine])
