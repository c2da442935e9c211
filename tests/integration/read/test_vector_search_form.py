"""Agent-scoped vector search on whichever Neo4j line serves the tests: 5.26 (no filtered
search: exact scan and over-fetch) or 2026 (the fact index stores agent_id, SEARCH filters
inside it). A crowd of other agents' facts lies closer to the query than any of the target's:
every strategy must still return exactly the target's own brute-force ranking."""

from __future__ import annotations

from collections.abc import AsyncIterator

import numpy as np
import pytest

from graph.executor import Executor
from graph.memory.read.search import Scope, SearchStats, semantic_facts
from graph.vector_search import detect
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

CROWD, PER_AGENT, TARGET_FACTS, DIM, LIMIT = 300, 5, 40, 384, 10


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


@pytest.fixture
async def crowd(executor: Executor, agent_id: str) -> AsyncIterator[tuple[list[float], list[str]]]:
    """The query vector and the target's fact ids in brute-force order (best first)."""
    rng = np.random.default_rng(5)
    query = _unit(rng.normal(size=DIM))
    near = _unit(query + 0.3 * rng.normal(size=(CROWD * PER_AGENT, DIM)) / np.sqrt(DIM))
    far = _unit(query + 3.0 * rng.normal(size=(TARGET_FACTS, DIM)) / np.sqrt(DIM))
    rows = [
        {"id": f"{agent_id}-c{i}", "agent_id": f"{agent_id}-crowd{i % CROWD}",
         "text": "crowd", "embedding": v.tolist()}
        for i, v in enumerate(near)
    ] + [
        {"id": f"{agent_id}-t{i}", "agent_id": agent_id, "text": "target", "embedding": v.tolist()}
        for i, v in enumerate(far)
    ]  # fmt: skip
    await executor.run_text(load_query("vector_facts"), {"rows": rows})
    order = np.argsort(-(far @ query))
    try:
        yield query.tolist(), [f"{agent_id}-t{i}" for i in order]
    finally:
        while (
            await executor.run_text(
                load_query("vector_facts_cleanup"), {"prefix": agent_id, "batch": 5_000}
            )
        )[0]["deleted"]:
            pass


async def test_the_fact_index_takes_the_filtered_form_where_the_server_has_it(
    executor: Executor,
) -> None:
    form = await detect(executor)
    assert form.index_properties[:1] == ("embedding",)
    assert form.filtered == form.server_filtered
    assert not form.needs_rebuild


async def test_every_strategy_returns_the_agents_own_ranking_under_a_closer_crowd(
    executor: Executor, agent_id: str, crowd: tuple[list[float], list[str]]
) -> None:
    query, expected = crowd
    form = await detect(executor)
    scope = Scope(agent_id=agent_id, as_of=None, vector=query, min_confidence=0.0)
    total = CROWD * PER_AGENT + TARGET_FACTS
    seen = {}
    for exact_max, filtered in ((10**6, False), (0, False), (0, form.filtered)):
        stats = SearchStats()
        got = await semantic_facts(
            executor, scope, limit=LIMIT, min_cosine=-1.0, agent_facts=TARGET_FACTS,
            total_facts=total, exact_max=exact_max, cap=20_000, stats=stats, filtered=filtered,
        )  # fmt: skip
        seen[stats.strategy] = [f.id for f in got]
    assert set(seen) == ({"exact", "index", "search"} if form.filtered else {"exact", "index"})
    for strategy, ids in seen.items():
        # The index is approximate: the agent's 10 best may swap a near-tie at the edge.
        assert len(ids) == LIMIT, strategy
        assert ids[:3] == expected[:3], strategy
        assert len(set(ids) & set(expected[:LIMIT])) >= LIMIT - 1, strategy
    assert seen["exact"] == expected[:LIMIT]
