"""The option groups of ``retrieve``, one frozen dataclass per stage, with their defaults and
the reasons for them and each option's allowed values beside its default (``graph.options``;
``graph.memory.read.config`` assembles the groups into ``RetrieveConfig``), and the flat
vocabulary of per-call overrides: every field name is unique across the groups."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from graph.options import option

__all__ = [
    "DEFAULT_WEIGHTS",
    "FLAT",
    "GROUPS",
    "ActivationConfig",
    "BudgetConfig",
    "CandidateConfig",
    "ContextConfig",
    "GraphConfig",
    "RerankConfig",
    "ScoringConfig",
]

DEFAULT_WEIGHTS: dict[str, float] = {
    "semantic": 0.70,
    "recency": 0.20,
    "importance": 0.10,
    # Additive boosts on top of the weighted sum (the three above sum to 1). Keyword and graph
    # are candidate generators that also lift facts they found: exact terms and named entities
    # are strong evidence the embedding alone under-weights.
    "keyword": 0.15,
    "graph": 0.15,
    # A fact spreading activation reached (activation.py; only with activation_seeds > 0)
    # scores at least this share of its seed's final score × its activation: never above it.
    "activation": 0.9,
    # Boost of the fact that evidences a named entity's relation the question asks for
    # ("Where does Ana live?" → the evidence of Ana's lives_in; relations.py).
    "relation": 0.3,
    # Boost of facts / snippets dated inside a time window the query names ("in May 2023").
    "temporal": 0.15,
    # A fact scores at least this share of the final score of the conversation turn it was
    # extracted from (FROM_EVENT), when that turn is a snippet candidate: the turn often says
    # more than the one-line fact (ranking.lift_to_turns; no effect without turns).
    "provenance": 1.0,
}


@dataclass(frozen=True)
class CandidateConfig:
    """The semantic and keyword signals: which facts become candidates."""

    min_similarity: float = option(0.20, -1.0, 1.0)  # raw cosine in [-1, 1]
    min_confidence: float = option(0.55, 0.0, 1.0)
    semantic_limit: int = 60
    keyword_limit: int = 40
    # Keyword candidates + boost (switch for ablation and per-call tuning).
    enable_keyword: bool = True
    # A fact not in English may carry an English gloss, a second vector of it: the semantic
    # signal scores such a fact by the better of its text's and its gloss's cosine (switch for
    # ablation and per-call tuning; nothing to read for an agent without glosses).
    enable_gloss: bool = True
    # Whether the named entities' words stay in the keyword query (see planner.keyword_terms).
    # Off: the graph signal covers the entity, and a name's global IDF (every tenant's text)
    # would dominate BM25 (full LoCoMo dev ablation: +0.8 / +2.3 pts R@10 facts / with turns).
    keyword_names: bool = False


@dataclass(frozen=True)
class GraphConfig:
    """The hop-decayed traversal (BFS) from the planner's entities, its 1-hop neighbour
    expansion, aggregation by type."""

    graph_limit: int = 60
    # Graph candidates whose cosine is computed = graph_limit × this (bounds hub entities).
    graph_pool_factor: int = option(4, 1, 50)
    # BFS fan-out bound: the closest entities whose facts are read (each at most the pool).
    graph_max_entities: int = option(40, 1, 1000)
    # ... read closest first while the ABOUT degree of the strictly closer ones stays under
    # graph_limit × this: the answer is ordered by proximity first, so once closer entities
    # hold graph_limit visible facts a farther entity's cannot enter it (× 2: the degree also
    # counts facts the read skips, such as old versions).
    graph_read_budget: int = option(2, 1, 100)
    # A hub's bound (the traversal): at most pool × this visible facts read per entity.
    hub_scan_factor: int = option(4, 1, 100)
    max_hops: int = option(2, 0, 2, note="the traversal file bound")
    hop_decay: float = option(0.5, 0.0, 1.0)
    query_bonus: float = 1.5
    # Signal switches (ablation and per-call tuning): BFS from the planner's entities, the
    # planner's 1-hop neighbour expansion, aggregation by entity type.
    enable_graph: bool = True
    enable_expansion: bool = True
    enable_aggregation: bool = True


@dataclass(frozen=True)
class ScoringConfig:
    """The blend: weights, recency and confidence decay, pattern boost, the score cut."""

    recency_half_life_days: float = option(14.0, 0.0, lo_open=True)
    confidence_half_life_days: float = option(365.0, 0.0, lo_open=True)
    confidence_weight: float = option(
        0.2, 0.0, 1.0
    )  # formula × (1 − cw + cw × effective confidence)
    # option() is a dataclasses.field with a default factory: every config gets its own dict
    weights: dict[str, float] = option(  # noqa: RUF009
        lo=0.0, hi=5.0, keys=DEFAULT_WEIGHTS, factory=lambda: dict(DEFAULT_WEIGHTS)
    )
    pattern_boost_max: float = 0.10
    pattern_saturation: ClassVar[int] = 10  # observations at which the pattern boost is full
    min_score: float = 0.15
    # The embedder's cosine of unrelated texts: the blend reads semantic as (cos − floor) /
    # (1 − floor) (ranking.calibrate). A retriever built without a config, and the composition
    # root, take it from the embedder (``similarity_floor``: MiniLM 0, e5 0.8).
    semantic_floor: float = option(0.0, 0.0, 1.0, hi_open=True)
    # A multilingual embedder scores a fact in another language than the question lower than
    # one of the same meaning in the question's language (e5: about 0.04 on Pirá): that
    # cosine gap is added back to the other language's candidates (``ranking.language_gap``),
    # so a mixed memory is ranked as one. Taken from the embedder like the floor.
    language_gap: float = option(0.0, 0.0, 0.2)
    # A conversation turn whose every extracted fact is closed as of the retrieve's as_of
    # (updated or retracted: ``EventHit.superseded``) keeps this share of its score, so the
    # turns of what holds rank above what was said before (``past_turns``; 1 = no demotion,
    # the context marks such a turn as earlier either way).
    # Measured: tests/bench/past_turns.py (docs/benchmarks.md).
    past_turn_factor: float = option(0.8, 0.0, 1.0)
    # The order: ``learned`` (the shipped model over every candidate's features, or the
    # tenant's own, graph/memory/read/ranker) or ``formula`` (the weighted formula above).
    # Both keep the formula's score as the cut (``min_score``) and as a feature.
    ranker: str = option("learned", choices=("learned", "formula"))


@dataclass(frozen=True)
class ActivationConfig:
    """Spreading activation from the best-ranked facts (activation.py: on, 3 seeds): through
    the entities they mention to those entities and their RELATES_TO neighbours, decaying on
    the way, then to the facts about what it reached (0 seeds = off; docs/benchmarks.md,
    multi-hop)."""

    activation_seeds: int = option(3, 0, 20)
    activation_entities: int = option(20, 1, 200)
    activation_per_entity: int = option(3, 1, 50)
    # About how many facts activation compares with the query (a vector read and a cosine
    # each): entities are read best first while the ABOUT degree of the better ones is below.
    activation_read_budget: int = option(240, 1, 100_000)
    # Fixed decay: activation across a relation whose type shares no word with the query, and
    # to a fact that shares an entity with a seed (hop 0).
    activation_unmatched: ClassVar[float] = 0.5
    activation_shared: ClassVar[float] = 0.5
    # An entity mentioned by more than max(entity_hub_min, share × the agent's facts) facts is
    # a hub (a speaker, the user): activation reads its facts, not its neighbours (fixed).
    entity_hub_share: ClassVar[float] = 0.1
    entity_hub_min: ClassVar[int] = 20
    # Seed activation from the semantic hits' own ranking as soon as they arrive, so it runs
    # alongside the signals statement instead of after the first ranking: the agent's
    # semantic part (in-index search, exact scan or shared-index over-fetch) is then its own
    # statement, sent first (Neo4j 2026.08: MuSiQue triples R@5 0.660 vs 0.650, p50 63 vs
    # 86 ms; LoCoMo the same recall, 49 vs 54 ms/q; docs/benchmarks.md for 5.26).
    activation_early: bool = True

    @property
    def starts_early(self) -> bool:
        """Activation spreads, and starts from the semantic hits when they come first."""
        return self.activation_early and self.activation_seeds > 0


@dataclass(frozen=True)
class ContextConfig:
    """What the result holds and the formatted context's token budget."""

    topk_facts: int = option(20, 1, 500)
    topk_events: int = option(8, 0, 200)
    context_max_tokens: int = option(2000, 50)
    # Fixed shares of the budget: facts fill the hot tier, then the warm one; patterns the cold.
    hot_tier_ratio: ClassVar[float] = 0.50
    warm_tier_ratio: ClassVar[float] = 0.30
    cold_tier_ratio: ClassVar[float] = 0.20
    max_observations: int = 3
    event_snippet_chars: int = 300
    event_overflow_tokens: ClassVar[int] = 400  # snippets may pass the budget by this much
    min_event_similarity: float = 0.20


