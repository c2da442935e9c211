"""``Retriever.retrieve``: plan → gather the candidates (``gather``: every signal in one
statement, or one per signal) → score, lift, rank → rescore / rerank → format. Decisions live in
pure modules (planner, ranking, formatter); this module only sequences the stages and records
the trace."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from graph import tracing
from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.read import gather, past_turns, planner, ranking
from graph.memory.read.activation import activated_facts, lift_activated
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.focus import TypeFocus, about, apply_focus
from graph.memory.read.formatter import format_context
from graph.memory.read.models import (
    EventHit,
    ObservationHit,
    RetrievalPlan,
    RetrieveResult,
    ScoredFact,
)
from graph.memory.read.ranker import (
    LEARNED_POOL,
    FeatureTable,
    QueryView,
    Ranked,
    RankerModel,
    apply_model,
    explain,
    feature_table,
    query_view,
    shipped_model,
)
from graph.memory.read.recent import RecentRetrieves, new_retrieve_id
from graph.memory.read.rerank import EmbeddingRescorer, blend_semantic, rerank
from graph.memory.read.search import Scope
from graph.memory.read.temporal import TimeWindow, query_window
from graph.memory.spaces import check_space, embedder_name
from graph.memory.text import detect_language, fold
from graph.memory.write.guard import redact_context
from graph.providers.base import ChatLLM, Embedder, embed_queries, read_options
from graph.vector_search import VectorSearchForm, form_of

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


class ModelSource(Protocol):
    """Where a tenant's own ranking model comes from (graph/memory/learning)."""

    async def model_for(self, agent_id: str) -> RankerModel | None: ...


