"""Configuration of the read pipeline: small nested groups, per-call overrides by flat name.

``RetrieveConfig`` is a frozen dataclass of groups, one per stage: ``candidates`` (semantic and
keyword signals), ``graph`` (the hop-decayed traversal from the named entities, planner expansion), ``scoring`` (the
blend's weights, decays, cut), ``activation`` (spreading activation from the best facts), ``context`` (sizes and budget of the formatted context), ``rerank``
(LLM reranker, second-embedder re-scoring) and ``budgets`` (work caps of the search strategy).

Every field name is unique across the groups, so overrides keep one flat vocabulary:
``RetrieveConfig().with_options({"topk_facts": 5, "weights": {"recency": 0.0}})``; a group may
also be given whole, ``{"graph": {"max_hops": 1}}``. ``with_options`` validates through
``graph.options`` as ``write``'s overrides do (unknown keys, wrong types and values outside the
range declared beside each default raise ``ConfigError``, never a traceback) and returns a new
config; ``RetrieveConfig.of(**flat)`` builds one from flat names (tests, benchmarks).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
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
from graph.options import check_ranges, overridden

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
        name with an object of its fields; ``graph.options.overridden``).

        Raises:
            ConfigError: unknown option, wrong type, out-of-range value, or a timeout or work
                cap above this config's.
        """
        if not options:
            return self
        return self._replaced(
            overridden("retrieve", _flatten(options), self._fields(), ceilings=CEILINGS)
        )

    def _fields(self) -> dict[str, tuple[dataclasses.Field[Any], Any]]:
        """Every option by its flat name: its field and its value here."""
        return {
            f.name: (f, getattr(group, f.name))
            for group in (getattr(self, g) for g in GROUPS)
            for f in dataclasses.fields(group)
        }

    def validate(self) -> None:
        """Every option within the range declared beside its default (``config_groups``)."""
        check_ranges(self)

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
