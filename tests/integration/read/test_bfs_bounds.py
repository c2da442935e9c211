"""Graph BFS reads a bounded number of facts (PROFILE rows, not timings): the closest entity
fills the answer, so a farther one is not read once the strictly closer ones' ABOUT degree
passes the budget (entities of one proximity are read together), and a hub is read at most
``pool × hub_scan_factor`` visible facts deep (the graph part of read/signals)."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta
from typing import Any, LiteralString, cast

import pytest

import cypher
from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder
from tests.fakes import WrappedExecutor

pytestmark = pytest.mark.neo4j

HUB, NEAR = "Helena Duarte", "Rui Campos"
HUB_FACTS, NEAR_FACTS = 60, 10
# pool = graph_limit × graph_pool_factor = 10; budget = 2 × graph_limit; hub scan = 4 × pool
OPTIONS = {
    "graph_limit": 5,
    "graph_pool_factor": 2,
    "graph_read_budget": 2,
    "hub_scan_factor": 4,
    "min_score": 0.0,
}


def _diary(n: int, at: datetime | None = None) -> list[StructuredFact]:
    """The hub's first ``n`` diary facts (created at ``at``; default: when remembered)."""
    return [
        StructuredFact(f"{HUB} wrote chapter {i} of her travel diary", HUB, created_at=at)
        for i in range(n)
    ]


def _doings(who: str, *what: str) -> list[StructuredFact]:
    return [StructuredFact(f"{who} {w}", who) for w in what]


class Capture(WrappedExecutor):
    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.params: dict[str, dict[str, Any]] = {}

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.params[name] = dict(params or {})
        return await super().run(name, params, read=read)


def _entity_fact_rows(plan: Any) -> int:
    """Rows of the operators joining an entity to its facts over ABOUT. The planner may expand
    from the entity ((e)<-[:ABOUT]-(f), Expand(All)) or, on a small database, seek the agent's
    facts and check the edge ((f)-[:ABOUT]->(e), Expand(Into)); either way the rows are the
    (fact, entity) pairs read, and Community's row-at-a-time runtime stops them at the LIMIT."""
    details = str(plan.get("args", {}).get("Details", ""))
    about = ":ABOUT]" in details and (
        (details.startswith("(e)<-[") and details.split("]", 1)[1].startswith("-(f)"))
        or (details.startswith("(f)-[") and "]->(e)" in details)
    )
    own = int(plan.get("rows", 0)) if plan["operatorType"].startswith("Expand") and about else 0
    return own + sum(_entity_fact_rows(c) for c in plan.get("children", []))


def _operators(plan: Any) -> list[str]:
    details = str(plan.get("args", {}).get("Details", ""))[:80]
    return [
        f"{plan['operatorType']} {details} rows={plan.get('rows')}",
        *(op for c in plan.get("children", []) for op in _operators(c)),
    ]


async def _profile(executor: Executor, name: str, params: dict[str, Any]) -> tuple[int, Any]:
    raw = executor.driver  # type: ignore[attr-defined]
    async with raw.session(database=executor.database) as session:  # type: ignore[attr-defined]
        result = await session.run(cast(LiteralString, "PROFILE " + cypher.load(name)), params)
        summary = await result.consume()
    assert summary.profile is not None
    return _entity_fact_rows(summary.profile), summary.profile


