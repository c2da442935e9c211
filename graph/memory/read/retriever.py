"""``Retriever.retrieve``: plan → signals (concurrently; spreading activation chained to the
semantic one) → merge & rank → rerank → format. Decisions live in pure modules (planner, ranking, formatter);
this module only sequences the I/O and records the trace."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.read import planner, ranking
from graph.memory.read.combined import SignalSizes, all_signals
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.entity_expansion import entity_facts
from graph.memory.read.formatter import format_context
from graph.memory.read.models import (
    EventHit,
    ObservationHit,
    RetrievalPlan,
    RetrieveResult,
    ScoredFact,
)
from graph.memory.read.rerank import EmbeddingRescorer, blend_semantic, rerank
from graph.memory.read.search import (
    Scope,
    SearchStats,
    cosine_from_index,
    event_from_row,
    index_min_score,
    keyword_events,
    keyword_facts,
    semantic_events,
    semantic_facts,
)
from graph.memory.read.temporal import TimeWindow, query_window
from graph.memory.read.traversal import aggregation_facts, bfs_facts, spreading_activation
from graph.memory.spaces import check_space, embedder_name
from graph.memory.text import fold
from graph.providers.base import ChatLLM, Embedder, embed_queries

__all__ = ["Retriever"]

MAX_QUERY_CHARS = 4000


def _check_inputs(agent_id: Any, query: Any, as_of: Any) -> tuple[str, datetime | None]:
    if not isinstance(agent_id, str) or not agent_id.strip():
        raise BadInput("agent_id must be a non-empty string")
    if not isinstance(query, str):
        raise BadInput("query must be a string")
    if as_of is not None:
        if not isinstance(as_of, datetime):
            raise BadInput("as_of must be a datetime")
        if as_of.tzinfo is None:  # naive times are taken as UTC, like everything we store
            as_of = as_of.replace(tzinfo=UTC)
    return query[:MAX_QUERY_CHARS], as_of


class Retriever:
    """The read pipeline. Providers are injected; ``llm=None`` means offline (no rerank);
    ``rescorer`` (optional) re-scores the top facts with a second embedder."""

    def __init__(self, executor: Executor, embedder: Embedder, llm: ChatLLM | None = None,
                 config: RetrieveConfig | None = None,
                 rescorer: EmbeddingRescorer | None = None) -> None:
        self.executor = executor
        self.embedder = embedder
        self.llm = llm
        self.rescorer = rescorer
        self.config = config or RetrieveConfig()
        self.config.validate()
        self._count_cache: dict[str, tuple[float, dict[str, int]]] = {}

    async def plan(self, agent_id: str, query: str, as_of: datetime | None = None,
                   expand: bool = True) -> tuple[RetrievalPlan, dict[str, Any]]:
        """The deterministic plan and the catalog counts (no embedding, no LLM); ``expand``
        adds the named entities' 1-hop neighbours. The text work runs in a worker thread: the
        event loop keeps serving other requests meanwhile."""
        skip = await asyncio.to_thread(planner.casual_plan, query)
        if skip is not None:
            return skip, {}
        terms = await asyncio.to_thread(planner.lookup_terms, query)
        rows, counts = await asyncio.gather(
            self.executor.run("read/plan_catalog", {"agent_id": agent_id, **terms.params()},
                              read=True),
            self._counts(agent_id))
        catalog = {**rows[0], **counts}
        matches = [planner.CatalogRow(**m) for m in catalog["matches"]]
        plan = await asyncio.to_thread(planner.build_plan, query, catalog["types"], matches)
        if expand:
            plan = await self.expand(agent_id, plan, as_of)
        return plan, catalog

    async def _counts(self, agent_id: str) -> dict[str, int]:
        """Corpus sizes, cached for ``counts_ttl_s``: they only steer the search strategy. A
        cached zero reads as 1 (run the cheap path) so a stale count never hides new data."""
        now = time.monotonic()
        hit = self._count_cache.get(agent_id)
        if hit is not None and now - hit[0] < self.config.counts_ttl_s:
            return {k: max(1, v) for k, v in hit[1].items()}
        rows = await self.executor.run("read/agent_counts", {"agent_id": agent_id}, read=True)
        # The agent's vectors must come from this process's model (graph/memory/spaces.py).
        check_space(agent_id, rows[0]["embedder"], embedder_name(self.embedder))
        counts = {k: int(v) for k, v in rows[0].items() if k != "embedder"}
        if len(self._count_cache) >= 10_000:
            self._count_cache.clear()
        self._count_cache[agent_id] = (now, counts)
        return counts

    async def expand(self, agent_id: str, plan: RetrievalPlan,
                     as_of: datetime | None) -> RetrievalPlan:
        """The plan with the named entities' 1-hop neighbours (one read; none if no entity)."""
        named = [e.key for e in plan.entities]
        if not named:
            return plan
        neighbours = await self.executor.run(
            "read/entity_neighbours",
            {"agent_id": agent_id, "keys": named, "as_of": as_of, "limit": 20}, read=True)
        return planner.expand_plan(plan, neighbours)

    async def retrieve(self, agent_id: str, query: str, as_of: datetime | None = None,
                       options: dict[str, Any] | None = None) -> RetrieveResult:
        """Relevant facts, patterns and conversation snippets for ``query``.

        Args:
            agent_id: whose memory to search.
            query: the question, passed unchanged to semantic search.
            as_of: time travel — what was valid and known at that instant.
            options: per-call overrides of ``RetrieveConfig`` fields (validated).

        Raises:
            BadInput: invalid arguments or options.
        """
        started = time.perf_counter()
        cfg = self.config.with_options(options)
        query, as_of = _check_inputs(agent_id, query, as_of)
        trace: dict[str, Any] = {}
        skip = await asyncio.to_thread(planner.casual_plan, query)
        if skip is not None:
            trace["plan"] = {"ms": 0.0, "reason": skip.reason}
            return RetrieveResult(context="", facts=[], observations=[], events=[], plan=skip,
                                  total_candidates=0, duration_ms=_ms(started), trace=trace)

        t = time.perf_counter()
        # Expansion does not steer any signal (BFS walks from the named entities itself), so
        # it runs beside the signals instead of adding a round trip before them.
        (plan, catalog), vectors = await asyncio.gather(
            self.plan(agent_id, query, as_of, expand=False),
            embed_queries(self.embedder, [query]))
        trace["plan"] = {"ms": _ms(t), "reason": plan.reason}
        now = as_of or datetime.now(UTC)
        scope = Scope(agent_id, as_of, list(vectors[0]), cfg.min_confidence)

        window = query_window(query, now)
        trace["plan"]["time_window"] = window.text if window else None
        if cfg.single_statement:
            facts, spread, events, observations, plan = await self._combined(
                plan, catalog, scope, cfg, now, trace, window)
        else:
            (facts, spread, events, observations), plan = await asyncio.gather(
                self._signals(plan, catalog, scope, cfg, now, trace, window),
                self.expand(agent_id, plan, as_of) if cfg.enable_expansion else _same(plan))
        facts = await self._entity_expansion(plan, catalog, scope, cfg, facts, trace)
        trace["plan"]["entities"] = [e.key for e in plan.entities]
        trace["plan"]["entities_sources"] = {e.key: e.source for e in plan.entities}
        trace["provenance"] = {"lifted": ranking.lift_by_provenance(
            facts, events, cfg.weight("provenance"))}
        terms = planner.keyword_terms(plan, cfg.keyword_names)
        if cfg.keyword_model == "coverage" and cfg.enable_keyword:
            ranking.keyword_coverage(facts + spread, terms, events)
        speakers = [fold(n) for e in plan.entities if e.named for n in (e.name, e.matched)]
        ranking.score_events(events, cfg, now, speakers, window)
        # Activation and the snippets' neighbouring turns are independent: one stage.
        result_facts, context = await asyncio.gather(
            self._rank(query, facts, spread, cfg, now, trace, window),
            self._context_turns(scope, events, cfg))
        events = ranking.merge_context(events, context, cfg.context_decay)
        trace["context_turns"] = {"rows": len(context)}
        fresh = ranking.drop_provenance(events, result_facts)
        trace["events"] = {"candidates": len(events), "dropped_as_provenance":
                           len(events) - len(fresh)}
        events = sorted(fresh, key=lambda e: (-e.score, e.id))[: cfg.topk_events]
        formatted = format_context(result_facts, observations, events, cfg)
        trace["format"] = {"tokens": formatted.tokens, "facts": formatted.facts_used,
                           "observations": formatted.observations_used,
                           "events": formatted.events_used}
        return RetrieveResult(
            context=formatted.text, facts=result_facts, observations=observations,
            events=events, plan=plan, total_candidates=len(facts),
            duration_ms=_ms(started), trace=trace, context_tokens=formatted.tokens)

    async def _signals(
        self, plan: RetrievalPlan, catalog: dict[str, Any], scope: Scope,
        cfg: RetrieveConfig, now: datetime, trace: dict[str, Any],
        window: TimeWindow | None = None,
    ) -> tuple[list[ScoredFact], list[ScoredFact], list[EventHit], list[ObservationHit]]:
        """Run every signal concurrently and merge the fact candidates; spreading activation
        is chained to the semantic signal (its seeds are the best semantic hits) so it runs
        beside the other signals instead of as one more sequential round trip. Returns the
        merged candidates, the activated facts (merged by ``_rank``), events, observations."""
        ex = self.executor
        agent_facts, total_facts = int(catalog["agent_facts"]), int(catalog["total_facts"])
        agent_events, total_events = int(catalog["agent_events"]), int(catalog["total_events"])
        words = planner.keyword_terms(plan, cfg.keyword_names)
        lucene = planner.lucene_query(words) if cfg.enable_keyword else ""
        stats = {n: SearchStats() for n in ("semantic", "keyword", "events_semantic",
                                            "events_keyword")}
        graph_limit = cfg.graph_limit * (2 if plan.broad_query else 1)
        seeds = [s for s in plan.seed_entities() if s["named"]] if cfg.enable_graph else []
        pattern_types = list(plan.pattern_types) if cfg.enable_aggregation else []
        t = time.perf_counter()
        activation: dict[str, Any] = {}

        async def semantic_then_spread() -> tuple[list[ScoredFact], list[ScoredFact]]:
            sem = await semantic_facts(
                ex, scope, limit=cfg.semantic_limit, min_cosine=cfg.min_similarity,
                agent_facts=agent_facts, total_facts=total_facts,
                exact_max=cfg.exact_scan_max_facts, cap=cfg.overfetch_cap,
                stats=stats["semantic"])
            started = time.perf_counter()
            # Seeds: the best semantic hits by the same formula (keyword/graph boosts are not
            # known yet); activation = seed formula × decay^hop, as before.
            ranking.score_facts(sem, cfg, now, window)
            seeds = ranking.order(sem)[: cfg.activation_seeds]
            spread = await spreading_activation(ex, scope, seeds, [f.id for f in sem], cfg)
            activation.update(ms=_ms(started), seeds=len(seeds))
            return sem, spread

        fact_signals = asyncio.gather(
            semantic_then_spread(),
            keyword_facts(ex, scope, lucene=lucene, limit=cfg.keyword_limit,
                          agent_facts=agent_facts, total_facts=total_facts,
                          cap=cfg.fulltext_cap, stats=stats["keyword"]),
            bfs_facts(ex, scope, seeds, cfg, now, limit=graph_limit),
            aggregation_facts(ex, scope, pattern_types, cfg, limit=graph_limit),
        )
        event_signals = asyncio.gather(
            semantic_events(ex, scope, limit=cfg.topk_events * 3,
                            min_cosine=cfg.min_event_similarity, agent_events=agent_events,
                            total_events=total_events, exact_max=cfg.exact_scan_max_facts,
                            cap=cfg.overfetch_cap, stats=stats["events_semantic"]),
            keyword_events(ex, scope, lucene=lucene, limit=cfg.topk_events * 3,
                           agent_events=agent_events, total_events=total_events,
                           cap=cfg.fulltext_cap, stats=stats["events_keyword"]),
            self._observations(scope, cfg, int(catalog.get("agent_observations", 1))),
        )
        ((sem, spread), kw, graph, agg), (ev_sem, ev_kw, obs) = await asyncio.gather(
            fact_signals, event_signals)
        trace["signals"] = {
            "ms": _ms(t),
            **{name: s.as_dict() for name, s in stats.items()},
            "graph": {"rows": len(graph), "seeds": [s["key"] for s in seeds]},
            "aggregation": {"rows": len(agg), "types": pattern_types},
            "observations": {"rows": len(obs)},
        }
        facts = ranking.merge_candidates(sem, kw, graph, agg)
        known = {f.id for f in facts}
        trace["activation"] = {**activation, "concurrent": True, "returned": len(spread),
                               "unique": sum(1 for f in spread if f.id not in known)}
        events = _merge_events(ev_sem, ev_kw)
        return facts, spread, events, obs

    async def _combined(
        self, plan: RetrievalPlan, catalog: dict[str, Any], scope: Scope,
        cfg: RetrieveConfig, now: datetime, trace: dict[str, Any],
        window: TimeWindow | None = None,
    ) -> tuple[list[ScoredFact], list[ScoredFact], list[EventHit], list[ObservationHit],
               RetrievalPlan]:
        """Every signal in one statement (``combined.all_signals``); a part whose first
        over-fetch round was not enough is re-run alone (concurrently) with the adaptive
        over-fetch, and activation then re-seeded from the full semantic hits."""
        ex = self.executor
        sizes = SignalSizes(
            agent_facts=int(catalog["agent_facts"]), total_facts=int(catalog["total_facts"]),
            agent_events=int(catalog["agent_events"]), total_events=int(catalog["total_events"]),
            agent_observations=int(catalog.get("agent_observations", 1)))
        words = planner.keyword_terms(plan, cfg.keyword_names)
        lucene = planner.lucene_query(words) if cfg.enable_keyword else ""
        graph_limit = cfg.graph_limit * (2 if plan.broad_query else 1)
        seeds = [s for s in plan.seed_entities() if s["named"]] if cfg.enable_graph else []
        pattern_types = list(plan.pattern_types) if cfg.enable_aggregation else []
        named = [e.key for e in plan.entities] if cfg.enable_expansion else []
        stats: dict[str, SearchStats] = {}
        t = time.perf_counter()
        got = await all_signals(ex, scope, cfg, now, sizes, lucene=lucene, seeds=seeds,
                                graph_limit=graph_limit, pattern_types=pattern_types,
                                named=named, stats=stats)
        statement_ms = _ms(t)
        reruns: list[str] = []
        sem, spread, kw = got.semantic, got.activation, got.keyword
        ev_sem, ev_kw = got.events_semantic, got.events_keyword

        async def semantic_again() -> None:
            nonlocal sem, spread
            stats["semantic"] = SearchStats()
            sem = await semantic_facts(
                ex, scope, limit=cfg.semantic_limit, min_cosine=cfg.min_similarity,
                agent_facts=sizes.agent_facts, total_facts=sizes.total_facts,
                exact_max=cfg.exact_scan_max_facts, cap=cfg.overfetch_cap,
                stats=stats["semantic"])
            ranking.score_facts(sem, cfg, now, window)
            spread = await spreading_activation(
                ex, scope, ranking.order(sem)[: cfg.activation_seeds], [f.id for f in sem], cfg)

        async def keyword_again() -> None:
            nonlocal kw
            stats["keyword"] = SearchStats()
            kw = await keyword_facts(ex, scope, lucene=lucene, limit=cfg.keyword_limit,
                                     agent_facts=sizes.agent_facts,
                                     total_facts=sizes.total_facts, cap=cfg.fulltext_cap,
                                     stats=stats["keyword"])

        async def events_semantic_again() -> None:
            nonlocal ev_sem
            stats["events_semantic"] = SearchStats()
            ev_sem = await semantic_events(
                ex, scope, limit=cfg.topk_events * 3, min_cosine=cfg.min_event_similarity,
                agent_events=sizes.agent_events, total_events=sizes.total_events,
                exact_max=cfg.exact_scan_max_facts, cap=cfg.overfetch_cap,
                stats=stats["events_semantic"])

        async def events_keyword_again() -> None:
            nonlocal ev_kw
            stats["events_keyword"] = SearchStats()
            ev_kw = await keyword_events(ex, scope, lucene=lucene, limit=cfg.topk_events * 3,
                                         agent_events=sizes.agent_events,
                                         total_events=sizes.total_events, cap=cfg.fulltext_cap,
                                         stats=stats["events_keyword"])

        again = [(got.semantic_complete, "semantic", semantic_again),
                 (got.keyword_complete, "keyword", keyword_again),
                 (got.events_semantic_complete, "events_semantic", events_semantic_again),
                 (got.events_keyword_complete, "events_keyword", events_keyword_again)]
        reruns = [name for done, name, _ in again if not done]
        if reruns:
            await asyncio.gather(*(run() for done, _, run in again if not done))
        trace["signals"] = {
            "ms": _ms(t), "statement_ms": statement_ms, "statement": "read/signals",
            "rerun": reruns,
            **{name: s.as_dict() for name, s in stats.items()},
            "graph": {"rows": len(got.graph), "seeds": [s["key"] for s in seeds]},
            "aggregation": {"rows": len(got.pattern), "types": pattern_types},
            "observations": {"rows": len(got.observations)},
        }
        facts = ranking.merge_candidates(sem, kw, got.graph, got.pattern)
        known = {f.id for f in facts}
        trace["activation"] = {"in_statement": "semantic" not in reruns,
                               "returned": len(spread),
                               "unique": sum(1 for f in spread if f.id not in known)}
        plan = planner.expand_plan(plan, got.neighbours) if named else plan
        return facts, spread, _merge_events(ev_sem, ev_kw), got.observations, plan

    async def _entity_expansion(self, plan: RetrievalPlan, catalog: dict[str, Any],
                                scope: Scope, cfg: RetrieveConfig, facts: list[ScoredFact],
                                trace: dict[str, Any]) -> list[ScoredFact]:
        """The candidates plus the entity-centric expansion's facts (option, one more read)."""
        if cfg.entity_expansion == "off":
            return facts
        t = time.perf_counter()
        best = sorted(facts, key=lambda f: (-f.scores.semantic, f.id))[: cfg.activation_seeds]
        extra = await entity_facts(self.executor, scope, plan, cfg,
                                   int(catalog.get("agent_facts", 1)), best)
        known = {f.id for f in facts}
        trace["entity_expansion"] = {"ms": _ms(t), "rows": len(extra),
                                     "unique": sum(1 for f in extra if f.id not in known)}
        return ranking.merge_candidates(facts, extra)

    async def _context_turns(self, scope: Scope, events: list[EventHit],
                             cfg: RetrieveConfig) -> list[tuple[EventHit, float]]:
        """The turns around the best snippets, with the score of the snippet they neighbour."""
        if cfg.context_turns <= 0 or cfg.context_seeds <= 0 or not events:
            return []
        seeds = sorted(events, key=lambda e: (-e.score, e.id))[: cfg.context_seeds]
        rows = await self.executor.run(
            "read/adjacent_events",
            {"agent_id": scope.agent_id, "as_of": scope.as_of, "per_side": cfg.context_turns,
             "window_s": cfg.context_window_s,
             "seeds": [{"id": e.id, "score": e.score} for e in seeds]}, read=True)
        return [(event_from_row(r["event"]), float(r["score"])) for r in rows]

    async def _observations(self, scope: Scope, cfg: RetrieveConfig,
                            count: int) -> list[ObservationHit]:
        if count == 0 or cfg.max_observations == 0:
            return []
        rows = await self.executor.run(
            "read/observations",
            {"agent_id": scope.agent_id, "as_of": scope.as_of, "vector": scope.vector,
             "min_score": index_min_score(cfg.min_similarity), "limit": cfg.max_observations},
            read=True)
        return [ObservationHit(id=r["id"], text=r["text"] or "", kind=r.get("kind"),
                               semantic=cosine_from_index(r["score"])) for r in rows]

    async def _rank(self, query: str, facts: list[ScoredFact], spread: list[ScoredFact],
                    cfg: RetrieveConfig, now: datetime, trace: dict[str, Any],
                    window: TimeWindow | None = None) -> list[ScoredFact]:
        """Merge the activated facts no signal found, score, rerank, cut."""
        known = {f.id for f in facts}
        fresh = [f for f in spread if f.id not in known]
        facts = ranking.merge_candidates(facts, fresh) if fresh else facts
        ranking.score_facts(facts, cfg, now, window)
        lifted = ranking.lift_by_session(facts, cfg.session_lift, cfg.session_seeds)
        if lifted:
            ranking.score_facts(facts, cfg, now, window)
        trace["session"] = {"lifted": lifted}
        ordered = ranking.order(facts)
        if self.rescorer is not None and cfg.enable_rescore and ordered:
            pool = ordered[: cfg.rescore_pool]
            got = await self.rescorer.similarities(query, pool)
            blended = blend_semantic(pool, got.scores, cfg.rescore_weight)
            if blended:
                ranking.score_facts(facts, cfg, now, window)
                ordered = ranking.order(facts)
            trace["rescore"] = {"ms": got.ms, "model": self.rescorer.name, "pool": len(pool),
                                "blended": blended, "embedded": got.embedded}
        else:
            trace["rescore"] = {"status": "off"}
        if self.llm is not None and cfg.enable_reranker and ordered:
            pool = ordered[: cfg.rerank_pool]
            t = time.perf_counter()
            outcome = await rerank(self.llm, query, pool, cfg.reranker_timeout_s)
            trace["rerank"] = {"ms": _ms(t), "status": outcome.status, "pool": len(pool),
                               "tokens": outcome.usage.total, "detail": outcome.detail}
            if outcome.scores is not None:
                ordered = ranking.apply_rerank(pool, outcome.scores, cfg)
        else:
            trace["rerank"] = {"status": "off"}
        return ranking.rank(ordered, cfg)


def _merge_events(*lists: list[EventHit]) -> list[EventHit]:
    merged: dict[str, EventHit] = {}
    for hits in lists:
        for hit in hits:
            have = merged.get(hit.id)
            if have is None:
                merged[hit.id] = hit
            else:
                have.semantic = max(have.semantic, hit.semantic)
                have.keyword = max(have.keyword, hit.keyword)
    return list(merged.values())


async def _same(plan: RetrievalPlan) -> RetrievalPlan:
    return plan


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000.0, 2)
