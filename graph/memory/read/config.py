"""Configuration of the read pipeline: small nested groups, per-call overrides by flat name.

``RetrieveConfig`` is a frozen dataclass of groups, one per stage: ``candidates`` (semantic and
keyword signals), ``graph`` (BFS from the named entities, planner expansion), ``scoring`` (the
blend's weights, decays, cut), ``expansion`` (entity-centric expansion), ``activation``
(spreading activation), ``context`` (sizes and budget of the formatted context), ``rerank``
(LLM reranker, second-embedder re-scoring), ``budgets`` (work caps of the search strategy) and
``variants`` (levers the benchmarks measured without gain: off by default, kept to compare).

Every field name is unique across the groups, so overrides keep one flat vocabulary:
``RetrieveConfig().with_options({"topk_facts": 5, "weights": {"recency": 0.0}})``; a group may
also be given whole, ``{"graph": {"max_hops": 1}}``. ``with_options`` validates (unknown keys,
wrong types and out-of-range values raise ``ConfigError``, never a traceback) and returns a new
config; ``RetrieveConfig.of(**flat)`` builds one from flat names (tests, benchmarks).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from graph.errors import ConfigError

__all__ = [
    "CEILINGS",
    "DEFAULT_WEIGHTS",
    "ENTITY_EXPANSIONS",
    "FLAT",
    "FUSIONS",
    "KEYWORD_MODELS",
    "ActivationConfig",
    "BudgetConfig",
    "CandidateConfig",
    "ContextConfig",
    "ExpansionConfig",
    "GraphConfig",
    "RerankConfig",
    "RetrieveConfig",
    "ScoringConfig",
    "VariantConfig",
    "check_within_bounds",
]

FUSIONS = ("blend", "rrf")
ENTITY_EXPANSIONS = ("off", "named", "feedback")
KEYWORD_MODELS = ("bm25", "coverage")

DEFAULT_WEIGHTS: dict[str, float] = {
    "semantic": 0.70,
    "recency": 0.20,
    "importance": 0.10,
    # Additive boosts on top of the weighted sum (the three above sum to 1). Keyword and graph
    # are candidate generators that also lift facts they found: exact terms and named entities
    # are strong evidence the embedding alone under-weights.
    "keyword": 0.15,
    "graph": 0.15,
    # A fact the relation bridge reached (bridge.py; only with bridge_seeds > 0) scores at least
    # this share of its seed's final score × the bridge's weight: never above its seed.
    "bridge": 0.9,
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

    min_similarity: float = 0.20  # raw cosine in [-1, 1]
    min_confidence: float = 0.55
    semantic_limit: int = 60
    keyword_limit: int = 40
    # Keyword candidates + boost (switch for ablation and per-call tuning).
    enable_keyword: bool = True
    # Whether the named entities' words stay in the keyword query (see planner.keyword_terms).
    # Off: the graph signal covers the entity, and a name's global IDF (every tenant's text)
    # would dominate BM25 (full LoCoMo dev ablation: +0.8 / +2.3 pts R@10 facts / with turns).
    keyword_names: bool = False


@dataclass(frozen=True)
class GraphConfig:
    """BFS from the planner's entities, its 1-hop neighbour expansion, aggregation by type."""

    graph_limit: int = 60
    # Graph candidates whose cosine is computed = graph_limit × this (bounds hub entities).
    graph_pool_factor: int = 4
    # BFS fan-out bound: the closest entities whose facts are read (each at most the pool).
    graph_max_entities: int = 40
    # ... read closest first while the ABOUT degree of the closer ones stays under pool × this
    # (their facts fill the pool before a farther entity's can enter it).
    graph_read_budget: int = 2
    # A hub's bound (BFS and activation): at most pool × this visible facts read per entity.
    hub_scan_factor: int = 4
    max_hops: int = 2
    hop_decay: float = 0.5
    query_bonus: float = 1.5
    # Signal switches (ablation and per-call tuning): BFS from the planner's entities, the
    # planner's 1-hop neighbour expansion, aggregation by entity type.
    enable_graph: bool = True
    enable_expansion: bool = True
    enable_aggregation: bool = True


@dataclass(frozen=True)
class ScoringConfig:
    """The blend: weights, recency and confidence decay, pattern boost, the score cut."""

    recency_half_life_days: float = 14.0
    confidence_half_life_days: float = 365.0
    confidence_weight: float = 0.2  # formula × (1 − cw + cw × effective confidence)
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    pattern_boost_max: float = 0.10
    pattern_saturation: int = 10
    min_score: float = 0.15


