"""Agent-scoped vector search on whichever Neo4j line serves the tests: 5.26 (no filtered
search: exact scan and over-fetch) or 2026 (the fact index stores agent_id, SEARCH filters
inside it). A crowd of other agents' facts lies closer to the query than any of the target's:
every strategy must still return exactly the target's own brute-force ranking."""

from __future__ import annotations

from collections.abc import AsyncIterator

import numpy as np
import pytest

from graph.executor import Executor
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.retriever import Retriever
from graph.memory.read.search import Scope, SearchStats, semantic_events, semantic_facts
from graph.providers import HashEmbedder
from graph.vector_search import detect, form_of
from tests.cypher import load_query
from tests.fakes import RecordingExecutor

pytestmark = pytest.mark.neo4j

CROWD, PER_AGENT, TARGET_FACTS, DIM, LIMIT = 300, 5, 40, 384, 10
STATEMENTS = {  # create, clean up
    "facts": (load_query("vector_facts"), load_query("vector_facts_cleanup")),
    "events": (load_query("vector_events"), load_query("vector_events_cleanup")),
}


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


@pytest.fixture(params=["facts", "events"])
async def crowd(
    request: pytest.FixtureRequest, executor: Executor, agent_id: str
) -> AsyncIterator[tuple[str, list[float], list[str]]]:
    """The kind, the query vector and the target's fact (or event) ids in brute-force order
    (best first)."""
    kind = request.param
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
    await executor.run_text(STATEMENTS[kind][0], {"rows": rows})
    order = np.argsort(-(far @ query))
    try:
        yield kind, query.tolist(), [f"{agent_id}-t{i}" for i in order]
    finally:
        while (await executor.run_text(STATEMENTS[kind][1], {"prefix": agent_id, "batch": 5_000}))[
            0
        ]["deleted"]:
            pass


async def test_the_vector_indexes_take_the_filtered_form_where_the_server_has_it(
    executor: Executor,
) -> None:
    form = await detect(executor)
    assert form.index_properties[:1] == ("embedding",)
    assert form.filtered == form.server_filtered
    assert not form.needs_rebuild
    for label in ("entity", "event"):  # entity resolution and event search: same form
        assert form.properties(label)[:1] == ("embedding",), label
        assert form.filtered_for(label) == form.server_filtered, label
    assert form.complete and form.rebuild() == []


async def test_every_strategy_returns_the_agents_own_ranking_under_a_closer_crowd(
    executor: Executor, agent_id: str, crowd: tuple[str, list[float], list[str]]
) -> None:
    kind, query, expected = crowd
    form = await detect(executor)
    scope = Scope(agent_id=agent_id, as_of=None, vector=query, min_confidence=0.0)
    total = CROWD * PER_AGENT + TARGET_FACTS
    seen = {}
    events = kind == "events"
    can = form.filtered_for("event" if events else "fact")
    for exact_max, filtered in ((10**6, False), (0, False), (0, can)):
        stats = SearchStats()
        if events:
            hits = await semantic_events(
                executor, scope, limit=LIMIT, min_cosine=-1.0, agent_events=TARGET_FACTS,
                total_events=total, exact_max=exact_max, cap=20_000, stats=stats,
                filtered=filtered,
            )  # fmt: skip
            seen[stats.strategy] = [h.id for h in hits]
            continue
        got = await semantic_facts(
            executor, scope, limit=LIMIT, min_cosine=-1.0, agent_facts=TARGET_FACTS,
            total_facts=total, exact_max=exact_max, cap=20_000, stats=stats, filtered=filtered,
        )  # fmt: skip
        seen[stats.strategy] = [f.id for f in got]
    assert set(seen) == ({"exact", "index", "search"} if can else {"exact", "index"})
    for strategy, ids in seen.items():
        # The index is approximate: the agent's 10 best may swap a near-tie at the edge.
        assert len(ids) == LIMIT, strategy
        assert ids[:3] == expected[:3], strategy
        assert len(set(ids) & set(expected[:LIMIT])) >= LIMIT - 1, strategy
    assert seen["exact"] == expected[:LIMIT]


