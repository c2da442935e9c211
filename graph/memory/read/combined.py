"""Every retrieval signal in one round trip (``cypher/read/signals.cypher``).

On a shared 2-core box each statement costs ~10 ms of driver and transaction overhead before it
does any work, and concurrent statements of one request do not overlap it (measured: 1 trivial
statement 11 ms, 7 concurrent 77 ms at load 14). So the semantic (first index over-fetch round
or exact scan), keyword (first full-text round), the hop-decayed traversal from the named
entities (the graph signal), aggregation, event signals, observations and the planner's expansion run
as ``CALL {}`` subqueries of ONE statement. A part whose first round was not enough (too few of
this agent's rows among the global top-k) is re-run alone by the caller with the adaptive
over-fetch of ``search.py``, so multi-tenant results stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.executor import Executor
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, ObservationHit, ScoredFact
from graph.memory.read.ranking import recency
from graph.memory.read.search import (
    Asked,
    Scope,
    SearchStats,
    choose_vector,
    cosine_from_index,
    event_from_row,
    fact_from_row,
    fact_strategy,
    index_min_score,
    initial_k,
)
from graph.plan_shapes import padded, padded_query

__all__ = [
    "NO_MATCH",
    "Combined",
    "FirstRounds",
    "SignalSizes",
    "all_signals",
    "first_rounds",
    "searched",
    "signal_params",
]

NO_MATCH = ""  # list pad in read/signals: no entity key or entity type is empty
NO_TERM = "\u0000"  # relation-term pad: no relation type's word starts with it


@dataclass(frozen=True)
class SignalSizes:
    """Corpus sizes that pick each part's strategy (from the cached agent counts)."""

    agent_facts: int
    total_facts: int
    agent_events: int
    total_events: int
    agent_observations: int
    fact_search: bool = False  # the fact index allows in-index filtered search
    event_search: bool = False  # the event index allows in-index filtered search
    agent_glosses: int = 0  # the agent's facts with an English gloss (a second vector)


@dataclass
class Combined:
    """What the one statement returned, per signal; ``*_complete`` False = re-run that part."""

    semantic: list[ScoredFact] = field(default_factory=list)
    gloss: list[ScoredFact] = field(default_factory=list)  # semantic, through the glosses
    keyword: list[ScoredFact] = field(default_factory=list)
    graph: list[ScoredFact] = field(default_factory=list)
    pattern: list[ScoredFact] = field(default_factory=list)
    events_semantic: list[EventHit] = field(default_factory=list)
    events_keyword: list[EventHit] = field(default_factory=list)
    observations: list[ObservationHit] = field(default_factory=list)
    neighbours: list[dict[str, Any]] = field(default_factory=list)
    relation_answers: set[str] = field(default_factory=set)
    semantic_complete: bool = True
    keyword_complete: bool = True
    events_semantic_complete: bool = True
    events_keyword_complete: bool = True


def _complete(
    rows: int,
    limit: int,
    fetched: int,
    k: int,
    cap: int,
    floor: float | None = None,
    min_score: float | None = None,
) -> bool:
    """The rule of ``search.overfetch`` after its first round."""
    below = min_score is not None and floor is not None and floor < min_score
    return rows >= limit or fetched < k or below or k >= cap


def strategies(cfg: RetrieveConfig, sizes: SignalSizes) -> tuple[str, str]:
    """The semantic part's strategy for facts and for events (``search.fact_strategy``)."""
    b = cfg.budgets
    facts = fact_strategy(
        cfg.candidates.semantic_limit,
        sizes.agent_facts,
        sizes.total_facts,
        b.exact_max(sizes.fact_search),
        b.overfetch_cap,
        sizes.fact_search,
    )
    events = fact_strategy(
        cfg.context.topk_events * 3,
        sizes.agent_events,
        sizes.total_events,
        b.exact_max(sizes.event_search),
        b.overfetch_cap,
        sizes.event_search,
    )
    return facts, events


def searched(cfg: RetrieveConfig, sizes: SignalSizes) -> tuple[bool, bool]:
    """Whether the semantic part of facts, and of events, runs on its own beside
    ``read/signals`` (pure; ``gather.one_statement`` starts it first): a part that goes
    through in-index filtered search (SEARCH cannot run inside the statement), and the facts'
    part of any strategy (exact scan, over-fetch of the shared index) when spreading
    activation starts early from its hits (``activation_early``): activation then runs beside
    the statement instead of after it."""
    facts, events = strategies(cfg, sizes)
    early_activation = cfg.activation.starts_early and sizes.agent_facts > 0
    return (
        facts == "search" or early_activation,
        events == "search" and sizes.agent_events > 0,
    )


