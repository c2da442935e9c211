"""Write-pipeline configuration: a dataclass of defaults, per-call overrides."""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, replace
from typing import Any

from graph.errors import ConfigError
from graph.memory.ontology.builtin import SINGLE_VALUED_RELATIONS
from graph.memory.ontology.model import Ontology

__all__ = [
    "MODES",
    "PII_MODES",
    "SINGLE_VALUED_RELATIONS",
    "Scan",
    "WriteConfig",
    "apply_overrides",
    "check_within_bounds",
]

MODES = ("shadow", "controlled", "full")
PII_MODES = ("off", "redact", "reject")


@dataclass(frozen=True)
class Scan:
    """Strategy bounds of the nearest-neighbour reads (``graph/memory/write/overfetch.py``):
    exact scan up to ``entity_max`` entities / ``fact_max`` facts of a subject, over-fetch up
    to ``cap`` index hits per row."""

    entity_max: int = 200
    fact_max: int = 200
    cap: int = 4_096


@dataclass(frozen=True)
class WriteConfig:
    """Every knob of the write pipeline. Deployment settings are mapped onto it at the
    composition root; ``config_overrides`` change fields for one call."""

    mode: str = "full"
    mutations_frozen: bool = False
    min_fact_confidence_for_write: float = 0.55
    pii_mode: str = "redact"
    max_message_chars: int = 12_000
    # extraction
    enable_informed_extraction: bool = True
    informed_extraction_topk: int = 10
    informed_extraction_context_budget_tokens: int = 800
    extraction_timeout_s: float = 30.0
    max_facts: int = 20
    max_entities: int = 50
    min_fact_chars: int = 10
    max_fact_chars: int = 2_000
    semantic_dedup_threshold: float = 0.85
    recent_messages_max: int = 5
    # Each earlier message given as context is cut to this many characters before it reaches
    # a prompt (context, not content: a long one is shortened, not refused).
    recent_message_chars: int = 2_000
    # entity resolution
    fuzzy_threshold: float = 0.85
    fuzzy_low_threshold: float = 0.50
    enable_llm_resolution: bool = True
    resolution_timeout_s: float = 15.0
    min_prefix_chars: int = 3
    # Nearest-neighbour reads (graph/memory/write/overfetch.py): an agent with at most
    # entity_scan_max entities (a subject with at most fact_scan_max facts) is scanned exactly;
    # larger ones go through the vector index, over-fetching up to overfetch_cap global hits
    # per name or fact.
    entity_scan_max: int = 200
    fact_scan_max: int = 200
    overfetch_cap: int = 4_096
    # Informed-extraction context of a large subject (index path): facts below this cosine to
    # the message are not shown.
    context_min_similarity: float = 0.20
    # reconciliation
    reconcile_candidates: int = 5
    reconcile_add_below: float = 0.50
    reconcile_noop_at: float = 0.98
    reconcile_timeout_s: float = 20.0
    # The informed extraction reconciles against the facts and entities it was shown, in the
    # same call. A fact candidate (ambiguous band) or entity candidate it was NOT shown is
    # decided by the rules (False: one LLM call per message) or by a second call (True).
    llm_calls_for_unseen: bool = False
    # Offline extraction: common noun phrases may be relation ends ("X is a country singer"),
    # new entities of type "thing". For documents (chunk extraction turns it on); in a
    # conversation "her kids" or "painting" are not entities.
    offline_noun_phrase_ends: bool = False
    # relations
    relation_strength: float = 0.8
    mirror_fact_confidence: float = 0.60
    single_valued_relations: tuple[str, ...] = SINGLE_VALUED_RELATIONS
    # Set per write from the agent's ontology (graph/memory/ontology), never by a client:
    # single-valued types whose first target stays (a different one is refused), and the
    # ontology version its facts are stamped with (0: the built-in one, not stamped).
    first_value_relations: tuple[str, ...] = ()
    ontology_version: int = 0
    # persistence
    write_retries: int = 2
    # A pending idempotency claim older than this is taken over by a retry (its writer died or
    # lost Neo4j). Longer than the slowest legitimate write: 3 sequential extraction calls
    # (90 s) + resolution (15 s) + reconcile (20 s) + a transaction timeout (120 s) ≈ 245 s.
    pending_receipt_ttl_s: float = 600.0

    def under(self, ontology: Ontology) -> WriteConfig:
        """The configuration under an operator's ontology: its single-valued relation types
        (and those that keep their first target) and its version. The built-in one changes
        nothing (the single-valued types stay the operator's)."""
        if ontology.scope == "builtin":
            return self
        return replace(
            self,
            single_valued_relations=ontology.single_valued(),
            first_value_relations=tuple(
                r.name for r in ontology.relation_types if r.single_valued and not r.supersedes
            ),
            ontology_version=ontology.version,
        )

    def on_scale(self, floor: float) -> WriteConfig:
        """The similarity thresholds on an embedder's own cosine scale: they are written for
        one whose unrelated texts score about 0 (MiniLM); an embedder whose cosines crowd
        above ``floor`` (e5: 0.8) gets ``floor + t·(1 − floor)`` for each threshold t, so
        "Helena" and "Pedro" (0.86 there) do not resolve to one entity."""
        if floor <= 0.0:
            return self
        return replace(
            self, **{k: floor + getattr(self, k) * (1.0 - floor) for k in SIMILARITY_THRESHOLDS}
        )

    @property
    def scan(self) -> Scan:
        """The bounds of the nearest-neighbour reads."""
        return Scan(self.entity_scan_max, self.fact_scan_max, self.overfetch_cap)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {MODES}, got {self.mode!r}")
        if self.pii_mode not in PII_MODES:
            raise ConfigError(f"pii_mode must be one of {PII_MODES}, got {self.pii_mode!r}")
        if not 0.0 <= self.min_fact_confidence_for_write <= 1.0:
            raise ConfigError("min_fact_confidence_for_write must be within [0, 1]")
        if self.max_message_chars < 1:
            raise ConfigError("max_message_chars must be positive")