@dataclass(frozen=True)
class ExpansionConfig:
    """Entity-centric expansion (graph/memory/read/entity_expansion.py).

    "named" = the facts of the entities the query names and of their 1-hop neighbours
    (co-mentioned or related) join the candidates, scored by the entities' specificity;
    "feedback" = also seeded by the entities of the ``activation_seeds`` most similar facts;
    "off" = neither."""

    entity_expansion: str = "off"
    entity_feedback_weight: float = 0.5  # seed weight of a feedback entity (named: 1.0)
    entity_decay: float = 0.5  # weight × decay per hop
    entity_max: int = 20  # entities whose facts are read
    entity_per_seed: int = 20  # facts per seed entity (the most query-similar)
    entity_per_neighbour: int = 5  # facts per neighbour entity
    # An entity mentioned by more than max(entity_hub_min, share × the agent's facts) facts is
    # a hub (a speaker, the user): its facts are read, its neighbours are not.
    entity_hub_share: float = 0.1
    entity_hub_min: int = 20


@dataclass(frozen=True)
class ActivationConfig:
    """Spreading activation from the best semantic hits' entities along RELATES_TO (off by
    default: it measured 0.0 on LoCoMo and on MuSiQue for about half of retrieve's time), and
    the relation bridge from the best-ranked facts (bridge.py: on, 3 seeds)."""

    activation_hops: int = 0
    activation_decay: float = 0.5
    activation_seeds: int = 5
    activation_facts_per_entity: int = 3
    activation_max_related: int = 5
    # Relation bridge (graph/memory/read/bridge.py): from the bridge_seeds best-ranked facts
    # through the entities they mention to those entities and their RELATES_TO neighbours, then
    # to the facts about what it reached (0 seeds = off; docs/benchmarks.md, multi-hop).
    bridge_seeds: int = 3
    bridge_entities: int = 20
    bridge_per_entity: int = 3
    bridge_unmatched: float = 0.5  # weight of a relation whose type shares no word with the query
    bridge_shared: float = 0.5  # weight of a fact that shares an entity with a seed (hop 0)


@dataclass(frozen=True)
class ContextConfig:
    """What the result holds and the formatted context's token budget."""

    topk_facts: int = 20
    topk_events: int = 8
    context_max_tokens: int = 2000
    hot_tier_ratio: float = 0.50
    warm_tier_ratio: float = 0.30
    cold_tier_ratio: float = 0.20
    max_observations: int = 3
    event_snippet_chars: int = 300
    event_overflow_tokens: int = 400
    min_event_similarity: float = 0.20


@dataclass(frozen=True)
class RerankConfig:
    """The LLM reranker, and second-embedder re-scoring (only with a rescorer: setting
    ``rescorer``, e.g. e5): the top ``rescore_pool`` facts get ``rescore_weight`` of their
    semantic score from it."""

    enable_reranker: bool = True
    rerank_pool: int = 40
    reranker_weight: float = 0.70
    min_reranker_score: float = 0.10
    reranker_timeout_s: float = 5.0
    enable_rescore: bool = True
    rescore_pool: int = 40
    rescore_weight: float = 0.5


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


@dataclass(frozen=True)
class VariantConfig:
    """Levers measured on the full LoCoMo dev set without a gain (docs/benchmarks.md): each is
    off by default and kept so the benchmarks (``--ablate``, ``--variant``) and a caller can
    still compare against it."""

    # "blend": the weighted formula; "rrf": reciprocal-rank fusion of the per-signal rankings
    # (semantic, keyword, graph) with ``rrf_k``, recency/importance/confidence as tie-breaking
    # multipliers (measured −8.9 pts R@10 with turns).
    fusion: str = "blend"
    rrf_k: int = 60
    # Keyword score of a candidate: "bm25" = the full-text hit's BM25 / the best hit's;
    # "coverage" = also the IDF-weighted share of the query terms it contains, computed over
    # every candidate (ranking.keyword_coverage; within noise).
    keyword_model: str = "bm25"
    # Every signal in one statement (read/signals.cypher, one round trip); False = one
    # statement per signal, run concurrently (the earlier path, kept for comparison).
    single_statement: bool = True
    # Session adjacency (0 = off): facts from the same turn or session instant as one of the
    # ``session_seeds`` best facts get a graph score of this share of the seed's formula.
    session_lift: float = 0.0
    session_seeds: int = 3
    # MMR on word overlap over the final cut (0 = plain score order); see ranking.diversify.
    diversity: float = 0.0
    # Conversation context: the turns just before / after the best snippets (0 = off).
    context_turns: int = 0
    context_seeds: int = 5
    context_decay: float = 0.8
    context_window_s: int = 3600


_GROUPS: dict[str, type] = {
    "candidates": CandidateConfig,
    "graph": GraphConfig,
    "scoring": ScoringConfig,
    "expansion": ExpansionConfig,
    "activation": ActivationConfig,
    "context": ContextConfig,
    "rerank": RerankConfig,
    "budgets": BudgetConfig,
    "variants": VariantConfig,
}
# Flat option name → the group that holds it (names are unique across groups).
FLAT: dict[str, str] = {
    f.name: group for group, cls in _GROUPS.items() for f in dataclasses.fields(cls)
}