class QueryEmbedder(HashEmbedder):
    """Every text embeds to the crafted query vector."""

    def __init__(self, vector: list[float]) -> None:
        super().__init__(DIM)
        self.vector = vector

    async def embed(self, texts):  # type: ignore[no-untyped-def]
        return [self.vector for _ in texts]


@pytest.mark.parametrize("crowd", ["events"], indirect=True)
async def test_retrieve_finds_the_agents_own_events_under_a_closer_crowd(
    executor: Executor, agent_id: str, crowd: tuple[str, list[float], list[str]]
) -> None:
    """The one-statement read's event part cannot run SEARCH inside it: on a filtered index
    it is re-run alone with SEARCH (on 5.26 with the adaptive over-fetch); either way the
    events are the agent's own."""
    _, query, expected = crowd
    retriever = Retriever(
        executor,
        QueryEmbedder(query),
        config=RetrieveConfig.of(
            min_similarity=0.0,
            min_event_similarity=-1.0,
            topk_events=5,
            exact_scan_max_facts=10,
            search_min_facts=10,
        ),
    )
    result = await retriever.retrieve(agent_id, "what happened in the target conversation")
    signals = result.trace["signals"]
    filtered = (await detect(executor)).filtered_for("event")
    assert signals["events_semantic"]["strategy"] == ("search" if filtered else "index"), signals
    # Only the agent's own events (none of the closer crowd's), the semantic part full.
    assert result.events and all(e.id in expected for e in result.events), result.events
    assert signals["events_semantic"]["rows"] >= 5, signals


async def test_the_form_is_read_once_per_executor_by_readers_and_writers(
    executor: Executor, agent_id: str
) -> None:
    """Retrievers (one per request or per tenant in a process) and entity resolution share
    one answer per executor: only the first asks the server."""
    recording = RecordingExecutor(executor)
    names = ("schema/vector_search_form", "schema/vector_index_properties")
    first = await form_of(recording)
    assert [n for n in recording.names if n in names] == list(names)
    recording.reset()
    for _ in range(2):
        retriever = Retriever(recording, HashEmbedder(DIM))
        await retriever.retrieve(agent_id, "who works where?")
        assert await retriever._filtered_search() is first
    assert not [n for n in recording.names if n in names], recording.names


@pytest.fixture
async def filtered_server(executor: Executor) -> None:
    """Skips before any data is written (requested ahead of ``crowd``) on a server without
    in-index filtered vector search."""
    if not (await detect(executor)).filtered:
        pytest.skip("this server has no in-index filtered vector search (Neo4j 5.26)")


@pytest.mark.parametrize("crowd", ["facts"], indirect=True)
async def test_filtered_search_starts_alongside_the_one_statement(
    filtered_server: None,
    executor: Executor,
    agent_id: str,
    crowd: tuple[str, list[float], list[str]],
) -> None:
    """SEARCH cannot run inside read/signals; on a server with filtered indexes the agent's
    own semantic search is sent first and runs alongside the statement, not after it."""
    _, query, expected = crowd
    recording = RecordingExecutor(executor)
    retriever = Retriever(
        recording,
        QueryEmbedder(query),
        config=RetrieveConfig.of(
            min_similarity=0.0, min_score=0.0, exact_scan_max_facts=10, search_min_facts=10
        ),
    )
    result = await retriever.retrieve(agent_id, "what about the target")
    names = recording.names
    assert names.index("read/semantic_facts_search") < names.index("read/signals"), names
    assert result.trace["signals"]["alongside"] == ["semantic"]
    assert result.trace["signals"]["semantic"]["strategy"] == "search"
    assert result.facts and {f.id for f in result.facts} <= set(expected), result.facts