@dataclass(frozen=True)
class FirstRounds:
    """How each over-fetching part of ``read/signals`` runs its first round (pure: from the
    config and the corpus sizes)."""

    sem_strategy: str
    ev_strategy: str
    sem_index: bool  # the semantic part reads the vector index (else the exact scan)
    sem_k: int
    sem_min: float
    kw_k: int
    ev_limit: int
    ev_min: float
    ev_index: bool
    ev_k: int
    ev_kw_k: int
    events: bool  # the agent holds events
    obs: bool  # the observations part runs
    # the semantic part through the English glosses runs here (the agent has some, no more
    # than an exact scan takes, and the semantic part is not run on its own) ...
    glosses: bool = False
    # ... or, with more glosses than that, with the semantic part's re-run
    gloss_rerun: bool = False


def first_rounds(cfg: RetrieveConfig, sizes: SignalSizes) -> FirstRounds:
    """The first round of every part: strategies, over-fetch sizes and index floors."""
    budgets = cfg.budgets
    sem_strategy, ev_strategy = strategies(cfg, sizes)
    sem_alone, _ = searched(cfg, sizes)
    sem_k = initial_k(
        cfg.candidates.semantic_limit, sizes.agent_facts, sizes.total_facts, budgets.overfetch_cap
    )
    # A part run on its own (filtered search has no procedure form to embed here; a scan or
    # over-fetch activation starts from) is a one-hit index probe here (cheap, discarded).
    if sem_alone:
        sem_k = 1
    ev_limit = cfg.context.topk_events * 3
    ev_k = initial_k(ev_limit, sizes.agent_events, sizes.total_events, budgets.overfetch_cap)
    if ev_strategy == "search":  # as for facts: a one-hit probe here, SEARCH alone afterwards
        ev_k = 1
    glossed = cfg.candidates.enable_gloss and sizes.agent_glosses > 0 and not sem_alone
    gloss_scan = sizes.agent_glosses <= budgets.exact_scan_max_facts
    return FirstRounds(
        sem_strategy=sem_strategy,
        ev_strategy=ev_strategy,
        sem_index=sem_strategy != "exact" or sem_alone,
        sem_k=sem_k,
        sem_min=index_min_score(cfg.candidates.min_similarity),
        # The full-text query is limited to the agent inside the index (planner.agent_lucene):
        # its own share of the index is all of it.
        kw_k=initial_k(
            cfg.candidates.keyword_limit,
            sizes.agent_facts,
            sizes.agent_facts,
            budgets.fulltext_cap,
        ),
        ev_limit=ev_limit,
        ev_min=index_min_score(cfg.context.min_event_similarity),
        ev_index=ev_strategy != "exact",
        ev_k=ev_k,
        ev_kw_k=initial_k(ev_limit, sizes.agent_events, sizes.agent_events, budgets.fulltext_cap),
        events=sizes.agent_events > 0,
        obs=sizes.agent_observations > 0 and cfg.context.max_observations > 0,
        glosses=glossed and gloss_scan,
        gloss_rerun=glossed and not gloss_scan,
    )