# Cosine thresholds, on the scale of an embedder whose unrelated texts score about 0
# (``WriteConfig.on_scale`` moves them onto another's).
SIMILARITY_THRESHOLDS: tuple[str, ...] = (
    "semantic_dedup_threshold",
    "fuzzy_threshold",
    "fuzzy_low_threshold",
    "context_min_similarity",
    "reconcile_add_below",
    "reconcile_noop_at",
)
# Per-call overrides may only narrow the operator's behaviour.
OPERATOR_ONLY: tuple[str, ...] = (
    "pii_mode",
    "first_value_relations",
    "ontology_version",
    "mutations_frozen",
    "pending_receipt_ttl_s",
    "entity_scan_max",
    "fact_scan_max",
    "overfetch_cap",
    "context_min_similarity",
)
# Sizes, retries and timeouts: an override may lower them, never raise them above the server's.
CEILINGS: tuple[str, ...] = (
    "max_message_chars",
    "informed_extraction_topk",
    "informed_extraction_context_budget_tokens",
    "extraction_timeout_s",
    "max_facts",
    "max_entities",
    "max_fact_chars",
    "recent_messages_max",
    "resolution_timeout_s",
    "reconcile_candidates",
    "reconcile_timeout_s",
    "write_retries",
)


def check_within_bounds(server: WriteConfig, overrides: dict[str, Any]) -> None:
    """Refuse per-call overrides that would widen the operator's bounds.

    ``pii_mode`` and ``mutations_frozen`` are never overridable; ``mode`` may only move to a
    stricter one (full → controlled → shadow); sizes, retries and timeouts may not exceed the
    server's value. Pure: no I/O.

    Raises:
        ConfigError: the first override that is outside the operator's bounds.
    """
    for key in OPERATOR_ONLY:
        if key in overrides:
            raise ConfigError(
                f"write option {key!r} is set by the operator and cannot be overridden per call"
            )
    mode = overrides.get("mode")
    if isinstance(mode, str) and mode in MODES and MODES.index(mode) > MODES.index(server.mode):
        raise ConfigError(
            f"write option 'mode' may only be stricter than the server's "
            f"{server.mode!r} (order: shadow < controlled < full), got {mode!r}"
        )
    for key in CEILINGS:
        value = overrides.get(key)
        if (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and value > getattr(server, key)
        ):
            raise ConfigError(
                f"write option {key!r} may not exceed the server's value "
                f"{getattr(server, key)!r}, got {value!r}"
            )


def _type_ok(value: Any, expected: Any) -> bool:
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if expected is str:
        return isinstance(value, str)
    origin = typing.get_origin(expected)
    if origin is tuple:
        return isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
    return False


def apply_overrides(config: WriteConfig, overrides: dict[str, Any] | None) -> WriteConfig:
    """A copy of ``config`` with ``overrides`` applied after strict checks.

    Raises:
        ConfigError: unknown key, a value whose type does not match the field, or a value
            outside the operator's bounds (see ``check_within_bounds``).
    """
    if not overrides:
        return config
    hints = typing.get_type_hints(WriteConfig)
    names = {f.name for f in dataclasses.fields(WriteConfig)}
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in names:
            raise ConfigError(f"unknown write option {key!r}")
        if not _type_ok(value, hints[key]):
            raise ConfigError(
                f"write option {key!r} expects {getattr(hints[key], '__name__', hints[key])}, "
                f"got {type(value).__name__}"
            )
        changes[key] = tuple(value) if isinstance(value, list) else value
        if hints[key] is float:
            changes[key] = float(value)
    check_within_bounds(config, changes)
    return dataclasses.replace(config, **changes)