@dataclass(frozen=True)
class RetrieveConfig:
    """Every tunable of ``retrieve``, grouped by stage (see the module docstring)."""

    candidates: CandidateConfig = field(default_factory=CandidateConfig)
    graph: GraphConfig = field(default_factory=GraphConfig)
    scoring: ScoringConfig = field(default_factory=ScoringConfig)
    expansion: ExpansionConfig = field(default_factory=ExpansionConfig)
    activation: ActivationConfig = field(default_factory=ActivationConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    rerank: RerankConfig = field(default_factory=RerankConfig)
    budgets: BudgetConfig = field(default_factory=BudgetConfig)
    variants: VariantConfig = field(default_factory=VariantConfig)

    @classmethod
    def of(cls, **values: Any) -> RetrieveConfig:
        """A config from flat option names, the rest default (``RetrieveConfig.of(topk_facts=5)``).

        Raises:
            ConfigError: unknown name or out-of-range value.
        """
        for key in values:
            if key not in FLAT:
                raise ConfigError(f"unknown retrieve option {key!r}")
        new = cls()._replaced(values)
        new.validate()
        return new

    def flat(self) -> dict[str, Any]:
        """Every option by its flat name (the vocabulary of overrides)."""
        return {name: getattr(getattr(self, group), name) for name, group in FLAT.items()}

    def get(self, name: str) -> Any:
        """One option by its flat name."""
        return getattr(getattr(self, FLAT[name]), name)

    def _replaced(self, changes: dict[str, Any]) -> RetrieveConfig:
        by_group: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            by_group.setdefault(FLAT[key], {})[key] = value
        return dataclasses.replace(
            self,
            **{
                group: dataclasses.replace(getattr(self, group), **fields)
                for group, fields in by_group.items()
            },
        )

    def with_options(self, options: dict[str, Any] | None) -> RetrieveConfig:
        """A copy with per-call overrides applied and validated (flat names, or a group's
        name with an object of its fields).

        Raises:
            ConfigError: unknown option, wrong type, or out-of-range value.
        """
        if not options:
            return self
        changes: dict[str, Any] = {}
        for key, value in _flatten(options).items():
            if key not in FLAT:
                raise ConfigError(f"unknown retrieve option {key!r}")
            changes[key] = _coerce(key, self.get(key), value)
        check_within_bounds(self, changes)
        new = self._replaced(changes)
        new.validate()
        return new

    def validate(self) -> None:
        """Range checks shared by defaults and overrides."""
        c = SimpleNamespace(**self.flat())
        checks: list[tuple[bool, str]] = [
            (-1.0 <= c.min_similarity <= 1.0, "min_similarity must be in [-1, 1]"),
            (0.0 <= c.min_confidence <= 1.0, "min_confidence must be in [0, 1]"),
            (0 <= c.max_hops <= 2, "max_hops must be 0..2 (the traversal file bound)"),
            (0 <= c.activation_hops <= 2, "activation_hops must be 0..2"),
            (c.recency_half_life_days > 0, "recency_half_life_days must be > 0"),
            (c.confidence_half_life_days > 0, "confidence_half_life_days must be > 0"),
            (0.0 <= c.reranker_weight <= 1.0, "reranker_weight must be in [0, 1]"),
            (1 <= c.topk_facts <= 500, "topk_facts must be 1..500"),
            (0 <= c.topk_events <= 200, "topk_events must be 0..200"),
            (1 <= c.rerank_pool <= 200, "rerank_pool must be 1..200"),
            (1 <= c.rescore_pool <= 200, "rescore_pool must be 1..200"),
            (0.0 <= c.rescore_weight <= 1.0, "rescore_weight must be in [0, 1]"),
            (1 <= c.graph_pool_factor <= 50, "graph_pool_factor must be 1..50"),
            (1 <= c.graph_max_entities <= 1000, "graph_max_entities must be 1..1000"),
            (1 <= c.graph_read_budget <= 100, "graph_read_budget must be 1..100"),
            (1 <= c.hub_scan_factor <= 100, "hub_scan_factor must be 1..100"),
            (c.context_max_tokens >= 50, "context_max_tokens must be >= 50"),
            (c.reranker_timeout_s > 0, "reranker_timeout_s must be > 0"),
            (0.0 <= c.confidence_weight <= 1.0, "confidence_weight must be in [0, 1]"),
            (
                0.0 <= c.hop_decay <= 1.0 and 0.0 <= c.activation_decay <= 1.0,
                "decay factors must be in [0, 1]",
            ),
            (all(k in DEFAULT_WEIGHTS for k in c.weights), "unknown score weight"),
            (c.fusion in FUSIONS, f"fusion must be one of {', '.join(FUSIONS)}"),
            (
                c.keyword_model in KEYWORD_MODELS,
                f"keyword_model must be one of {', '.join(KEYWORD_MODELS)}",
            ),
            (1 <= c.rrf_k <= 1000, "rrf_k must be 1..1000"),
            (0.0 <= c.diversity <= 1.0, "diversity must be in [0, 1]"),
            (
                c.entity_expansion in ENTITY_EXPANSIONS,
                f"entity_expansion must be one of {', '.join(ENTITY_EXPANSIONS)}",
            ),
            (
                0.0 <= c.entity_feedback_weight <= 1.0
                and 0.0 <= c.entity_decay <= 1.0
                and 0.0 < c.entity_hub_share <= 1.0,
                "entity_feedback_weight, entity_decay and entity_hub_share must be in [0, 1]",
            ),
            (
                1 <= c.entity_max <= 200
                and 1 <= c.entity_per_seed <= 200
                and 0 <= c.entity_per_neighbour <= 200
                and c.entity_hub_min >= 1,
                "entity_max and entity_per_seed must be 1..200, entity_per_neighbour 0..200, "
                "entity_hub_min >= 1",
            ),
            (
                0 <= c.bridge_seeds <= 20
                and 1 <= c.bridge_entities <= 200
                and 1 <= c.bridge_per_entity <= 50,
                "bridge_seeds must be 0..20, bridge_entities 1..200, bridge_per_entity 1..50",
            ),
            (
                0.0 <= c.bridge_unmatched <= 1.0 and 0.0 <= c.bridge_shared <= 1.0,
                "bridge_unmatched and bridge_shared must be in [0, 1]",
            ),
            (0.0 <= c.session_lift <= 1.0, "session_lift must be in [0, 1]"),
            (0 <= c.session_seeds <= 20, "session_seeds must be 0..20"),
            (0 <= c.context_turns <= 3, "context_turns must be 0..3"),
            (0 <= c.context_seeds <= 20, "context_seeds must be 0..20"),
            (0.0 <= c.context_decay <= 1.0, "context_decay must be in [0, 1]"),
            (1 <= c.context_window_s <= 86_400, "context_window_s must be 1..86400"),
            (all(0.0 <= v <= 5.0 for v in c.weights.values()), "weights must be in [0, 5]"),
        ]
        for ok, message in checks:
            if not ok:
                raise ConfigError(message)

    def weight(self, name: str) -> float:
        return float(self.scoring.weights.get(name, DEFAULT_WEIGHTS[name]))


def _flatten(options: dict[str, Any]) -> dict[str, Any]:
    """Group objects (``{"graph": {"max_hops": 1}}``) → flat names; flat names pass through.

    Raises:
        ConfigError: a group given something else than an object, or a field of another group.
    """
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key not in _GROUPS:
            out[key] = value
            continue
        if not isinstance(value, dict):
            raise ConfigError(f"retrieve option group {key!r} must be an object")
        for name, inner in value.items():
            if FLAT.get(name) != key:
                raise ConfigError(f"unknown option {name!r} in retrieve option group {key!r}")
            out[name] = inner
    return out


# Timeouts and work caps a per-call option may lower but never raise above the server's
# value (overrides only narrow the operator's bounds).
CEILINGS: tuple[str, ...] = (
    "reranker_timeout_s",
    "exact_scan_max_facts",
    "search_min_facts",
    "overfetch_cap",
    "fulltext_cap",
    "counts_ttl_s",
)


def check_within_bounds(server: RetrieveConfig, changes: dict[str, Any]) -> None:
    """Refuse coerced per-call options that raise a timeout or work cap above the server's.

    Raises:
        ConfigError: the first option above the server's value.
    """
    for key in CEILINGS:
        if key in changes and changes[key] > server.get(key):
            raise ConfigError(
                f"retrieve option {key!r} may not exceed the server's value "
                f"{server.get(key)!r}, got {changes[key]!r}"
            )


def _coerce(key: str, current: Any, value: Any) -> Any:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"option {key!r} must be a boolean")
        return value
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"option {key!r} must be an integer")
        return value
    if isinstance(current, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"option {key!r} must be a number")
        return float(value)
    if isinstance(current, str):
        if not isinstance(value, str):
            raise ConfigError(f"option {key!r} must be a string")
        return value
    if isinstance(current, dict):
        if not isinstance(value, dict):
            raise ConfigError(f"option {key!r} must be an object")
        merged = dict(current)
        for k, v in value.items():
            if k not in DEFAULT_WEIGHTS:
                raise ConfigError(f"unknown score weight {k!r}")
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise ConfigError(f"weight {k!r} must be a number")
            merged[k] = float(v)
        return merged
    raise ConfigError(f"option {key!r} cannot be overridden")
