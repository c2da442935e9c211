"""Write-pipeline configuration: one frozen dataclass per stage (guard, extraction,
resolution, reconcile, commit), each option's allowed values beside its default
(``graph.options``), united in ``WriteConfig``; per-call overrides checked by the same
mechanism as ``retrieve``'s options."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from typing import Any

from graph.errors import ConfigError
from graph.memory.ontology.builtin import BUILTIN, SINGLE_VALUED_RELATIONS
from graph.memory.ontology.labels import type_labels
from graph.memory.ontology.model import Ontology
from graph.options import check_ranges, option, overridden

__all__ = [
    "GROUPS",
    "MODES",
    "PII_MODES",
    "SINGLE_VALUED_RELATIONS",
    "CommitConfig",
    "ExtractionConfig",
    "GuardConfig",
    "ReconcileConfig",
    "ResolutionConfig",
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
class GuardConfig:
    """The guard: what the pipeline may do (``mode``, frozen mutations), the PII policy and
    the size of a message it takes."""

    mode: str = option("full", choices=MODES)
    mutations_frozen: bool = False
    pii_mode: str = option("redact", choices=PII_MODES)
    max_message_chars: int = option(12_000, 1)
    # Earlier messages given as context: how many, and each cut to this many characters
    # before it reaches a prompt (context, not content: a long one is shortened, not refused).
    recent_messages_max: int = option(5, 0)
    recent_message_chars: int = option(2_000, 1)


@dataclass(frozen=True)
class ExtractionConfig:
    """Extraction: the informed (LLM) path's context and limits, the offline path's ends, and
    which extracted facts are kept."""

    enable_informed_extraction: bool = True
    informed_extraction_topk: int = option(10, 0)
    informed_extraction_context_budget_tokens: int = option(800, 0)
    extraction_timeout_s: float = option(30.0, 0.0, lo_open=True)
    max_facts: int = option(20, 0)
    max_entities: int = option(50, 0)
    min_fact_chars: int = option(10, 0)
    max_fact_chars: int = option(2_000, 1)
    min_fact_confidence_for_write: float = option(0.55, 0.0, 1.0)
    semantic_dedup_threshold: float = option(0.85, -1.0, 1.0)
    # Informed-extraction context of a large subject (index path): facts below this cosine to
    # the message are not shown.
    context_min_similarity: float = option(0.20, -1.0, 1.0)
    # Offline extraction: common noun phrases may be relation ends ("X is a country singer"),
    # new entities of type "thing". For documents (chunk extraction turns it on); in a
    # conversation "her kids" or "painting" are not entities.
    offline_noun_phrase_ends: bool = False


@dataclass(frozen=True)
class ResolutionConfig:
    """Entity resolution: name similarity bands, the LLM's say on ambiguous names, and the
    nearest-neighbour reads."""

    fuzzy_threshold: float = option(0.85, -1.0, 1.0)
    fuzzy_low_threshold: float = option(0.50, -1.0, 1.0)
    enable_llm_resolution: bool = True
    resolution_timeout_s: float = option(15.0, 0.0, lo_open=True)
    min_prefix_chars: int = option(3, 1)
    # Nearest-neighbour reads (graph/memory/write/overfetch.py): an agent with at most
    # entity_scan_max entities (a subject with at most fact_scan_max facts) is scanned exactly;
    # larger ones go through the vector index, over-fetching up to overfetch_cap global hits
    # per name or fact.
    entity_scan_max: int = option(200, 0)
    fact_scan_max: int = option(200, 0)
    overfetch_cap: int = option(4_096, 1)


@dataclass(frozen=True)
class ReconcileConfig:
    """Reconciliation: the candidates a new fact is compared with and the similarity bands
    that decide add / update / no-op."""

    reconcile_candidates: int = option(5, 0)
    reconcile_add_below: float = option(0.50, -1.0, 1.0)
    reconcile_noop_at: float = option(0.98, -1.0, 1.0)
    reconcile_timeout_s: float = option(20.0, 0.0, lo_open=True)
    # The informed extraction reconciles against the facts and entities it was shown, in the
    # same call. A fact candidate (ambiguous band) or entity candidate it was NOT shown is
    # decided by the rules (False: one LLM call per message) or by a second call (True).
    llm_calls_for_unseen: bool = False


@dataclass(frozen=True)
class CommitConfig:
    """The commit: relations and their mirror facts, the ontology's single-valued types, and
    the write's retries and idempotency claim."""

    relation_strength: float = option(0.8, 0.0, 1.0)
    mirror_fact_confidence: float = option(0.60, 0.0, 1.0)
    single_valued_relations: tuple[str, ...] = SINGLE_VALUED_RELATIONS
    # Set per write from the agent's ontology (graph/memory/ontology), never by a client:
    # single-valued types whose first target stays (a different one is refused), and the
    # ontology version its facts are stamped with (0: the built-in one, not stamped).
    first_value_relations: tuple[str, ...] = ()
    # Entity types whose names are identifiers (ticket numbers): resolved by name or alias
    # only, never to a similar name.
    exact_entity_types: tuple[str, ...] = ()
    # (type, label) of each declared entity type: its entities carry the label (Browser
    # colours by label; graph/memory/ontology/labels.py).
    entity_labels: tuple[tuple[str, str], ...] = tuple(type_labels(BUILTIN).items())
    ontology_version: int = option(0, 0)
    write_retries: int = option(2, 0)
    # A pending idempotency claim older than this is taken over by a retry (its writer died or
    # lost Neo4j). Longer than the slowest legitimate write: 3 sequential extraction calls
    # (90 s) + resolution (15 s) + reconcile (20 s) + a transaction timeout (120 s) ≈ 245 s.
    pending_receipt_ttl_s: float = option(600.0, 0.0, lo_open=True)