class Retriever:
    """The read pipeline. Providers are injected; ``llm=None`` means offline (no rerank);
    ``rescorer`` (optional) re-scores the top facts with a second embedder; ``pii_mode`` is the
    operator's PII policy (``WriteConfig.pii_mode``): the query sent to the reranker is
    redacted under it, like earlier messages sent as context (``off`` sends it as given)."""

    def __init__(
        self,
        executor: Executor,
        embedder: Embedder,
        llm: ChatLLM | None = None,
        config: RetrieveConfig | None = None,
        rescorer: EmbeddingRescorer | None = None,
        *,
        pii_mode: str = "redact",
        model: RankerModel | None = None,
        observer: Callable[[FeatureTable, QueryView], None] | None = None,
        models: ModelSource | None = None,
    ) -> None:
        self.executor = executor
        self.embedder = embedder
        self.llm = llm
        self.rescorer = rescorer
        self.pii_mode = pii_mode
        self.config = config or RetrieveConfig().with_options(read_options(embedder))
        self.config.validate()
        self._count_cache: dict[str, tuple[float, dict[str, int]]] = {}
        self._model = model
        self.observer = observer
        self.models = models
        self.recent = RecentRetrieves()

    @property
    def model(self) -> RankerModel:
        """The learned ranker's model: the one given, else the shipped one."""
        if self._model is None:
            self._model = shipped_model()
        return self._model

    async def model_for(self, agent_id: str, cfg: RetrieveConfig) -> RankerModel | None:
        """The model that orders ``agent_id``'s candidates: None under ``ranker: formula``;
        the tenant's own when ``models`` knows one (trained from its feedback); else
        :attr:`model`."""
        if cfg.scoring.ranker != "learned":
            return None
        if self.models is not None:
            own = await self.models.model_for(agent_id)
            if own is not None:
                return own
        return self.model

    async def plan(
        self, agent_id: str, query: str, as_of: datetime | None = None, expand: bool = True
    ) -> tuple[RetrievalPlan, dict[str, Any]]:
        """The deterministic plan and the catalog counts (no embedding, no LLM); ``expand``
        adds the named entities' 1-hop neighbours. The text work runs in a worker thread: the
        event loop keeps serving other requests meanwhile."""
        skip = await asyncio.to_thread(planner.casual_plan, query)
        if skip is not None:
            return skip, {}
        terms = await asyncio.to_thread(planner.lookup_terms, query)
        rows, counts, form = await asyncio.gather(
            self.executor.run(
                "read/plan_catalog", {"agent_id": agent_id, **terms.params()}, read=True
            ),
            self._counts(agent_id),
            self._filtered_search(),
        )
        catalog = {
            **rows[0],
            **counts,
            "fact_search": form.filtered,
            "event_search": form.filtered_for("event"),
        }
        matches = [planner.CatalogRow(**m) for m in catalog["matches"]]
        plan = await asyncio.to_thread(planner.build_plan, query, catalog["types"], matches)
        if expand:
            plan = await self.expand(agent_id, plan, as_of)
        return plan, catalog

    async def _filtered_search(self) -> VectorSearchForm:
        """Which indexes allow in-index filtered search: read once per executor, shared with
        the write path (the form only changes when ``ensure_schema`` rebuilds an index)."""
        return await form_of(self.executor)

    async def _counts(self, agent_id: str) -> dict[str, int]:
        """Corpus sizes, cached for ``counts_ttl_s``: they only steer the search strategy. A
        cached zero reads as 1 (run the cheap path) so a stale count never hides new data."""
        now = time.monotonic()
        hit = self._count_cache.get(agent_id)
        if hit is not None and now - hit[0] < self.config.budgets.counts_ttl_s:
            return {k: max(1, v) for k, v in hit[1].items()}
        rows = await self.executor.run("read/agent_counts", {"agent_id": agent_id}, read=True)
        # The agent's vectors must come from this process's model (graph/memory/spaces.py).
        check_space(agent_id, rows[0]["embedder"], embedder_name(self.embedder))
        counts = {k: int(v) for k, v in rows[0].items() if k != "embedder"}
        if len(self._count_cache) >= 10_000:
            self._count_cache.clear()
        self._count_cache[agent_id] = (now, counts)
        return counts

    async def expand(
        self, agent_id: str, plan: RetrievalPlan, as_of: datetime | None
    ) -> RetrievalPlan:
        """The plan with the named entities' 1-hop neighbours (one read; none if no entity)."""
        named = [e.key for e in plan.entities]
        if not named:
            return plan
        neighbours = await self.executor.run(
            "read/entity_neighbours",
            {"agent_id": agent_id, "keys": named, "as_of": as_of, "limit": 20},
            read=True,
        )
        return planner.expand_plan(plan, neighbours)

    @tracing.traced("retrieve", stages_in_trace=True)
    async def retrieve(
        self,
        agent_id: str,
        query: str,
        as_of: datetime | None = None,
        options: dict[str, Any] | None = None,
        focus: TypeFocus | None = None,
    ) -> RetrieveResult:
        """Relevant facts, patterns and conversation snippets for ``query``.

        Args:
            agent_id: whose memory to search.
            query: the question, passed unchanged to semantic search.
            as_of: time travel — what was valid and known at that instant.
            options: per-call overrides of ``RetrieveConfig`` fields (validated).
            focus: keep only, or lift, the facts of some entity or relation types
                (:mod:`graph.memory.read.focus`; None: every fact as it scores).

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
            return _skipped_result(skip, trace, started)

        t = time.perf_counter()
        # Expansion does not steer any signal (BFS walks from the named entities itself), so
        # it runs beside the signals instead of adding a round trip before them.
        (plan, catalog), vectors, model = await asyncio.gather(
            self.plan(agent_id, query, as_of, expand=False),
            embed_queries(self.embedder, [query]),
            self.model_for(agent_id, cfg),
        )
        trace["plan"] = {"ms": _ms(t), "reason": plan.reason}
        now = as_of or datetime.now(UTC)
        scope = Scope(agent_id, as_of, list(vectors[0]), cfg.candidates.min_confidence)

        window = query_window(query, now)
        trace["plan"]["time_window"] = window.text if window else None
        agent_facts = int(catalog.get("agent_facts", 1))
        early: list[asyncio.Task[list[ScoredFact]]] = []

        def activate_early(hits: list[ScoredFact]) -> None:
            if cfg.activation.starts_early and hits:
                task = asyncio.create_task(
                    activated_facts(
                        self.executor, scope, query, ranking.order(hits), cfg, agent_facts
                    )
                )
                # Read its outcome even when the retrieve fails before using it.
                task.add_done_callback(lambda done: done.cancelled() or done.exception())
                early.append(task)

        try:
            facts, events, observations, plan = await gather.one_statement(
                self.executor, plan, catalog, scope, cfg, now, trace, window, activate_early
            )
        except BaseException:
            gather.drop_tasks(*early)
            raise
        facts = about(facts, focus.entity_types if focus else None)
        trace["plan"]["entities"] = [e.key for e in plan.entities]
        trace["plan"]["entities_sources"] = {e.key: e.source for e in plan.entities}
        speakers = [fold(n) for e in plan.entities if e.named for n in (e.name, e.matched)]
        ranking.score_events(events, cfg, now, speakers, window, detect_language(query))
        spread = (scope, agent_facts, early[0] if early else None)
        result_facts, pool = await self._rank(
            query, facts, events, cfg, now, trace, window, spread, focus, (plan, model)
        )
        result = _formatted_result(
            result_facts, observations, events, plan, pool, cfg, trace, started
        )
        return self._named(result, agent_id)

    def _named(self, result: RetrieveResult, agent_id: str) -> RetrieveResult:
        """The result with its retrieve id, its facts' feature rows kept for feedback."""
        result.retrieve_id = new_retrieve_id(datetime.now(UTC))
        rows = {f.id: f.explanation.row for f in result.facts if f.explanation is not None}
        self.recent.keep(result.retrieve_id, agent_id, rows)
        return result

    async def _rank(
        self,
        query: str,
        facts: list[ScoredFact],
        events: list[EventHit],
        cfg: RetrieveConfig,
        now: datetime,
        trace: dict[str, Any],
        window: TimeWindow | None = None,
        spread: tuple[Scope, int, asyncio.Task[list[ScoredFact]] | None] | None = None,
        focus: TypeFocus | None = None,
        ranker: tuple[RetrievalPlan, RankerModel | None] | None = None,
    ) -> tuple[list[ScoredFact], int]:
        """Score (a fact at least its scored source turn: ``ranking.lift_to_turns``), spread
        activation from the best (``spread``: the scope, the agent's fact count and the
        activation's answer when it was started early from the semantic hits), rerank, apply
        the type ``focus`` (filters, then boosts) to every candidate, cut. Returns the ranked
        facts and how many distinct candidates were ranked (signals and spreading activation
        together: the ``total_candidates`` the result reports, never fewer than the facts
        returned)."""

        def score() -> int:
            ranking.score_facts(facts, cfg, now, window, detect_language(query))
            return ranking.lift_to_turns(facts, events, cfg.weight("provenance"))

        trace["provenance"] = {"lifted": score()}
        ordered = ranking.order(facts)
        activated = spread[2] if spread is not None else None
        if spread is not None and cfg.activation.activation_seeds > 0 and ordered:
            t = time.perf_counter()
            extra = (
                await activated
                if activated is not None
                else await activated_facts(self.executor, spread[0], query, ordered, cfg, spread[1])
            )
            known = {f.id for f in facts}
            best = ordered[0].scores.final
            if extra:
                facts = ranking.merge_candidates(facts, extra)
                score()
            lifted = lift_activated(facts, best, cfg.weight("activation")) if extra else 0
            ordered = ranking.order(facts)
            trace["activation"] = {
                "ms": _ms(t),
                "early": activated is not None,
                "rows": len(extra),
                "lifted": lifted,
                "unique": sum(1 for f in extra if f.id not in known),
            }
        else:
            trace["activation"] = {"status": "off"}
        if await self._rescore(query, ordered, cfg, trace):
            score()
            ordered = ranking.order(facts)
        learned: Ranked | None = None
        if ranker is not None and ranker[1] is not None:
            agents_facts = spread[1] if spread is not None else 0
            learned = self._learned_order(
                query, (ranker[0], ranker[1]), facts, events, cfg, now, window, trace, agents_facts
            )
            ordered = ranking.order(facts)
        ordered = await self._rerank(query, ordered, cfg, trace)
        if focus is not None and spread is not None:
            ordered = await apply_focus(self.executor, spread[0].agent_id, ordered, focus)
        ranked = ranking.rank(ordered, cfg)
        if learned is not None:
            explain(learned, ranked)  # the contributions of the facts returned only
        return ranked, len(facts)

    async def _rescore(
        self, query: str, ordered: list[ScoredFact], cfg: RetrieveConfig, trace: dict[str, Any]
    ) -> bool:
        """The second embedder's similarities blended into the semantic score of the top
        ``rescore_pool`` facts, when there is one and it is on; whether any fact changed."""
        if self.rescorer is None or not cfg.rerank.enable_rescore or not ordered:
            trace["rescore"] = {"status": "off"}
            return False
        pool = ordered[: cfg.rerank.rescore_pool]
        got = await self.rescorer.similarities(query, pool)
        blended = blend_semantic(pool, got.scores, cfg.rerank.rescore_weight)
        trace["rescore"] = {
            "ms": got.ms,
            "model": self.rescorer.name,
            "pool": len(pool),
            "blended": blended,
            "embedded": got.embedded,
        }
        return bool(blended)

    def _learned_order(
        self,
        query: str,
        ranker: tuple[RetrievalPlan, RankerModel],
        facts: list[ScoredFact],
        events: list[EventHit],
        cfg: RetrieveConfig,
        now: datetime,
        window: TimeWindow | None,
        trace: dict[str, Any],
        agent_facts: int,
    ) -> Ranked:
        """Every candidate fact and turn scored by the ranking model over its features
        (``ranker``)."""
        t = time.perf_counter()
        plan, model = ranker
        view = query_view(
            query,
            plan,
            detect_language(query),
            window,
            agent_facts,
            relation=any(f.scores.relation > 0 for f in facts),
        )
        table = feature_table(
            facts, events, view, cfg, now, window, LEARNED_POOL, every_row=self.observer is not None
        )
        learned = apply_model(model, table)
        if self.observer is not None:
            self.observer(table, view)
        trace["ranker"] = {
            "ms": _ms(t),
            "model": model.name,
            "version": model.version,
            "candidates": len(table.candidates),
        }
        return learned

    async def _rerank(
        self, query: str, ordered: list[ScoredFact], cfg: RetrieveConfig, trace: dict[str, Any]
    ) -> list[ScoredFact]:
        """The LLM's rerank of the top ``rerank_pool`` facts, when there is an LLM and it is
        on (the order unchanged otherwise, or when the model gave no scores)."""
        if self.llm is None or not cfg.rerank.enable_reranker or not ordered:
            trace["rerank"] = {"status": "off"}
            return ordered
        pool = ordered[: cfg.rerank.rerank_pool]
        t = time.perf_counter()
        # The query goes to the model provider: the operator's PII policy covers it.
        [for_model] = await asyncio.to_thread(redact_context, [query], self.pii_mode)
        outcome = await rerank(self.llm, for_model, pool, cfg.rerank.reranker_timeout_s)
        trace["rerank"] = {
            "ms": _ms(t),
            "status": outcome.status,
            "pool": len(pool),
            "tokens": outcome.usage.total,
            "detail": outcome.detail,
        }
        if outcome.scores is None:
            return ordered
        return ranking.apply_rerank(pool, outcome.scores, cfg)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000.0, 2)


