"""Gathering the candidates of ``retrieve`` (thin I/O): every signal in one statement
(``one_statement``: ``combined.all_signals`` plus a re-run of a part whose first over-fetch
round was not enough) and the observations. Scoring and ordering are ``ranking``'s; the
sequence is ``retriever``'s."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.executor import Executor
from graph.memory.read import planner, ranking
from graph.memory.read.combined import Combined, SignalSizes, all_signals, searched
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, ObservationHit, RetrievalPlan, ScoredFact
from graph.memory.read.relations import mark_answers, relation_terms
from graph.memory.read.search import (
    Asked,
    Scope,
    SearchStats,
    cosine_from_index,
    fact_strategy,
    index_min_score,
    keyword_events,
    keyword_facts,
    semantic_events,
    semantic_facts,
    semantic_glosses,
    with_glosses,
)
from graph.memory.read.temporal import TimeWindow
from graph.memory.text import detect_language

__all__ = [
    "Found",
    "SignalParts",
    "drop_tasks",
    "join_alongside",
    "observations",
    "one_statement",
    "rerun_incomplete",
    "signal_sizes",
]


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


def signal_sizes(catalog: dict[str, Any]) -> SignalSizes:
    """The planner catalog's corpus sizes that pick each part's strategy."""
    return SignalSizes(
        agent_facts=int(catalog["agent_facts"]),
        total_facts=int(catalog["total_facts"]),
        agent_events=int(catalog["agent_events"]),
        total_events=int(catalog["total_events"]),
        agent_observations=int(catalog.get("agent_observations", 1)),
        fact_search=bool(catalog.get("fact_search")),
        event_search=bool(catalog.get("event_search")),
        agent_glosses=int(catalog.get("agent_glosses", 0)),
    )


@dataclass
class Found:
    """The per-signal lists of one gathering, replaced by a part's re-run when it has one."""

    semantic: list[ScoredFact]
    keyword: list[ScoredFact]
    events_semantic: list[EventHit]
    events_keyword: list[EventHit]


@dataclass
class SignalParts:
    """The parts of ``read/signals`` run on their own: alongside the statement, or again with
    the adaptive over-fetch when its first round was not enough."""

    ex: Executor
    scope: Scope
    cfg: RetrieveConfig
    sizes: SignalSizes
    plan: RetrievalPlan
    lucene: str
    now: datetime
    window: TimeWindow | None
    on_semantic: Callable[[list[ScoredFact]], None] | None

    async def semantic(self, early: bool = False) -> tuple[SearchStats, list[ScoredFact]]:
        """The semantic facts, scored (handed to ``on_semantic`` when ``early``): by the
        text's vectors and, for an agent with English glosses, the better of both vectors
        (the exact scan reads both; beside an index search, ``semantic_glosses``)."""
        cfg, own, sizes = self.cfg, SearchStats(), self.sizes
        exact_max = cfg.budgets.exact_max(sizes.fact_search)
        asked = self.asked()
        text = semantic_facts(
            self.ex,
            self.scope,
            limit=cfg.candidates.semantic_limit,
            min_cosine=cfg.candidates.min_similarity,
            agent_facts=sizes.agent_facts,
            total_facts=sizes.total_facts,
            exact_max=exact_max,
            cap=cfg.budgets.overfetch_cap,
            stats=own,
            filtered=sizes.fact_search,
            glosses=cfg.candidates.enable_gloss,
            asked=asked,
        )
        strategy = fact_strategy(
            cfg.candidates.semantic_limit,
            sizes.agent_facts,
            sizes.total_facts,
            exact_max,
            cfg.budgets.overfetch_cap,
            sizes.fact_search,
        )
        if cfg.candidates.enable_gloss and sizes.agent_glosses > 0 and strategy != "exact":
            gloss_stats = SearchStats()
            glossed = semantic_glosses(
                self.ex,
                self.scope,
                limit=cfg.candidates.semantic_limit,
                min_cosine=cfg.candidates.min_similarity,
                agent_glosses=sizes.agent_glosses,
                total_facts=sizes.total_facts,
                exact_max=cfg.budgets.exact_scan_max_facts,
                cap=cfg.budgets.overfetch_cap,
                stats=gloss_stats,
                asked=asked,
            )
            by_text, by_gloss = await asyncio.gather(text, glossed)
            hits = with_glosses(by_text, by_gloss)
            own.glosses = gloss_stats.strategy
        else:
            hits = await text
        ranking.score_facts(hits, cfg, self.now, self.window, asked.language)
        if early and self.on_semantic is not None:
            self.on_semantic(hits)
        return own, hits

    def asked(self) -> Asked:
        """The question's language and the cross-lingual gap (a glossed fact's two cosines
        are weighed by them, as the blend weighs candidates)."""
        return Asked(detect_language(self.plan.similarity_query), self.cfg.scoring.language_gap)

    async def events_semantic(self) -> tuple[SearchStats, list[EventHit]]:
        own = SearchStats()
        hits = await semantic_events(
            self.ex,
            self.scope,
            limit=self.cfg.context.topk_events * 3,
            min_cosine=self.cfg.context.min_event_similarity,
            agent_events=self.sizes.agent_events,
            total_events=self.sizes.total_events,
            exact_max=self.cfg.budgets.exact_max(self.sizes.event_search),
            cap=self.cfg.budgets.overfetch_cap,
            stats=own,
            filtered=self.sizes.event_search,
        )
        return own, hits

    async def keyword(self, stats: SearchStats) -> list[ScoredFact]:
        return await keyword_facts(
            self.ex,
            self.scope,
            lucene=self.lucene,
            limit=self.cfg.candidates.keyword_limit,
            agent_facts=self.sizes.agent_facts,
            total_facts=self.sizes.total_facts,
            cap=self.cfg.budgets.fulltext_cap,
            stats=stats,
        )

    async def events_keyword(self, stats: SearchStats) -> list[EventHit]:
        return await keyword_events(
            self.ex,
            self.scope,
            lucene=self.lucene,
            limit=self.cfg.context.topk_events * 3,
            agent_events=self.sizes.agent_events,
            total_events=self.sizes.total_events,
            cap=self.cfg.budgets.fulltext_cap,
            stats=stats,
        )


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
) -> tuple[list[ScoredFact], list[EventHit], list[ObservationHit], RetrievalPlan]:
    """Every signal in one statement (``combined.all_signals``); a part whose first
    over-fetch round was not enough is re-run alone (concurrently) with the adaptive
    over-fetch. ``on_semantic``
    gets the scored semantic hits of a search that runs alongside the statement as soon as
    they arrive (before the statement's answer)."""
    sizes = signal_sizes(catalog)
    lucene, graph_limit, seeds, pattern_types = _plan_inputs(plan, cfg)
    lucene = planner.agent_lucene(lucene, scope.agent_id)
    named = [e.key for e in plan.entities] if cfg.graph.enable_expansion else []
    parts = SignalParts(ex, scope, cfg, sizes, plan, lucene, now, window, on_semantic)
    stats: dict[str, SearchStats] = {}
    # A part run on its own (``combined.searched``) starts first and runs alongside.
    fact_search, event_search = searched(cfg, sizes)
    early_sem = asyncio.create_task(parts.semantic(early=True)) if fact_search else None
    early_ev = asyncio.create_task(parts.events_semantic()) if event_search else None
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
            asked=parts.asked(),
        )
    except BaseException:
        drop_tasks(early_sem, early_ev)
        raise
    statement_ms = _ms(t)
    found = await join_alongside(got, early_sem, early_ev, stats)
    done = {  # the parts searched alongside are done; the rest re-run when incomplete
        "semantic": got.semantic_complete or fact_search,
        "keyword": got.keyword_complete,
        "events_semantic": got.events_semantic_complete or event_search,
        "events_keyword": got.events_keyword_complete,
    }
    reruns = await rerun_incomplete(parts, done, found, stats)
    alongside = [
        n for n, on in (("semantic", fact_search), ("events_semantic", event_search)) if on
    ]
    trace["signals"] = {
        "ms": _ms(t),
        "statement_ms": statement_ms,
        "statement": "read/signals",
        "rerun": reruns,
        "alongside": alongside,
        **{name: s.as_dict() for name, s in stats.items()},
        **_parts_trace(got, seeds, pattern_types),
    }
    facts = ranking.merge_candidates(found.semantic, found.keyword, got.graph, got.pattern)
    trace["relation"] = {"marked": mark_answers(facts, got.relation_answers)}
    plan = planner.expand_plan(plan, got.neighbours) if named else plan
    events = ranking.merge_events(found.events_semantic, found.events_keyword)
    return facts, events, got.observations, plan