def signal_params(
    cfg: RetrieveConfig,
    rounds: FirstRounds,
    *,
    lucene: str,
    seeds: list[dict[str, Any]],
    graph_limit: int,
    pattern_types: list[str],
    named: list[str],
    relation_terms: list[str] | None,
) -> dict[str, Any]:
    """The parameters of ``read/signals`` beside the scope and the time (pure)."""
    graph = cfg.graph
    # Neo4j caches a plan per statement text AND parameter types, with the size of each list
    # and string rounded up to a power of ten (graph/plan_shapes.py): the lists are padded to
    # one size bucket and the keyword text to another, or a question naming no entity, three
    # entities or a rare word each needed a plan of its own (1-5 s to make on 2 cores). The
    # pads match nothing (entity keys and types are never empty); ``warmup.warm_up`` plans
    # the variants at start-up. The text is sent even when the agent holds no facts/events
    # (the part then finds nothing): "" is a plan of its own.
    return {
        "half_life_days": cfg.scoring.recency_half_life_days,
        "sem_index": rounds.sem_index,
        "sem_k": rounds.sem_k,
        "sem_min_score": rounds.sem_min,
        "sem_limit": cfg.candidates.semantic_limit,
        "glosses": rounds.glosses,
        "q": padded_query(lucene),
        "kw_k": rounds.kw_k,
        "kw_limit": cfg.candidates.keyword_limit,
        "seeds": padded(seeds, {"key": NO_MATCH, "named": False}),
        "max_entities": graph.graph_max_entities,
        "max_hops": graph.max_hops,
        "hop_decay": graph.hop_decay,
        "query_bonus": graph.query_bonus,
        "graph_pool": graph_limit * graph.graph_pool_factor,
        "graph_budget": graph_limit * graph.graph_read_budget,
        "graph_scan": graph_limit * graph.graph_pool_factor * graph.hub_scan_factor,
        "graph_limit": graph_limit,
        "types": padded(pattern_types, NO_MATCH),
        "agg_pool": graph_limit * graph.graph_pool_factor,
        "agg_limit": graph_limit,
        "events": rounds.events,
        "ev_q": padded_query(lucene),
        "ev_index": rounds.ev_index,
        "ev_k": rounds.ev_k,
        "ev_min_score": rounds.ev_min,
        "ev_limit": rounds.ev_limit,
        "ev_kw_k": rounds.ev_kw_k,
        "ev_kw_limit": rounds.ev_limit,
        "obs": rounds.obs,
        "obs_min_score": index_min_score(cfg.candidates.min_similarity),
        "obs_limit": cfg.context.max_observations,
        "named": padded(named, NO_MATCH),
        "expand_limit": 20,
        "relation_terms": padded(relation_terms or [], NO_TERM),
    }


async def all_signals(
    ex: Executor,
    scope: Scope,
    cfg: RetrieveConfig,
    now: datetime,
    sizes: SignalSizes,
    *,
    lucene: str,
    seeds: list[dict[str, Any]],
    graph_limit: int,
    pattern_types: list[str],
    named: list[str],
    stats: dict[str, SearchStats],
    relation_terms: list[str] | None = None,
    asked: Asked | None = None,
) -> Combined:
    """Run ``read/signals`` once and split its answer into the per-signal candidate lists
    (``asked``: the question's language, which a glossed fact's two cosines are weighed by)."""
    rounds = first_rounds(cfg, sizes)
    params = signal_params(
        cfg,
        rounds,
        lucene=lucene,
        seeds=seeds,
        graph_limit=graph_limit,
        pattern_types=pattern_types,
        named=named,
        relation_terms=relation_terms,
    )
    row = (await ex.run("read/signals", scope.params(now=now, **params), read=True))[0]
    out = Combined()
    split_fact_hits(row, cfg, now, out, asked or Asked())
    mark_fact_rounds(row, cfg, sizes, rounds, lucene, out, stats)
    split_event_hits(row, out)
    mark_event_rounds(row, cfg, rounds, lucene, out, stats)
    out.observations = [
        ObservationHit(
            id=o["id"],
            text=o["text"] or "",
            kind=o.get("kind"),
            semantic=cosine_from_index(o["score"]),
        )
        for o in row["observations"]
    ]
    out.neighbours = list(row["neighbours"])
    out.relation_answers = {str(i) for i in row["relation_answers"]}
    return out


def split_fact_hits(
    row: dict[str, Any], cfg: RetrieveConfig, now: datetime, out: Combined, asked: Asked
) -> None:
    """The statement's fact hits → scored candidates of their signal's list in ``out``."""
    facts = {f["id"]: f for f in row["facts"]}
    kw_top = max((float(h["score"]) for h in row["hits"] if h["signal"] == "keyword"), default=0.0)
    for hit in row["hits"]:
        signal = hit["signal"]
        fact = fact_from_row(facts[hit["id"]], "semantic" if signal == "gloss" else signal)
        fact.scores.semantic = cosine_from_index(hit["semantic"])
        if signal == "gloss":  # a glossed fact: the better of its two vectors
            text, gloss = hit.get("text_score"), hit.get("gloss_score")
            choose_vector(
                fact,
                cosine_from_index(text) if text is not None else -1.0,
                cosine_from_index(gloss) if gloss is not None else None,
                asked,
            )
        score = float(hit["score"])
        if signal == "keyword":
            fact.scores.keyword = score / kw_top if kw_top > 0 else 0.0
        elif signal == "graph":
            # the hop-decayed traversal: proximity × the fact's recency (floored at 0.5)
            fresh = 0.5 + 0.5 * recency(fact.created_at, now, cfg.scoring.recency_half_life_days)
            fact.scores.graph = min(1.0, score * fresh / cfg.graph.query_bonus)
            fact.hops = int(hit["hops"])
        elif signal == "pattern":
            fact.scores.graph = 1.0 / cfg.graph.query_bonus
        getattr(out, signal).append(fact)


