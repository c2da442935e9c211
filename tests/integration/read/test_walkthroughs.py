"""The read-pipeline walkthroughs against the real Neo4j and the real MiniLM embedder:
Marcos Tavares (planner + ranking), Vertix (facts through ABOUT links), Bruno Almeida (rerank
blend through the scripted OpenAI-compatible endpoint)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact
from graph.providers import Embedder
from graph.providers.base import LLMResponse
from tests.fakes import ScriptedLLM
from tests.integration.read.data import (
    VERTIX_ENTITIES,
    VERTIX_FACTS,
    remember_marcos,
)

pytestmark = pytest.mark.neo4j


async def test_marcos_tavares_walkthrough(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember_marcos(executor, embedder, agent_id)
    retriever = Retriever(executor, embedder)
    query = "Onde o Marcos Tavares mora?"
    plan, _ = await retriever.plan(agent_id, query)
    again, _ = await retriever.plan(agent_id, query)
    assert plan == again  # deterministic
    named = [e.key for e in plan.entities if e.named]
    assert named == ["person:marcos_tavares"]
    assert {e.key for e in plan.entities if not e.named} == {
        "person:carolina",
        "organization:vertix",
        "place:porto_alegre",
    }
    assert plan.similarity_query == query and plan.strategy == "multi_signal"

    result = await retriever.retrieve(agent_id, query)
    top = result.facts[0]
    assert top.text == "Marcos Tavares lives in Porto Alegre"
    # The only words the query shares with the fact are the name, which the keyword query
    # leaves to the graph signal by default (keyword_names=False); with the names kept, all
    # three signals find it.
    assert {"semantic", "graph"} <= top.sources
    named_kw = await retriever.retrieve(agent_id, query, options={"keyword_names": True})
    assert named_kw.facts[0].id == top.id
    assert {"semantic", "keyword", "graph"} <= named_kw.facts[0].sources
    s = top.scores
    for component in (
        s.semantic,
        s.keyword,
        s.graph,
        s.recency,
        s.importance,
        s.confidence,
        s.formula,
        s.final,
    ):
        assert 0.0 <= component <= 1.0
    assert s.reranker is None  # offline: no rerank; the order is the learned ranker's
    assert top.explanation is not None and top.explanation.model == retriever.model.name
    assert result.context.startswith("Known facts:\n- Marcos Tavares lives in Porto Alegre\n")
    assert top.id not in result.context
    assert result.total_candidates >= len(result.facts) > 0
    assert result.trace["rerank"]["status"] == "off"
    # An alias with an accent resolves to the same entity.
    by_alias, _ = await retriever.plan(agent_id, "Onde o marcão mora?")
    assert [e.key for e in by_alias.entities if e.named] == ["person:marcos_tavares"]


async def test_vertix_facts_found_through_entity_links(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(executor, embedder, agent_id, entities=VERTIX_ENTITIES, facts=VERTIX_FACTS)
    retriever = Retriever(executor, embedder)
    query = "O que aconteceu com a Vertix?"
    plan, _ = await retriever.plan(agent_id, query)
    assert [e.key for e in plan.entities] == ["organization:vertix"]
    # The hop-decayed traversal alone (the graph signal of read/signals), every fact kept.
    alone = {
        "enable_keyword": False,
        "semantic_limit": 1,
        "min_similarity": 1.0,
        "activation_seeds": 0,
        "min_score": 0.0,
    }
    traversed = await retriever.retrieve(agent_id, query, options=alone)
    graph = [f for f in traversed.facts if "graph" in f.sources]
    texts = {f.text for f in graph}
    assert texts == {
        "Clara Rezende left Vertix",
        "Vertix received Series A of R$ 20M",
        "Ricardo Gomes is co-founder of Vertix",
        "Vertix signed contract with Ambev",
    }
    primary_only = [f for f in graph if f.subject_key == "organization:vertix"]
    assert len(graph) == 4 and len(primary_only) == 2  # 4 facts vs 2 without links
    assert all(f.hops == 0 and f.scores.graph > 0.9 for f in graph)

    result = await retriever.retrieve(agent_id, query)
    found = {f.text for f in result.facts if "graph" in f.sources}
    assert found == texts
    assert {f.text for f in result.facts[:4]} == texts


def _scores_reply(scorer: Any) -> Any:
    """A scripted reply that scores every fact of the rerank request with ``scorer(text)``."""

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        facts = json.loads(user)["facts"]
        return {"scores": [{"i": f["i"], "score": scorer(f["text"])} for f in facts]}

    return reply


BRUNO_FACTS = [
    StructuredFact(
        "Bruno Almeida runs marathons", "Bruno Almeida", importance=0.45, confidence=0.95
    ),
    StructuredFact(
        "Bruno Almeida developed an ML model for fraud detection",
        "Bruno Almeida",
        importance=0.92,
        confidence=0.95,
    ),
    StructuredFact(
        "Bruno Almeida works at Orion Tech", "Bruno Almeida", importance=0.35, confidence=0.95
    ),
]


async def remember_bruno(executor: Executor, embedder: Embedder, agent_id: str) -> None:
    """Bruno Almeida (a person) and :data:`BRUNO_FACTS`, imported as given."""
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity("Bruno Almeida", "person")],
        facts=BRUNO_FACTS,
    )


# Formula = importance exactly (other weights and the confidence factor off), so the seed's
# numbers (0.45 / 0.38 / 0.35 → 0.135 …; 0.92 → 0.92) are reproduced through the real stack.
# The seed's arithmetic: the formula reduced to the stored importance, blended with the judge.
EXACT = {
    "weights": {"semantic": 0.0, "recency": 0.0, "importance": 1.0, "keyword": 0.0, "graph": 0.0},
    "confidence_weight": 0.0,
    "pattern_boost_max": 0.0,
    "ranker": "formula",
}


async def test_bruno_almeida_rerank_blend(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember_bruno(executor, embedder, agent_id)
    llm = ScriptedLLM(
        by_stage={
            "relevance judge": [
                _scores_reply(lambda text: 0.0),
                _scores_reply(lambda text: 1.0 if "fraud" in text else 0.0),
            ]
        }
    )
    retriever = Retriever(executor, embedder, llm.chat())
    nothing = await retriever.retrieve(
        agent_id, "Qual o time de futebol do Bruno Almeida?", options=EXACT
    )
    assert nothing.facts == [] and nothing.context == ""
    assert nothing.trace["rerank"]["status"] == "ok" and nothing.trace["rerank"]["pool"] == 3

    result = await retriever.retrieve(agent_id, "O que o Bruno Almeida desenvolveu?", options=EXACT)
    assert [f.text for f in result.facts] == [
        "Bruno Almeida developed an ML model for fraud detection"
    ]
    s = result.facts[0].scores
    assert (s.formula, s.reranker, s.final) == (0.92, 1.0, 0.92)
    assert llm.calls == 2
    assert "Qual o time de futebol" in llm.requests[0]["messages"][1]["content"]


class _SlowLLM:
    """A ChatLLM that never answers in time (a real class, not a mock)."""

    name = "slow"

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        *,
        schema: dict[str, Any] | None = None,
        timeout_s: float | None = None,
    ) -> LLMResponse:
        await asyncio.sleep(30)
        raise AssertionError("unreachable")


async def test_rerank_timeout_and_errors_keep_formula_order(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember_bruno(executor, embedder, agent_id)
    offline = await Retriever(executor, embedder).retrieve(
        agent_id, "What did Bruno Almeida build?"
    )
    slow = await Retriever(executor, embedder, _SlowLLM()).retrieve(
        agent_id, "What did Bruno Almeida build?", options={"reranker_timeout_s": 0.2}
    )
    assert slow.trace["rerank"]["status"] == "timeout"
    assert [f.id for f in slow.facts] == [f.id for f in offline.facts]
    assert all(f.scores.reranker is None for f in slow.facts)

    import httpx

    broken = ScriptedLLM(replies=[httpx.ConnectError("down"), "not json at all"])
    retriever = Retriever(executor, embedder, broken.chat())
    failed = await retriever.retrieve(agent_id, "What did Bruno Almeida build?")
    assert failed.trace["rerank"]["status"] == "error"
    assert [f.id for f in failed.facts] == [f.id for f in offline.facts]
    garbage = await retriever.retrieve(agent_id, "What did Bruno Almeida build?")
    assert garbage.trace["rerank"]["status"] == "unparseable"
    assert [f.id for f in garbage.facts] == [f.id for f in offline.facts]
