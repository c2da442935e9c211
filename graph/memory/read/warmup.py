"""Plan the hot read statements before the first request.

``read/signals`` is one large statement; planning it from scratch takes 1–5 s on a 2-core box
(measured: 1.3 s at load 1, 4–5 s at load 6). Neo4j caches the plan per statement
text and parameter types, so one retrieve for an agent that holds nothing, run when the API
starts, moves that cost off the first user's request; the relation bridge's statement, which
runs only when there are facts, is planned by one call with a seed that matches nothing, and
so is a small agent's exact semantic scan (its own statement while the bridge starts early).
It also loads the embedder's model. The warm-up only reads.
"""

from __future__ import annotations

import time

from graph.memory.read.bridge import bridge_facts
from graph.memory.read.models import ScoredFact
from graph.memory.read.retriever import Retriever
from graph.memory.read.search import Scope, SearchStats, semantic_facts

__all__ = ["WARMUP_AGENT", "warm_up"]

WARMUP_AGENT = "hippograph-warm-up"
# Names an entity and a time, so the planner switches on the same parts a real question does
# (the parameter types of the cached plan match a real request's).
WARMUP_QUERY = "Where did Ana work before she moved, and who did she meet last week?"


async def warm_up(retriever: Retriever) -> float:
    """One retrieve for :data:`WARMUP_AGENT` (no memories); returns the seconds it took."""
    started = time.perf_counter()
    await retriever.retrieve(WARMUP_AGENT, WARMUP_QUERY)
    cfg = retriever.config
    scope = Scope(
        WARMUP_AGENT, None, [0.0] * retriever.embedder.dimensions, cfg.candidates.min_confidence
    )
    if cfg.activation.bridge_seeds > 0:
        await bridge_facts(
            retriever.executor, scope, WARMUP_QUERY, [ScoredFact(id=WARMUP_AGENT, text="")], cfg, 1
        )
    if cfg.activation.bridge_starts_early:
        # A small agent's exact scan then runs as its own statement, beside read/signals.
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
    return time.perf_counter() - started
