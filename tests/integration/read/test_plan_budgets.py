"""The speed guard: the work of every hot statement stays within its committed budget.

A fixed synthetic memory (one agent with 5,000 facts about 290 entities; 50 agents with 100
facts each, in the same database, so the shared vector index is crowded) and fixed queries;
``retrieve`` and an offline ``write`` run through an executor that ``PROFILE``s every statement
it sends, inside the real transactions. Database hits and rows per statement are compared
with ``tests/plan_budgets.toml`` (see :mod:`tests.plan_budgets`): a plan that regresses to a
scan fails here, whatever the machine's speed. When a change is meant to do more work, the failure prints the new budget file to review
and commit. The test command runs it on both vector search forms (Neo4j 5.26 and 2026): the
statements that exist in one form only have budgets marked with it.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, LiteralString, TypeVar, cast

import pytest

import cypher
from graph.executor import Executor, Transaction, row_of
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation, WritePipeline
from graph.vector_search import detect
from tests.bench.bench_retrieve import WORDS, TopicEmbedder
from tests.cypher import load_query
from tests.fakes import WrappedExecutor
from tests.plan_budgets import (
    Key,
    Work,
    load_budgets,
    load_entries,
    plan_work,
    problems,
    render,
)

pytestmark = pytest.mark.neo4j

T = TypeVar("T")
BIG, CROWD, CROWD_FACTS = 5_000, 50, 100
SPEAKER = "Person3 Surname3"
MESSAGE = (
    "Yesterday I met Person7 Surname7 at Org3 Corp in City5; we talked about the kafka "
    "migration and she said the roadmap review moves to Friday."
)


Synthetic = tuple[list[StructuredEntity], list[StructuredFact], list[StructuredRelation]]


def synthetic(n_facts: int, n_people: int, rng: random.Random, tag: str = "") -> Synthetic:
    """People, organisations and places with relations; facts about a person naming another
    entity, on two topic words (the embedder clusters by topic). ``tag`` prefixes every name:
    agents never share a name, so no two agents hold the same vector and an index over-fetch
    never meets ties whose order the index does not fix."""
    people = [f"{tag}Person{i} Surname{i}" for i in range(n_people)]
    orgs = [f"{tag}Org{i} Corp" for i in range(max(3, n_people // 4))]
    places = [f"{tag}City{i}" for i in range(max(3, n_people // 5))]
    entities = (
        [StructuredEntity(p, "person") for p in people]
        + [StructuredEntity(o, "organization") for o in orgs]
        + [StructuredEntity(c, "place") for c in places]
    )
    relations = [StructuredRelation(p, rng.choice(orgs), "works_at") for p in people]
    relations += [StructuredRelation(p, rng.choice(places), "lives_in") for p in people]
    relations += [StructuredRelation(p, rng.choice(people), "knows") for p in people]
    facts = []
    for i in range(n_facts):
        subject, other = rng.choice(people), rng.choice(orgs + places + people)
        w1, w2 = rng.sample(WORDS, 2)
        facts.append(
            StructuredFact(
                f"{subject} talked about {w1} and {w2} with {other} (note {i})",
                subject,
                entities=[other],
                importance=rng.random(),
            )
        )
    return entities, facts, relations


QUERIES = (
    "What did {tag}Person7 Surname7 say about kafka?",
    "who talked about hiking and guitar",
    "O que o {tag}Person12 Surname12 falou sobre marathon?",
    "tell me everything about {tag}Org3 Corp",
)


@dataclass
class ProfilingTransaction(Transaction):
    """A write transaction whose statements run under PROFILE (same rows, plus the plan)."""

    owner: Any = None

    async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.statements.append(name)
        result = await self.tx.run(cast(LiteralString, "PROFILE " + cypher.load(name)), params)
        rows = [row_of(r) async for r in result]
        self.owner.record(name, (await result.consume()).profile)
        return rows


class ProfilingExecutor(WrappedExecutor):
    """Runs every statement under PROFILE and sums each statement's work."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.work: dict[str, Work] = {}

    def record(self, name: str, profile: Any) -> None:
        assert profile is not None, name
        self.work[name] = self.work.get(name, Work()) + plan_work(profile)

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        raw = cast(Any, self.inner)
        async with raw.driver.session(database=raw.database) as session:
            result = await session.run(
                cast(LiteralString, "PROFILE " + cypher.load(name)), params or {}
            )
            rows = [row_of(r) async for r in result]
            self.record(name, (await result.consume()).profile)
        return rows

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await self.inner.write(
            lambda tx: work(ProfilingTransaction(tx.tx, tx.statements, owner=self))
        )

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await self.inner.read(
            lambda tx: work(ProfilingTransaction(tx.tx, tx.statements, owner=self))
        )


@dataclass
class Memory:
    big: str
    crowd: list[str]

    def tag(self, agent: str) -> str:
        """The name prefix of ``agent``'s entities (none for the big agent)."""
        return "" if agent == self.big else f"C{self.crowd.index(agent)}x"


