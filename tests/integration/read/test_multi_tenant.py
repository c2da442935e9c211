"""Multi-tenant correctness: 2,000 agents × 5 facts whose facts are all CLOSER to the query
(vector and BM25) than the target agent's. A naive global top-k then filter returns nothing for
the target; the retriever's exact scan and adaptive over-fetch both return exactly the
brute-force ranking of the target's own facts."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.read import RetrieveConfig, Retriever
from graph.memory.read.planner import agent_lucene, lucene_query
from graph.memory.read.search import Scope, SearchStats, keyword_facts, semantic_facts
from graph.memory.read.words import keywords
from graph.providers import HashEmbedder
from graph.vector_search import detect
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

CROWD_AGENTS, PER_AGENT, TARGET_FACTS, DIM = 2000, 5, 40, 384
QUERY = "zephyr quartz"


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@dataclass
class Crowd:
    target: str
    crowd: list[str]
    query_vec: list[float]
    target_vecs: dict[str, np.ndarray]


class FixedEmbedder(HashEmbedder):
    """Returns the crafted query vector for the test query (other texts: hashing)."""

    def __init__(self, vector: list[float]) -> None:
        super().__init__(DIM)
        self.vector = vector

    async def embed(self, texts):  # type: ignore[no-untyped-def]
        return [self.vector if t == QUERY else (await super().embed([t]))[0] for t in texts]


@pytest.fixture(scope="module")
async def crowd(executor: Executor) -> AsyncIterator[Crowd]:
    rng = np.random.default_rng(7)
    q = _unit(rng.normal(size=DIM))
    run = uuid.uuid4().hex[:8]
    target = f"test-mt-target-{run}"
    agents = [f"test-mt-{run}-{i}" for i in range(CROWD_AGENTS)]
    at = datetime(2026, 1, 1, tzinfo=UTC)
    rows = []
    for i, agent in enumerate(agents):
        for j in range(PER_AGENT):
            vec = _unit(q + 0.25 * rng.normal(size=DIM) / np.sqrt(DIM) * 4)
            rows.append(
                {
                    "id": str(uuid.uuid4()),
                    "agent_id": agent,
                    "embedding": vec.tolist(),
                    "text": f"zephyr quartz zephyr quartz {i} {j}",
                }
            )
    target_vecs: dict[str, np.ndarray] = {}
    target_rows = []
    for j in range(TARGET_FACTS):
        noise = 0.6 + 0.1 * j  # increasingly far from the query, all farther than the crowd
        vec = _unit(q + noise * rng.normal(size=DIM) / np.sqrt(DIM) * 4)
        fid = str(uuid.uuid4())
        target_vecs[fid] = vec
        words = ["zephyr"] if j % 3 == 0 else ["quartz"] if j % 3 == 1 else ["granite"]
        text = " ".join(
            words
            + ["is", "mentioned", "in", "target", "note", "number", str(j)]
            + ["padding"] * (j % 5)
        )
        target_rows.append({"id": fid, "agent_id": target, "embedding": vec.tolist(), "text": text})
    try:
        for start in range(0, len(rows), 1000):
            await executor.run_text(
                load_query("read_create_crowd"), {"rows": rows[start : start + 1000], "at": at}
            )
        await executor.run_text(load_query("read_create_crowd"), {"rows": target_rows, "at": at})
        yield Crowd(target, agents, q.tolist(), target_vecs)
    finally:
        for start in range(0, len(agents), 250):
            await executor.run_text(
                load_query("read_delete_crowd"), {"agent_ids": agents[start : start + 250]}
            )
        await delete_agent(executor, target)


def _brute_force(c: Crowd, limit: int, min_cos: float) -> list[str]:
    q = np.array(c.query_vec)
    sims = {fid: float(v @ q) for fid, v in c.target_vecs.items()}
    ranked = sorted(
        (fid for fid, s in sims.items() if s >= min_cos), key=lambda fid: (-sims[fid], fid)
    )
    return ranked[:limit]


async def test_naive_global_top_k_starves_the_target(executor: Executor, crowd: Crowd) -> None:
    rows = await executor.run_text(
        load_query("vector_top"), {"agent_id": crowd.target, "vector": crowd.query_vec, "k": 200}
    )
    assert rows == []  # what a global top-k + filter would return


@pytest.mark.parametrize("exact_max", [1_000_000, 0], ids=["exact-scan", "index-overfetch"])
async def test_semantic_equals_brute_force(
    executor: Executor, crowd: Crowd, exact_max: int
) -> None:
    if exact_max == 0 and (await detect(executor)).filtered:
        pytest.skip(
            "fact index in the filtered form (Neo4j 2026): the procedure's global top-k of its "
            "approximate walk can miss an agent's far facts even at k >= the index size, and "
            "retrieve asks the index for the agent's own top-k instead (test_vector_search_form)"
        )
    stats = SearchStats()
    scope = Scope(crowd.target, None, crowd.query_vec, 0.55)
    got = await semantic_facts(
        executor,
        scope,
        limit=10,
        min_cosine=0.0,
        agent_facts=TARGET_FACTS,
        total_facts=TARGET_FACTS + CROWD_AGENTS * PER_AGENT,
        exact_max=exact_max,
        cap=50_000,
        stats=stats,
    )
    assert [f.id for f in got] == _brute_force(crowd, 10, 0.0)
    assert stats.strategy == ("exact" if exact_max else "index")
    if not exact_max:
        assert len(stats.rounds) >= 2  # the first k was not enough: it grew


async def test_keyword_equals_exhaustive_fulltext(executor: Executor, crowd: Crowd) -> None:
    """The crowd's facts hold the query's words more often than the target's: a global top-k
    would need several rounds; the agent-limited query (agent_lucene) gets the target's best
    hits, with the exhaustive ranking's order and scores, in one round."""
    lucene = lucene_query(keywords(QUERY))
    reference = await executor.run_text(
        load_query("read_crowd_fulltext_all"),
        {"agent_id": crowd.target, "q": f"terms:({lucene})", "limit": None},
    )
    assert len(reference) > 10
    crowded = await executor.run_text(
        load_query("read_crowd_fulltext_all"),
        {"agent_id": crowd.target, "q": f"terms:({lucene})", "limit": 15},
    )
    assert crowded == []  # the global top 15 holds none of the target's facts
    stats = SearchStats()
    scope = Scope(crowd.target, None, crowd.query_vec, 0.55)
    got = await keyword_facts(
        executor,
        scope,
        lucene=agent_lucene(lucene, crowd.target),
        limit=10,
        agent_facts=TARGET_FACTS,
        total_facts=TARGET_FACTS + CROWD_AGENTS * PER_AGENT,
        cap=50_000,
        stats=stats,
    )
    assert [f.id for f in got] == [r["id"] for r in reference[:10]]
    top = reference[0]["score"]
    assert [f.scores.keyword for f in got] == pytest.approx(
        [r["score"] / top for r in reference[:10]]
    )
    assert len(stats.rounds) == 1 and not stats.capped