async def test_bfs_reads_the_closest_entity_and_bounds_a_hub(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity(HUB, "person"), StructuredEntity(NEAR, "person")],
        facts=_diary(HUB_FACTS)
        + [StructuredFact(f"{NEAR} repaired bicycle number {i}", NEAR) for i in range(NEAR_FACTS)],
        relations=[StructuredRelation(HUB, NEAR, "knows")],
    )
    capture = Capture(executor)
    retriever = Retriever(capture, embedder)
    query = f"What did {HUB} write in her diary?"
    result = await retriever.retrieve(agent_id, query, options=OPTIONS)
    graph = [f for f in result.facts if "graph" in f.sources]
    assert graph and all(HUB in f.text for f in graph)
    # Before the bounds every fact of both entities was read (70 rows); now the hub alone
    # (its degree passes the budget before the neighbour's turn), at most `scan` (40) deep.
    for name, scan in (("read/signals", "graph_scan"),):
        params = capture.params[name]
        assert params[scan] == 40 < HUB_FACTS, params[scan]
        rows, plan = await _profile(executor, name, params)
        if rows == 0:
            # The planner joined facts to entities in a shape the counter does not know (seen
            # once in a clean-clone CI run, not reproduced): say so instead of guessing.
            warnings.warn(
                f"{name}: no entity-fact join operator in the plan; bound not "
                f"checked: {_operators(plan)}",
                stacklevel=1,
            )
            continue
        # An upper bound, not an equality: the planner may also stop the join early (a clean-
        # clone CI run counted 10 rows, the pool, once the hub's facts were read newest first).
        assert rows <= params[scan], (name, rows, _operators(plan))


async def test_entities_of_one_proximity_are_read_together(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """Two people the question names are equally close: the second is read although the
    first's degree alone passes the budget, and the cosine picks among both."""
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity(HUB, "person"), StructuredEntity(NEAR, "person")],
        # The diary a day older: facts of one call share their creation time and the pool's
        # tie-break is the random fact id, so the newest-first pool would hold the neighbour's
        # facts only by chance; older, the diary cannot crowd them out of the pool once read.
        facts=_diary(30, at=datetime.now(UTC) - timedelta(days=1))
        + _doings(
            NEAR,
            "planted tomatoes in his garden",
            "grows roses in the garden",
            "bought a new garden hose",
            "weeds the vegetable garden on Sundays",
        ),
    )
    retriever = Retriever(executor, embedder)
    query = f"What do {HUB} and {NEAR} do in the garden?"
    result = await retriever.retrieve(agent_id, query, options=OPTIONS)
    graph = [f for f in result.facts if "graph" in f.sources]
    assert len(graph) == OPTIONS["graph_limit"]
    assert any(f.text.startswith(NEAR) for f in graph), [f.text for f in graph]


async def test_the_closest_facts_fill_the_answer_and_the_cosine_picks_among_equals(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """The graph answer is ordered by proximity, then by cosine to the query: the named
    entity's facts first, then the neighbour's most query-similar ones up to ``graph_limit``
    (the neighbour is read: the named entity's degree is under the budget), and nothing of
    an entity two hops away."""
    far = "Ines Sousa"
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity(n, "person") for n in (HUB, NEAR, far)],
        facts=_diary(3)
        + _doings(
            NEAR,
            "repaired an old bicycle",
            "wrote a long travel diary in Lisbon",
            "cooked rice for the neighbours",
            "kept a diary of his travels by train",
            "painted the garage door",
            "sold his car",
        )
        + [StructuredFact(f"{far} wrote a travel diary about Porto {i}", far) for i in range(4)],
        relations=[StructuredRelation(HUB, NEAR, "knows"), StructuredRelation(NEAR, far, "knows")],
    )
    retriever = Retriever(executor, embedder)
    options = {
        **OPTIONS,
        "min_similarity": 0.0,
        "topk_facts": 50,
        "enable_aggregation": False,
        "activation_seeds": 0,
    }
    query = f"What did {HUB} write in her diary?"
    result = await retriever.retrieve(agent_id, query, options=options)
    assert len(result.facts) == 13  # the semantic signal returns every fact, with its cosine
    near = sorted(
        (f for f in result.facts if f.text.startswith(NEAR)),
        key=lambda f: (-f.scores.semantic, f.id),
    )
    graph = {f.text for f in result.facts if "graph" in f.sources}
    assert graph == {f.text for f in _diary(3)} | {f.text for f in near[:2]}