def _skipped_result(plan: RetrievalPlan, trace: dict[str, Any], started: float) -> RetrieveResult:
    """The empty result of a query the planner skips (a greeting)."""
    return RetrieveResult(
        context="",
        facts=[],
        observations=[],
        events=[],
        plan=plan,
        total_candidates=0,
        duration_ms=_ms(started),
        trace=trace,
    )


def _formatted_result(
    facts: list[ScoredFact],
    observations: list[ObservationHit],
    events: list[EventHit],
    plan: RetrievalPlan,
    pool: int,
    cfg: RetrieveConfig,
    trace: dict[str, Any],
    started: float,
) -> RetrieveResult:
    """The result: the best snippets whose turn no chosen fact already stands for (a turn
    whose facts were all superseded or retracted demoted: ``past_turns``), and the formatted
    context."""
    fresh = ranking.drop_provenance(events, facts)
    trace["events"] = {
        "candidates": len(events),
        "dropped_as_provenance": len(events) - len(fresh),
        "past_turns": past_turns.demote_past_turns(fresh, cfg.scoring.past_turn_factor),
    }
    events = sorted(fresh, key=lambda e: (-e.score, e.id))[: cfg.context.topk_events]
    formatted = format_context(facts, observations, events, cfg)
    trace["format"] = {
        "tokens": formatted.tokens,
        "facts": formatted.facts_used,
        "observations": formatted.observations_used,
        "events": formatted.events_used,
    }
    return RetrieveResult(
        context=formatted.text,
        facts=facts,
        observations=observations,
        events=events,
        plan=plan,
        total_candidates=pool,
        duration_ms=_ms(started),
        trace=trace,
        context_tokens=formatted.tokens,
    )
