"""Configuration of the read pipeline: small nested groups, per-call overrides by flat name.

``RetrieveConfig`` is a frozen dataclass of groups, one per stage: ``candidates`` (semantic and
keyword signals), ``graph`` (the hop-decayed traversal from the named entities, planner expansion), ``scoring`` (the
blend's weights, decays, cut), ``activation`` (spreading activation from the best facts), ``context`` (sizes and budget of the formatted context), ``rerank``
(LLM reranker, second-embedder re-scoring) and ``budgets`` (work caps of the search strategy).

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
from graph.memory.read.config_groups import (
    DEFAULT_WEIGHTS,
    FLAT,
    GROUPS,
    ActivationConfig,
    BudgetConfig,
    CandidateConfig,
    ContextConfig,
    GraphConfig,
    RerankConfig,
    ScoringConfig,
)

__all__ = [
    "CEILINGS",
    "DEFAULT_WEIGHTS",
    "FLAT",
    "ActivationConfig",
    "BudgetConfig",
    "CandidateConfig",
    "ContextConfig",
    "GraphConfig",
    "RerankConfig",
    "RetrieveConfig",
    "ScoringConfig",
    "check_within_bounds",
]


@dataclass(frozen=True)
class RetrieveConfig:
    """Every tunable of ``retrieve``, grouped by stage (see the module docstring)."""

    candidates: CandidateConfig = field(default_factory=CandidateConfig)
    graph: GraphConfig = field(default_factory=GraphConfig)
    scoring: ScoringConfig = field(default_factory=ScoringConfig)
    activation: ActivationConfig = field(default_factory=ActivationConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    rerank: RerankConfig = field(default_factory=RerankConfig)
    budgets: BudgetConfig = field(default_factory=BudgetConfig)

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
            (c.recency_half_life_days > 0, "recency_half_life_days must be > 0"),
            (c.confidence_half_life_days > 0, "confidence_half_life_days must be > 0"),
            (0.0 <= c.reranker_weight <= 1.0, "reranker_weight must be in [0, 1]"),
            (1 <= c.topk_facts <= 500, "topk_facts must be 1..500"),
            (0 <= c.topk_events <= 200, "topk_events must be 0..200"),
            (1 <= c.rerank_pool <= 200, "rerank_pool must be 1..200"),
            (0.0 <= c.rescore_weight <= 1.0, "rescore_weight must be in [0, 1]"),
            (1 <= c.graph_pool_factor <= 50, "graph_pool_factor must be 1..50"),
            (1 <= c.graph_max_entities <= 1000, "graph_max_entities must be 1..1000"),
            (1 <= c.graph_read_budget <= 100, "graph_read_budget must be 1..100"),
            (1 <= c.hub_scan_factor <= 100, "hub_scan_factor must be 1..100"),
            (c.context_max_tokens >= 50, "context_max_tokens must be >= 50"),
            (c.reranker_timeout_s > 0, "reranker_timeout_s must be > 0"),
            (0.0 <= c.confidence_weight <= 1.0, "confidence_weight must be in [0, 1]"),
            (0.0 <= c.semantic_floor < 1.0, "semantic_floor must be in [0, 1)"),
            (0.0 <= c.language_gap <= 0.2, "language_gap must be in [0, 0.2]"),
            (0.0 <= c.hop_decay <= 1.0, "hop_decay must be in [0, 1]"),
            (all(k in DEFAULT_WEIGHTS for k in c.weights), "unknown score weight"),
            (
                0 <= c.activation_seeds <= 20
                and 1 <= c.activation_entities <= 200
                and 1 <= c.activation_per_entity <= 50
                and 1 <= c.activation_read_budget <= 100_000,
                "activation_seeds must be 0..20, activation_entities 1..200, "
                "activation_per_entity 1..50, activation_read_budget 1..100000",
            ),
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
        if key not in GROUPS:
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