@pytest.fixture(scope="module")
async def memory(executor: Executor) -> AsyncIterator[Memory]:
    embedder = TopicEmbedder()
    run = uuid.uuid4().hex[:8]
    made = Memory(f"budget-big-{run}", [f"budget-crowd-{run}-{i}" for i in range(CROWD)])
    try:
        rng = random.Random(7)
        big = synthetic(BIG, 200, rng)
        crowd = [(agent, synthetic(CROWD_FACTS, 20, rng, made.tag(agent))) for agent in made.crowd]
        # Agents share no node: the big one loads beside the crowd, four crowd agents at a time,
        # so Python and Neo4j work side by side.
        lanes = asyncio.Semaphore(4)

        async def load(agent: str, memory: Synthetic, lane: asyncio.Semaphore) -> None:
            entities, facts, relations = memory
            async with lane:
                await remember(
                    executor,
                    embedder,
                    agent,
                    entities=entities,
                    facts=facts,
                    relations=relations,
                    batch_size=2000,
                )

        await asyncio.gather(
            load(made.big, big, asyncio.Semaphore(1)),
            *(load(agent, memory, lanes) for agent, memory in crowd),
        )
        # plans made for other tests' data would be reused from the cache: replan on this one
        await executor.run_text(load_query("prepare_for_replanning"), {"timeout_s": 60})
        yield made
    finally:
        # One scan of the database per batch for all 51 agents (nothing but their own nodes
        # carries their ids: no API key names them).
        while True:
            rows = await executor.run_text(
                load_query("delete_agents_nodes"),
                {"agents": [made.big, *made.crowd], "batch": 10_000},
            )
            if rows[0]["deleted"] < 10_000:
                break


async def scenario_work(
    executor: Executor, agent: str, tag: str, *, write: bool
) -> dict[str, Work]:
    """Every statement's work for the fixed queries and, if asked, one offline
    write. A fresh retriever per call: no cache makes one call differ from the next."""
    profiling = ProfilingExecutor(executor)
    embedder = TopicEmbedder()
    for query in QUERIES:
        retriever = Retriever(profiling, embedder)
        await retriever.retrieve(agent, query.format(tag=tag))
    if write:
        pipeline = WritePipeline(profiling, embedder, None)
        await pipeline.write(agent, MESSAGE, SPEAKER)
    return profiling.work


async def _form(executor: Executor) -> str:
    """The server's vector search form (which of the form-specific budgets apply)."""
    return "filtered" if (await detect(executor)).filtered else "procedure"


async def test_hot_statements_stay_within_their_budgets(executor: Executor, memory: Memory) -> None:
    observed: dict[Key, Work] = {}
    for scenario, agent, write in (
        ("one-agent-5k", memory.big, True),
        ("crowd-50x100", memory.crowd[17], False),
    ):
        work_by_name = await scenario_work(executor, agent, memory.tag(agent), write=write)
        for name, work in work_by_name.items():
            observed[(scenario, name)] = work
    form = await _form(executor)
    budgets = load_budgets(form=form)
    found = problems(observed, budgets)
    others = [b for b in load_entries() if b.form and b.form != form]
    assert not found, (
        f"{form} form:\n" + "\n".join(found) + "\n\nObserved (review, then commit as "
        "tests/plan_budgets.toml):\n\n" + render(observed, budgets, others)
    )


async def test_the_guard_fails_on_a_scan_where_the_index_was_planned(
    executor: Executor, memory: Memory
) -> None:
    """A deliberately bad plan: the semantic candidates of the 5k-fact agent read by scanning
    its facts (the exact statement) where the budget was made for the vector index."""
    profiling = ProfilingExecutor(executor)
    retriever = Retriever(
        profiling,
        TopicEmbedder(),
    )
    capture: dict[str, dict[str, Any]] = {}
    real_run = profiling.run

    async def keep(
        name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        capture[name] = dict(params or {})
        return await real_run(name, params, read=read)

    profiling.run = keep  # type: ignore[method-assign]
    await retriever.retrieve(memory.big, QUERIES[1])
    form = await _form(executor)
    good = "read/semantic_facts_search" if form == "filtered" else "read/semantic_facts_index"
    assert good in capture, sorted(capture)
    budgets = load_budgets(form=form)
    key = ("one-agent-5k", good)
    assert key in budgets
    assert not problems({key: profiling.work[good]}, {key: budgets[key]})
    scan = ProfilingExecutor(executor)
    params = {k: v for k, v in capture[good].items() if k != "k"}
    await scan.run("read/semantic_facts_exact", params, read=True)
    bad = scan.work["read/semantic_facts_exact"]
    found = problems({key: bad}, {key: budgets[key]})
    assert found and "db hits > budget" in found[0], (bad, budgets[key])