# The stage groups, each option declared once with its allowed values beside its default.
GROUPS: dict[str, type] = {
    "guard": GuardConfig,
    "extraction": ExtractionConfig,
    "resolution": ResolutionConfig,
    "reconcile": ReconcileConfig,
    "commit": CommitConfig,
}


@dataclass(frozen=True)
class WriteConfig(CommitConfig, ReconcileConfig, ResolutionConfig, ExtractionConfig, GuardConfig):
    """Every knob of the write pipeline: the union of the stage groups above, read by flat
    name (``config.max_facts``). Deployment settings are mapped onto it at the composition
    root; ``config_overrides`` change fields for one call (``apply_overrides``)."""

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
            exact_entity_types=tuple(t.name for t in ontology.entity_types if t.identifier),
            entity_labels=tuple(type_labels(ontology).items()),
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
        check_ranges(self)


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
    "exact_entity_types",
    "entity_labels",
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
    overridden("write", overrides, _fields(server), ceilings=CEILINGS, operator_only=OPERATOR_ONLY)
    mode = overrides.get("mode")
    if isinstance(mode, str) and MODES.index(mode) > MODES.index(server.mode):
        raise ConfigError(
            f"write option 'mode' may only be stricter than the server's "
            f"{server.mode!r} (order: shadow < controlled < full), got {mode!r}"
        )


def _fields(config: WriteConfig) -> dict[str, tuple[dataclasses.Field[Any], Any]]:
    return {f.name: (f, getattr(config, f.name)) for f in dataclasses.fields(config)}


def apply_overrides(config: WriteConfig, overrides: dict[str, Any] | None) -> WriteConfig:
    """A copy of ``config`` with ``overrides`` applied after the checks every pipeline's
    overrides get (``graph.options.overridden``: unknown option, operator-only, type,
    ceiling, range) and the write's own: ``mode`` only stricter.

    Raises:
        ConfigError: unknown key, a value whose type does not match the field, or a value
            outside the operator's bounds (see ``check_within_bounds``).
    """
    if not overrides:
        return config
    changes = overridden(
        "write", overrides, _fields(config), ceilings=CEILINGS, operator_only=OPERATOR_ONLY
    )
    check_within_bounds(config, changes)
    return dataclasses.replace(config, **changes)