async def test_retrieve_is_not_starved(executor: Executor, crowd: Crowd) -> None:
    retriever = Retriever(
        executor,
        FixedEmbedder(crowd.query_vec),
        config=RetrieveConfig.of(
            min_similarity=0.0,
            topk_facts=10,
            min_score=0.0,
            weights={"recency": 0.0, "importance": 0.0, "keyword": 0.0, "graph": 0.0},
            ranker="formula",  # the formula reduced to cosine: brute force's order
        ),
    )
    result = await retriever.retrieve(crowd.target, QUERY)
    assert [f.id for f in result.facts] == _brute_force(crowd, 10, 0.0)


async def test_one_statement_reruns_a_starved_part(executor: Executor, crowd: Crowd) -> None:
    """Through the index path, read/signals' first round holds none of the target's facts
    (the crowd is closer): the semantic part is re-run with the adaptive over-fetch and the
    ranking is still the brute-force one. The keyword part is limited to the agent inside
    the full-text index, so it is never starved and never re-run. With spreading activation
    starting early (the default) the semantic part runs alongside the statement instead,
    with the same adaptive over-fetch and the same ranking."""
    config = {
        "min_similarity": 0.0,
        "topk_facts": 10,
        "min_score": 0.0,
        "semantic_limit": 10,
        "keyword_limit": 10,
        "exact_scan_max_facts": 10,
        "search_min_facts": 10,
        "weights": {"recency": 0.0, "importance": 0.0, "keyword": 0.0, "graph": 0.0},
        "ranker": "formula",  # the formula reduced to cosine: brute force's order
    }
    filtered = (await detect(executor)).filtered
    for early in (False, True):
        retriever = Retriever(
            executor,
            FixedEmbedder(crowd.query_vec),
            config=RetrieveConfig.of(**config, activation_early=early),
        )
        result = await retriever.retrieve(crowd.target, QUERY)
        signals = result.trace["signals"]
        assert signals["statement"] == "read/signals"
        # In-index filtered search cannot run inside the statement: it runs alongside it.
        assert "semantic" in signals["alongside" if filtered or early else "rerun"]
        assert "semantic" not in signals["rerun" if filtered or early else "alongside"]
        assert "keyword" not in signals["rerun"]
        assert result.trace["activation"]["early"] is early
        assert signals["semantic"]["strategy"] == ("search" if filtered else "index")
        assert len(signals["semantic"]["rounds"]) >= (1 if filtered else 2)
        assert [f.id for f in result.facts] == _brute_force(crowd, 10, 0.0)