def mark_fact_rounds(
    row: dict[str, Any],
    cfg: RetrieveConfig,
    sizes: SignalSizes,
    rounds: FirstRounds,
    q: str,
    out: Combined,
    stats: dict[str, SearchStats],
) -> None:
    """Whether the semantic and keyword fact parts need a re-run, and their search stats."""
    out.semantic_complete = rounds.sem_strategy != "search" and (
        not rounds.sem_index
        or _complete(
            len(out.semantic),
            cfg.candidates.semantic_limit,
            int(row["sem_fetched"]),
            rounds.sem_k,
            cfg.budgets.overfetch_cap,
            row["sem_floor"],
            rounds.sem_min,
        )
    )
    if rounds.gloss_rerun:  # the glosses' index search runs with the semantic part's re-run
        out.semantic_complete = False
    out.keyword_complete = (
        not q
        or sizes.agent_facts == 0
        or _complete(
            len(out.keyword),
            cfg.candidates.keyword_limit,
            int(row["kw_fetched"]),
            rounds.kw_k,
            cfg.budgets.fulltext_cap,
        )
    )
    stats["semantic"] = SearchStats(
        rounds.sem_strategy,
        [rounds.sem_k] if rounds.sem_index else [],
        False,
        len(out.semantic),
        glosses="exact" if rounds.glosses else "",
    )
    stats["keyword"] = SearchStats(
        "fulltext", [rounds.kw_k] if q and sizes.agent_facts else [], False, len(out.keyword)
    )


def split_event_hits(row: dict[str, Any], out: Combined) -> None:
    """The statement's event hits → the semantic and keyword snippet lists in ``out``."""
    events_by_id = {e["id"]: e for e in row["events"]}
    ev_kw_top = max(
        (float(h["score"]) for h in row["event_hits"] if h["signal"] == "keyword"), default=0.0
    )
    for hit in row["event_hits"]:
        ev = event_from_row(events_by_id[hit["id"]])
        ev.semantic = cosine_from_index(hit["semantic"])
        if hit["signal"] == "keyword":
            ev.keyword = float(hit["score"]) / ev_kw_top if ev_kw_top > 0 else 0.0
            out.events_keyword.append(ev)
        else:
            out.events_semantic.append(ev)


def mark_event_rounds(
    row: dict[str, Any],
    cfg: RetrieveConfig,
    rounds: FirstRounds,
    ev_q: str,
    out: Combined,
    stats: dict[str, SearchStats],
) -> None:
    """Whether the event parts need a re-run, and their search stats."""
    events, ev_strategy = rounds.events, rounds.ev_strategy
    out.events_semantic_complete = not (events and ev_strategy == "search") and (
        not (events and rounds.ev_index)
        or _complete(
            len(out.events_semantic),
            rounds.ev_limit,
            int(row["ev_fetched"]),
            rounds.ev_k,
            cfg.budgets.overfetch_cap,
            row["ev_floor"],
            rounds.ev_min,
        )
    )
    out.events_keyword_complete = not (events and ev_q) or _complete(
        len(out.events_keyword),
        rounds.ev_limit,
        int(row["ev_kw_fetched"]),
        rounds.ev_kw_k,
        cfg.budgets.fulltext_cap,
    )
    stats["events_semantic"] = SearchStats(
        "none" if not events else ev_strategy,
        [rounds.ev_k] if events and rounds.ev_index else [],
        False,
        len(out.events_semantic),
    )
    stats["events_keyword"] = SearchStats(
        "fulltext",
        [rounds.ev_kw_k] if events and ev_q else [],
        False,
        len(out.events_keyword),
    )
