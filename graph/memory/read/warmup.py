"""Plan the hot read statements before the first request.

``read/signals`` is one large statement; planning it from scratch takes 1–5 s on a 2-core box
(measured: 1.3 s at load 1, 4–5 s at load 6). Neo4j caches the plan per statement
text and parameter types, so one retrieve for an agent that holds nothing, run when the API
starts, moves that cost off the first user's request; spreading activation's statement, which
runs only when there are facts, is planned by one call with a seed that matches nothing, and
so is a small agent's exact semantic scan (its own statement while activation starts early).
It also loads the embedder's model. The warm-up only reads.

:func:`warm_read_paths` goes further, for an operator after a restart (``hippograph neo4j
warm``): the server compiles its hot read paths (the JIT) during its first few hundred
questions, which are slower meanwhile. It asks a few hundred questions of agents spread over
the sizes in the store (the largest and the smallest included), each question the text of one
of the agent's own facts and its vector the fact's stored vector, so no model is loaded and
any agent's space is right. The answers are discarded.

Neo4j keys a cached plan by the statement text, its parameters' types and, for a string or a
list, its size rounded up to a power of ten (:func:`size_bucket`: 0, 1, 2–10, 11–100, …). The
read path pads its lists and its keyword text to one size (``graph.plan_shapes``), so what is
left to plan per statement is the agent id's size (an id of 10 characters or fewer, such as
``demo``, is another bucket than a longer one: :data:`WARMUP_AGENTS` has one of each), a
question without keywords (an empty keyword text) and a paragraph-long question
(:data:`CATALOG_SHAPES`). Planning ``read/signals`` anew took 4–5 s on 2 cores, on a first
request of such a shape.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from graph.errors import GraphError
from graph.executor import Executor
from graph.memory.read.activation import activated_facts
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.planner import LookupTerms
from graph.memory.read.retriever import MAX_QUERY_CHARS, Retriever
from graph.memory.read.search import Scope, SearchStats, semantic_facts
from graph.plan_shapes import size_bucket

__all__ = [
    "CATALOG_SHAPES",
    "WARMUP_AGENT",
    "WARMUP_AGENTS",
    "WARMUP_QUERIES",
    "StoredVectors",
    "by_id_size",
    "size_bucket",
    "spread",
    "warm_catalog",
    "warm_read_paths",
    "warm_up",
]

WARMUP_AGENT = "hippograph-warm-up"
# Agents that hold nothing, one per size bucket of agent ids (11–100 characters, 2–10).
WARMUP_AGENTS = (WARMUP_AGENT, "hg-warm-up")
# Names an entity and a time, so the planner switches on the same parts a real question does
# (the parameter types of the cached plan match a real request's).
WARMUP_QUERY = "Where did Ana work before she moved, and who did she meet last week?"
# And one without a keyword (the keyword parts get an empty text: a plan of its own).
WARMUP_QUERIES = (WARMUP_QUERY, "Who is he?")


# (n-grams, one-word prefixes) of the planner catalog, one per pair of size buckets a question's
# terms fall in once padded to two (``LookupTerms.params``): up to ten n-grams, a longer
# question, one of 11 content words or more, a paragraph of 27 or more (each content word adds
# about four n-grams).
CATALOG_SHAPES = ((0, 0), (20, 5), (20, 20), (200, 20))


async def warm_catalog(executor: Executor, agent_id: str = WARMUP_AGENT) -> int:
    """Run ``read/plan_catalog`` once for each of :data:`CATALOG_SHAPES` (for an agent that
    holds nothing, so the terms match nothing), padded as a question's terms are; returns how
    many ran."""
    for grams, prefixes in CATALOG_SHAPES:
        terms = LookupTerms(
            norms=tuple(f"~{i}" for i in range(grams)),
            slugs=tuple((f"~{i}", f"~{i}") for i in range(grams)),
            prefixes=tuple(f"~{i}" for i in range(prefixes)),
        )
        await executor.run("read/plan_catalog", {"agent_id": agent_id, **terms.params()}, read=True)
    return len(CATALOG_SHAPES)


async def warm_up(retriever: Retriever, agents: Sequence[str] = WARMUP_AGENTS) -> float:
    """For each of ``agents`` (no memories): a retrieve of each of :data:`WARMUP_QUERIES`, the
    planner catalog for every size of question (:func:`warm_catalog`), spreading activation
    and the exact scan; returns the seconds it took."""
    started = time.perf_counter()
    for agent in agents:
        for query in WARMUP_QUERIES:
            await retriever.retrieve(agent, query)
        await warm_catalog(retriever.executor, agent)
        await _warm_parts(retriever, agent)
    return time.perf_counter() - started


async def _warm_parts(retriever: Retriever, agent: str) -> None:
    """The statements a retrieve of an empty agent skips: spreading activation (run only
    from seed facts) and a small agent's exact scan (its own statement while activation
    starts early)."""
    cfg = retriever.config
    scope = Scope(agent, None, [0.0] * retriever.embedder.dimensions, cfg.candidates.min_confidence)
    if cfg.activation.activation_seeds > 0:
        await activated_facts(
            retriever.executor, scope, WARMUP_QUERY, [ScoredFact(id=WARMUP_AGENT, text="")], cfg, 1
        )
    if cfg.activation.starts_early:
        await semantic_facts(
            retriever.executor,
            scope,
            limit=cfg.candidates.semantic_limit,
            min_cosine=cfg.candidates.min_similarity,
            agent_facts=1,
            total_facts=1,
            exact_max=1,
            cap=cfg.budgets.overfetch_cap,
            stats=SearchStats(),
        )


@dataclass
class StoredVectors:
    """An embedder that answers each warm-up question with the stored vector of the fact it
    was taken from, under the name of the model those vectors come from."""

    name: str
    dimensions: int
    vectors: dict[str, list[float]]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.vectors[t] for t in texts]


def spread(agents: list[tuple[str, int]], n: int) -> list[str]:
    """Up to ``n`` agents evenly spaced over the list sorted by size, the largest and the
    smallest included (pure)."""
    ordered = [a for a, _ in sorted(agents, key=lambda x: (-x[1], x[0]))]
    if n <= 0 or not ordered:
        return []
    if n >= len(ordered):
        return ordered
    if n == 1:
        return ordered[:1]
    step = (len(ordered) - 1) / (n - 1)
    return list(dict.fromkeys(ordered[round(i * step)] for i in range(n)))


def by_id_size(agents: list[tuple[str, int]]) -> list[str]:
    """The largest agent of each size bucket of agent ids (:func:`size_bucket` of the id's
    length), largest first (pure): Neo4j plans a statement per bucket, and only an agent
    that holds facts and entities takes every path of it."""
    best: dict[int, tuple[str, int]] = {}
    for agent, items in sorted(agents, key=lambda x: (-x[1], x[0])):
        best.setdefault(size_bucket(len(agent)), (agent, items))
    return [a for a, _ in sorted(best.values(), key=lambda x: (-x[1], x[0]))]


async def warm_read_paths(
    executor: Executor,
    config: RetrieveConfig,
    sizes: list[tuple[str, int]],
    *,
    questions: int = 300,
    per_agent: int = 3,
    planned: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Ask ``questions`` questions of the store's own facts (see the module) of agents
    picked from ``sizes`` (``graph.page_cache.agent_sizes``); returns how many were answered. Agents without current facts with vectors are left out, and a
    question that fails (a timeout, the server busy) is passed over: the warm-up is a
    courtesy to the first users, not a check."""
    picked = spread(sizes, max(1, questions // per_agent))
    rows = await executor.run(
        "admin/warm_questions", {"agents": picked, "per_agent": per_agent}, read=True
    )
    plan = [r for r in rows if r["texts"]]
    if planned is not None:
        planned(sum(len(r["texts"]) for r in plan))
    asked = 0
    for row in plan:
        # keyed as retrieve embeds the question: cut to its longest query
        vectors = {
            t[:MAX_QUERY_CHARS]: list(v)
            for t, v in zip(row["texts"], row["vectors"], strict=True)
            if t and t.strip()
        }
        embedder = StoredVectors(
            str(row["embedder"] or "unrecorded"), len(row["vectors"][0]), vectors
        )
        retriever = Retriever(executor, embedder, None, config)
        for text in vectors:
            try:
                await retriever.retrieve(str(row["agent_id"]), text)
                asked += 1
            except GraphError:
                pass
            if progress is not None:
                progress(1)
    return asked
