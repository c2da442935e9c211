"""English glosses on the LLM path: a fact the informed extraction returns in Portuguese with
a ``gloss_en`` is stored with the gloss and its vector (embedded in the same batch as the
facts), an English question meets the fact through that vector where its text's vector alone
ranks it lower, the gloss is never shown, an English fact gets none, structured ``remember``
takes one, export/import and re-embedding carry it, and erase leaves nothing of it. The
embedder is e5 (the multilingual default): a hashing embedder has no meaning to test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from graph.executor import Executor
from graph.memory.erase import erase_fact
from graph.memory.read import Retriever
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.reembed import reembed_agent
from graph.memory.remember import remember
from graph.memory.transfer.exporter import export_agent
from graph.memory.transfer.importer import import_agent
from graph.memory.write import StructuredFact, WritePipeline
from graph.providers import E5Embedder
from graph.providers.base import read_options
from tests.cypher import load_query
from tests.fakes import ScriptedLLM
from tests.integration.gql.support import gql, memory_for
from tests.integration.write.helpers import SPEAKER, extraction

pytestmark = pytest.mark.neo4j

INFORMED = "Stage: extract_informed"
MESSAGE = "O navio coletou amostras de sedimentos no fundo do mar perto da costa de Santos."
PT = "O navio de pesquisa coletou amostras de sedimentos no fundo do mar perto da costa de Santos"
GLOSS = "The research vessel collected seabed sediment samples near the coast of Santos"
# English facts near the question: by its text's vector alone (even with e5's cross-language
# gap added back) the Portuguese fact ranks below the first two; by its gloss's, above all.
OTHERS = [
    "The research ship mapped the sea floor with sonar",
    "The research ship mapped the sea floor near the coast with sonar",
    "The research vessel collected water samples from the sea surface",
    "The research ship's crew sampled fish from the sea near the coast",
    "The research ship took plankton samples in the open sea",
]
QUESTION = "Where did the research ship take sediment samples from the sea floor?"
QUESTION_PT = "Onde o navio de pesquisa coletou amostras de sedimentos do fundo do mar?"
BASE = {"enable_reranker": False, "min_score": 0.0}


class CountingE5:
    """e5, with every batch it was asked to embed kept."""

    def __init__(self, inner: E5Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimensions = inner.dimensions
        self.similarity_floor = inner.similarity_floor
        self.language_gap = inner.language_gap
        self.batches: list[list[str]] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        return await self.inner.embed(texts)

    async def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed_query(texts)


def glossed(text: str, gloss: Any) -> dict[str, Any]:
    answer = extraction([("Santos", "place")], [(SPEAKER, text)])
    answer["facts"][0]["gloss_en"] = gloss
    return answer


async def write_glossed(executor: Executor, embedder: Any, agent_id: str) -> Any:
    llm = ScriptedLLM(by_stage={INFORMED: [glossed(PT, GLOSS)]})
    res = await WritePipeline(executor, embedder, llm.chat()).write(agent_id, MESSAGE, SPEAKER)
    assert res.success, res.error
    return res


async def stored(executor: Executor, agent_id: str) -> list[dict[str, Any]]:
    return await executor.run_text(load_query("fact_glosses"), {"agent_id": agent_id})


def cos(a: Sequence[float], b: Sequence[float]) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def by_semantic(facts: list[ScoredFact]) -> list[str]:
    return [f.text for f in sorted(facts, key=lambda f: -f.scores.semantic)]


async def test_a_portuguese_fact_stores_its_english_gloss_as_a_second_vector(
    executor: Executor, agent_id: str, e5: E5Embedder
) -> None:
    counting = CountingE5(e5)
    res = await write_glossed(executor, counting, agent_id)
    [row] = await stored(executor, agent_id)
    assert (row["text"], row["gloss"], row["gloss_language"]) == (PT, GLOSS, "en")
    (text_vec, gloss_vec) = await e5.embed([PT, GLOSS])
    assert cos(row["embedding"], text_vec) > 0.999
    assert cos(row["gloss_embedding"], gloss_vec) > 0.999
    # one batch holds the fact and its gloss: no embedder call of its own
    [batch] = [b for b in counting.batches if PT in b]
    assert GLOSS in batch
    assert not [w for w in res.warnings if "gloss" in w]


async def test_an_english_question_meets_the_portuguese_fact_through_its_gloss(
    executor: Executor, agent_id: str, e5: E5Embedder
) -> None:
    await remember(
        executor, e5, agent_id, facts=[StructuredFact(text=t, subject="Atlantis") for t in OTHERS]
    )
    await write_glossed(executor, e5, agent_id)
    (q,) = await e5.embed_query([QUESTION])
    (text_vec, gloss_vec) = await e5.embed([PT, GLOSS])
    retriever = Retriever(executor, e5)
    # the semantic part beside the statement (spreading activation starts from it) and inside it
    for path in ({}, {"activation_seeds": 0}):
        got = await retriever.retrieve(agent_id, QUESTION, options={**BASE, **path})
        fact = next(f for f in got.facts if f.text == PT)
        assert fact.scores.semantic == pytest.approx(cos(q, gloss_vec), abs=2e-3), path
        assert by_semantic(got.facts)[0] == PT, path
        assert fact.language == "en"  # the gloss's vector matched: no cross-language gap
        text_only = await retriever.retrieve(
            agent_id, QUESTION, options={**BASE, **path, "enable_gloss": False}
        )
        fact = next(f for f in text_only.facts if f.text == PT)
        assert fact.scores.semantic == pytest.approx(cos(q, text_vec), abs=2e-3), path
        assert (
            fact.scores.semantic + e5.language_gap
            < sorted((f.scores.semantic for f in text_only.facts), reverse=True)[1]
        )
        assert by_semantic(text_only.facts).index(PT) >= 2, path
    # a Portuguese question meets the Portuguese text itself, not the translation
    (q_pt,) = await e5.embed_query([QUESTION_PT])
    got = await retriever.retrieve(agent_id, QUESTION_PT, options=BASE)
    fact = next(f for f in got.facts if f.text == PT)
    assert fact.scores.semantic == pytest.approx(cos(q_pt, text_vec), abs=2e-3)
    assert fact.language == "pt"


@pytest.mark.parametrize(("exact_max", "strategy"), [(1, "exact"), (0, "index")])
async def test_a_large_agent_searches_its_glosses_beside_the_index(
    executor: Executor, agent_id: str, e5: E5Embedder, exact_max: int, strategy: str
) -> None:
    """Past the exact scan's size the text vectors go through the vector index, which holds
    no gloss: the glosses are scanned beside it (read/semantic_glosses_exact), or past that
    size too, searched in their own index (read/semantic_glosses_index)."""
    await remember(
        executor, e5, agent_id, facts=[StructuredFact(text=t, subject="Atlantis") for t in OTHERS]
    )
    await write_glossed(executor, e5, agent_id)
    (q,) = await e5.embed_query([QUESTION])
    (gloss_vec,) = await e5.embed([GLOSS])
    config = RetrieveConfig.of(exact_scan_max_facts=exact_max, overfetch_cap=10**7).with_options(
        read_options(e5)
    )
    for path in ({}, {"activation_early": False}):  # beside the statement, or its re-run
        got = await Retriever(executor, e5, config=config).retrieve(
            agent_id, QUESTION, options={**BASE, **path}
        )
        semantic = got.trace["signals"]["semantic"]
        assert (semantic["strategy"], semantic.get("glosses")) == ("index", strategy), semantic
        fact = next(f for f in got.facts if f.text == PT)
        assert fact.scores.semantic == pytest.approx(cos(q, gloss_vec), abs=2e-3), path
        assert by_semantic(got.facts)[0] == PT


async def test_the_gloss_is_never_shown(executor: Executor, agent_id: str, e5: E5Embedder) -> None:
    await write_glossed(executor, e5, agent_id)
    assert [r["gloss"] for r in await stored(executor, agent_id)] == [GLOSS]  # it is there
    got = await Retriever(executor, e5).retrieve(agent_id, QUESTION, options=BASE)
    assert [f.text for f in got.facts] == [PT]
    assert PT in got.context and "research vessel" not in got.context
    memory = memory_for(executor, e5)
    answer = await gql(
        memory,
        """query($a: ID!, $q: String!) {
             retrieve(agentId: $a, query: $q) { context facts { id text } }
             facts(agentId: $a, first: 10) { edges { node { id text } } } }""",
        {"a": agent_id, "q": QUESTION},
    )
    assert answer.errors is None, answer.errors
    assert [f["text"] for f in answer.data["retrieve"]["facts"]] == [PT]
    assert [e["node"]["text"] for e in answer.data["facts"]["edges"]] == [PT]
    assert "research vessel" not in str(answer.data)


async def test_an_english_fact_gets_no_gloss(
    executor: Executor, agent_id: str, e5: E5Embedder
) -> None:
    english = "The research vessel collected sediment samples near the coast of Santos"
    llm = ScriptedLLM(by_stage={INFORMED: [glossed(english, GLOSS)]})
    res = await WritePipeline(executor, e5, llm.chat()).write(agent_id, english + ".", SPEAKER)
    assert res.success, res.error
    [row] = await stored(executor, agent_id)
    assert row["text"] == english
    assert (row["gloss"], row["gloss_language"], row["gloss_embedding"]) == (None, None, None)
    assert any("gloss_en of a fact in English" in w for w in res.warnings)


async def test_remember_takes_a_gloss(executor: Executor, agent_id: str, e5: E5Embedder) -> None:
    counting = CountingE5(e5)
    result = await remember(
        executor,
        counting,
        agent_id,
        facts=[
            StructuredFact(text=PT, subject="Atlantis", gloss=GLOSS),
            StructuredFact(text=OTHERS[0], subject="Atlantis", gloss=OTHERS[0]),
        ],
    )
    rows = {r["text"]: r for r in await stored(executor, agent_id)}
    assert rows[PT]["gloss"] == GLOSS and rows[PT]["gloss_language"] == "en"
    (gloss_vec,) = await e5.embed([GLOSS])
    assert cos(rows[PT]["gloss_embedding"], gloss_vec) > 0.999
    assert rows[OTHERS[0]]["gloss"] is None  # an English fact's gloss is dropped
    assert any("gloss" in w for w in result.warnings)
    assert [b for b in counting.batches if PT in b] == [[PT, OTHERS[0], GLOSS]]


async def test_export_import_and_reembed_carry_the_gloss(
    executor: Executor, agent_id: str, other_agent: str, e5: E5Embedder
) -> None:
    await write_glossed(executor, e5, agent_id)
    (gloss_vec,) = await e5.embed([GLOSS])
    for embeddings in (True, False):  # the vectors as stored, or made again on import
        records = [
            r
            async for r in export_agent(
                executor,
                agent_id,
                embedder_name=e5.name,
                dimensions=e5.dimensions,
                embeddings=embeddings,
            )
        ]
        [fact] = [r for r in records if r["kind"] == "fact"]
        assert fact["props"]["gloss"] == GLOSS
        assert ("gloss_embedding" in fact["props"]) is embeddings
        imported = await import_agent(executor, e5, other_agent, records)
        assert imported.reembedded is not embeddings
        [row] = await stored(executor, other_agent)
        assert (row["gloss"], row["gloss_language"]) == (GLOSS, "en")
        assert cos(row["gloss_embedding"], gloss_vec) > 0.999
    result = await reembed_agent(executor, e5, other_agent)
    assert result.by_label.get("Gloss") == 1
    [row] = await stored(executor, other_agent)
    assert cos(row["gloss_embedding"], gloss_vec) > 0.999
    assert cos(row["embedding"], (await e5.embed([PT]))[0]) > 0.999


async def test_erase_leaves_nothing_of_the_gloss(
    executor: Executor, agent_id: str, e5: E5Embedder
) -> None:
    res = await write_glossed(executor, e5, agent_id)
    (gloss_vec,) = await e5.embed([GLOSS])
    params = {"agent_id": agent_id, "vector": gloss_vec, "k": 100}
    before = await executor.run_text(load_query("gloss_index_hits"), params, read=True)
    assert before == [{"vector_hits": 1, "glossed": 1}]
    await erase_fact(executor, agent_id, res.facts_added[0].id)
    after = await executor.run_text(load_query("gloss_index_hits"), params, read=True)
    assert after == [{"vector_hits": 0, "glossed": 0}]
    assert await stored(executor, agent_id) == []