@dataclass(frozen=True)
class RerankConfig:
    """The LLM reranker, and second-embedder re-scoring (only with a rescorer: setting
    ``rescorer``, e.g. e5): the top ``rescore_pool`` (fixed) facts get ``rescore_weight`` of
    their semantic score from it."""

    enable_reranker: bool = True
    rerank_pool: int = option(40, 1, 200)
    reranker_weight: float = option(0.70, 0.0, 1.0)
    min_reranker_score: float = 0.10
    reranker_timeout_s: float = option(5.0, 0.0, lo_open=True)
    enable_rescore: bool = True
    rescore_pool: ClassVar[int] = 40
    rescore_weight: float = option(0.5, 0.0, 1.0)


@dataclass(frozen=True)
class BudgetConfig:
    """Work caps of the multi-tenant search strategy (graph/memory/read/search.py)."""

    exact_scan_max_facts: int = 1_000
    # Servers with in-index filtered vector search (Neo4j 2026.01+): agents (event sets) past
    # this size use it instead of the exact scan. Measured (bench_agent_vectors, 2026.08):
    # recall@10 1.00 against the exact scan at 50 to 1,000 facts, 4-6 ms where the scan
    # takes 5 ms at 50 facts, 12 at 300, 30 at 1,000.
    search_min_facts: int = 100
    overfetch_cap: int = 20_000
    fulltext_cap: int = 50_000
    # How long a Retriever reuses an agent's corpus sizes (strategy hints only; 0 = always read)
    counts_ttl_s: float = 30.0

    def exact_max(self, filtered: bool) -> int:
        """The largest set scanned exactly, with (``filtered``) or without in-index filtered
        search on the server."""
        return self.search_min_facts if filtered else self.exact_scan_max_facts


GROUPS: dict[str, type] = {
    "candidates": CandidateConfig,
    "graph": GraphConfig,
    "scoring": ScoringConfig,
    "activation": ActivationConfig,
    "context": ContextConfig,
    "rerank": RerankConfig,
    "budgets": BudgetConfig,
}
# Flat option name → the group that holds it (names are unique across groups).
FLAT: dict[str, str] = {
    f.name: group for group, cls in GROUPS.items() for f in dataclasses.fields(cls)
}
