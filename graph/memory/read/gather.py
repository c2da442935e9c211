"""Gathering the candidates of ``retrieve`` (thin I/O): every signal in one statement
(``one_statement``: ``combined.all_signals`` plus a re-run of a part whose first over-fetch
round was not enough) and the observations. Scoring and ordering are ``ranking``'s; the
sequence is ``retriever``'s."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from graph.executor import Executor
from graph.memory.read import planner, ranking
from graph.memory.read.combined import SignalSizes, all_signals, searched
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, ObservationHit, RetrievalPlan, ScoredFact
from graph.memory.read.relations import mark_answers, relation_terms
from graph.memory.read.search import (
    Scope,
    SearchStats,
    cosine_from_index,
    index_min_score,
    keyword_events,
    keyword_facts,
    semantic_events,
    semantic_facts,
)
from graph.memory.read.temporal import TimeWindow
from graph.memory.read.traversal import spreading_activation
from graph.memory.text import detect_language

__all__ = ["drop_tasks", "observations", "one_statement"]


def drop_tasks(*tasks: asyncio.Task[Any] | None) -> None:
    """Give up on tasks whose results are no longer wanted (the retrieve failed): cancel the
    running ones, and retrieve a finished one's exception so that it is not reported as never
    retrieved."""
    for task in tasks:
        if task is None:
            continue
        if not task.done():
            task.cancel()
        elif not task.cancelled():
            task.exception()


def _plan_inputs(
    plan: RetrievalPlan, cfg: RetrieveConfig
) -> tuple[str, int, list[dict[str, Any]], list[str]]:
    """What the gathering takes from the plan: the Lucene keyword query ("" = off), the
    graph limit (doubled for a broad question), the named seed entities of the BFS and the
    entity types to aggregate."""
    words = planner.keyword_terms(plan, cfg.candidates.keyword_names)
    lucene = planner.lucene_query(words) if cfg.candidates.enable_keyword else ""
    graph_limit = cfg.graph.graph_limit * (2 if plan.broad_query else 1)
    seeds = [s for s in plan.seed_entities() if s["named"]] if cfg.graph.enable_graph else []
    pattern_types = list(plan.pattern_types) if cfg.graph.enable_aggregation else []
    return lucene, graph_limit, seeds, pattern_types


async def one_statement(
    ex: Executor,
    plan: RetrievalPlan,
    catalog: dict[str, Any],
    scope: Scope,
    cfg: RetrieveConfig,
    now: datetime,
    trace: dict[str, Any],
    window: TimeWindow | None = None,
    on_semantic: Callable[[list[ScoredFact]], None] | None = None,
) -> tuple[list[ScoredFact], list[ScoredFact], list[EventHit], list[ObservationHit], RetrievalPlan]:
    """Every signal in one statement (``combined.all_signals``); a part whose first
    over-fetch round was not enough is re-run alone (concurrently) with the adaptive
    over-fetch, and activation then re-seeded from the full semantic hits. ``on_semantic``
    gets the scored semantic hits of a search that runs alongside the statement as soon as
    they arrive (before the statement's answer)."""
    sizes = SignalSizes(
        agent_facts=int(catalog["agent_facts"]),
        total_facts=int(catalog["total_facts"]),
        agent_events=int(catalog["agent_events"]),
        total_events=int(catalog["total_events"]),
        agent_observations=int(catalog.get("agent_observations", 1)),
        fact_search=bool(catalog.get("fact_search")),
        event_search=bool(catalog.get("event_search")),
    )
    lucene, graph_limit, seeds, pattern_types = _plan_inputs(plan, cfg)
    lucene = planner.agent_lucene(lucene, scope.agent_id)
    named = [e.key for e in plan.entities] if cfg.graph.enable_expansion else []
    stats: dict[str, SearchStats] = {}

    async def semantic_again(
        early: bool = False,
    ) -> tuple[SearchStats, list[ScoredFact], list[ScoredFact]]:
        own = SearchStats()
        hits = await semantic_facts(
            ex,
            scope,
            limit=cfg.candidates.semantic_limit,
            min_cosine=cfg.candidates.min_similarity,
            agent_facts=sizes.agent_facts,
            total_facts=sizes.total_facts,
            exact_max=cfg.budgets.exact_max(sizes.fact_search),
            cap=cfg.budgets.overfetch_cap,
            stats=own,
            filtered=sizes.fact_search,
        )
        ranking.score_facts(hits, cfg, now, window, detect_language(plan.similarity_query))
        if early and on_semantic is not None:
            on_semantic(hits)
        activated = await spreading_activation(
            ex,
            scope,
            ranking.order(hits)[: cfg.activation.activation_seeds],
            [f.id for f in hits],
            cfg,
        )
        return own, hits, activated

    async def events_semantic_again() -> tuple[SearchStats, list[EventHit]]:
        own = SearchStats()
        hits = await semantic_events(
            ex,
            scope,
            limit=cfg.context.topk_events * 3,
            min_cosine=cfg.context.min_event_similarity,
            agent_events=sizes.agent_events,
            total_events=sizes.total_events,
            exact_max=cfg.budgets.exact_max(sizes.event_search),
            cap=cfg.budgets.overfetch_cap,
            stats=own,
            filtered=sizes.event_search,
        )
        return own, hits

    # A part run on its own (``combined.searched``) starts first and runs alongside.
    fact_search, event_search = searched(cfg, sizes)
    early_sem = asyncio.create_task(semantic_again(early=True)) if fact_search else None
    early_ev = asyncio.create_task(events_semantic_again()) if event_search else None
    if early_sem is not None or early_ev is not None:
        await asyncio.sleep(0)  # let them send their statements first
    t = time.perf_counter()
    try:
        got = await all_signals(
            ex,
            scope,
            cfg,
            now,
            sizes,
            lucene=lucene,
            seeds=seeds,
            graph_limit=graph_limit,
            pattern_types=pattern_types,
            named=named,
            stats=stats,
            relation_terms=relation_terms(plan.similarity_query) if seeds else [],
        )
    except BaseException:
        drop_tasks(early_sem, early_ev)
        raise
    statement_ms = _ms(t)
    sem, spread, kw = got.semantic, got.activation, got.keyword
    ev_sem, ev_kw = got.events_semantic, got.events_keyword
    try:
        if early_sem is not None:
            stats["semantic"], sem, spread = await early_sem
        if early_ev is not None:
            stats["events_semantic"], ev_sem = await early_ev
    except BaseException:
        drop_tasks(early_sem, early_ev)
        raise

    async def semantic_late() -> None:
        nonlocal sem, spread
        stats["semantic"], sem, spread = await semantic_again()

    async def keyword_again() -> None:
        nonlocal kw
        stats["keyword"] = SearchStats()
        kw = await keyword_facts(
            ex,
            scope,
            lucene=lucene,
            limit=cfg.candidates.keyword_limit,
            agent_facts=sizes.agent_facts,
            total_facts=sizes.total_facts,
            cap=cfg.budgets.fulltext_cap,
            stats=stats["keyword"],
        )

    async def events_semantic_late() -> None:
        nonlocal ev_sem
        stats["events_semantic"], ev_sem = await events_semantic_again()

    async def events_keyword_again() -> None:
        nonlocal ev_kw
        stats["events_keyword"] = SearchStats()
        ev_kw = await keyword_events(
            ex,
            scope,
            lucene=lucene,
            limit=cfg.context.topk_events * 3,
            agent_events=sizes.agent_events,
            total_events=sizes.total_events,
            cap=cfg.budgets.fulltext_cap,
            stats=stats["events_keyword"],
        )

    again = [  # the parts searched alongside are done; the rest re-run when incomplete
        (got.semantic_complete or fact_search, "semantic", semantic_late),
        (got.keyword_complete, "keyword", keyword_again),
        (got.events_semantic_complete or event_search, "events_semantic", events_semantic_late),
        (got.events_keyword_complete, "events_keyword", events_keyword_again),
    ]
    reruns = [name for done, name, _ in again if not done]
    if reruns:
        await asyncio.gather(*(run() for done, _, run in again if not done))
    trace["signals"] = {
        "ms": _ms(t),
        "statement_ms": statement_ms,
        "statement": "read/signals",
        "rerun": reruns,
        "alongside": [
            n for n, on in (("semantic", fact_search), ("events_semantic", event_search)) if on
        ],
        **{name: s.as_dict() for name, s in stats.items()},
        "graph": {"rows": len(got.graph), "seeds": [s["key"] for s in seeds]},
        "aggregation": {"rows": len(got.pattern), "types": pattern_types},
        "observations": {"rows": len(got.observations)},
    }
    facts = ranking.merge_candidates(sem, kw, got.graph, got.pattern)
    known = {f.id for f in facts}
    trace["activation"] = {
        "in_statement": "semantic" not in reruns and not fact_search,
        "returned": len(spread),
        "unique": sum(1 for f in spread if f.id not in known),
    }
    trace["relation"] = {"marked": mark_answers(facts, got.relation_answers)}
    plan = planner.expand_plan(plan, got.neighbours) if named else plan
    return facts, spread, ranking.merge_events(ev_sem, ev_kw), got.observations, plan


async def observations(
    ex: Executor, scope: Scope, cfg: RetrieveConfig, count: int
) -> list[ObservationHit]:
    """The agent's observations nearest to the query (none when it has none)."""
    if count == 0 or cfg.context.max_observations == 0:
        return []
    rows = await ex.run(
        "read/observations",
        {
            "agent_id": scope.agent_id,
            "as_of": scope.as_of,
            "vector": scope.vector,
            "min_score": index_min_score(cfg.candidates.min_similarity),
            "limit": cfg.context.max_observations,
        },
        read=True,
    )
    return [
        ObservationHit(
            id=r["id"],
            text=r["text"] or "",
            kind=r.get("kind"),
            semantic=cosine_from_index(r["score"]),
        )
        for r in rows
    ]


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000.0, 2)