async def join_alongside(
    got: Combined,
    early_sem: asyncio.Task[tuple[SearchStats, list[ScoredFact]]] | None,
    early_ev: asyncio.Task[tuple[SearchStats, list[EventHit]]] | None,
    stats: dict[str, SearchStats],
) -> Found:
    """The statement's lists, with those of the parts that ran alongside it once they end."""
    found = Found(
        with_glosses(got.semantic, got.gloss), got.keyword, got.events_semantic, got.events_keyword
    )
    try:
        if early_sem is not None:
            stats["semantic"], found.semantic = await early_sem
        if early_ev is not None:
            stats["events_semantic"], found.events_semantic = await early_ev
    except BaseException:
        drop_tasks(early_sem, early_ev)
        raise
    return found


def _parts_trace(
    got: Combined, seeds: list[dict[str, Any]], pattern_types: list[str]
) -> dict[str, Any]:
    return {
        "graph": {"rows": len(got.graph), "seeds": [s["key"] for s in seeds]},
        "aggregation": {"rows": len(got.pattern), "types": pattern_types},
        "observations": {"rows": len(got.observations)},
    }


async def rerun_incomplete(
    parts: SignalParts, done: dict[str, bool], found: Found, stats: dict[str, SearchStats]
) -> list[str]:
    """Re-run, concurrently, every part not ``done`` with the adaptive over-fetch; its lists
    and stats replace the statement's. Returns the names of the parts re-run."""

    async def semantic() -> None:
        stats["semantic"], found.semantic = await parts.semantic()

    async def keyword() -> None:
        stats["keyword"] = SearchStats()
        found.keyword = await parts.keyword(stats["keyword"])

    async def events_semantic() -> None:
        stats["events_semantic"], found.events_semantic = await parts.events_semantic()

    async def events_keyword() -> None:
        stats["events_keyword"] = SearchStats()
        found.events_keyword = await parts.events_keyword(stats["events_keyword"])

    runs = {
        "semantic": semantic,
        "keyword": keyword,
        "events_semantic": events_semantic,
        "events_keyword": events_keyword,
    }
    reruns = [name for name in runs if not done[name]]
    if reruns:
        await asyncio.gather(*(runs[name]() for name in reruns))
    return reruns


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
