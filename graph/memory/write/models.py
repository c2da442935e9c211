"""Value types of the write side: structured import records, results and errors."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from graph.errors import BadInput, ConfigError

__all__ = [
    "FACT_KINDS",
    "REMEMBER_SECTIONS",
    "ConfigError",
    "FactChange",
    "PIIRejected",
    "RefusedItem",
    "RememberResult",
    "StructuredEntity",
    "StructuredEvent",
    "StructuredFact",
    "StructuredRelation",
    "TokenCounts",
    "WriteResult",
]

# The input lists of a structured import, in the order they are written.
REMEMBER_SECTIONS = ("entities", "events", "facts", "relations")
# What a fact is (extraction and structured import both normalise to these).
FACT_KINDS = ("fact", "preference", "decision", "procedural", "semantic")


class PIIRejected(BadInput):
    """The message holds a secret that cannot be redacted safely (pii_mode=reject)."""


@dataclass
class StructuredEntity:
    """An entity given directly (no extraction). ``key`` defaults to ``type:slug(name)``."""

    name: str
    type: str = "thing"
    aliases: list[str] = field(default_factory=list)
    key: str | None = None
    profile_text: str | None = None
    importance: float = 0.5
    embedding: list[float] | None = None  # caller-supplied vector of the name (else embedded)


@dataclass
class StructuredFact:
    """A fact given directly. ``subject`` and ``entities`` may be a name, an alias or a key;
    unknown names create entities of type "thing"."""

    text: str
    subject: str
    entities: list[str] = field(default_factory=list)
    kind: str = "fact"
    confidence: float = 0.9
    importance: float = 0.5
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    created_at: datetime | None = None
    categories: list[str] = field(default_factory=list)
    speaker: str | None = None
    source_context: str | None = None
    event_ids: list[str] = field(default_factory=list)
    id: str | None = None
    temporal_class: str = "persistent"
    valid_until: datetime | None = None
    reinforcement_count: int = 1
    embedding: list[float] | None = None  # caller-supplied vector of the text (else embedded)
    # The fact in English when its text is in another language: embedded as a second vector
    # of the fact (the semantic signal takes the better of both), never shown as its text.
    gloss: str | None = None


@dataclass
class StructuredRelation:
    """A relationship between two entities (names, aliases or keys); ``type`` is normalised to
    snake_case."""

    source: str
    target: str
    type: str
    strength: float = 0.8
    confidence: float = 0.8
    valid_from: datetime | None = None
    evidence_fact_id: str | None = None


@dataclass
class StructuredEvent:
    """A raw message to keep in the audit trail."""

    text: str
    speaker: str
    occurred_at: datetime | None = None
    id: str | None = None
    thread_id: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class RefusedItem:
    """An item of a ``remember`` call that was not stored, and why."""

    section: str  # entities, facts, relations, events
    index: int | None  # position in its input list (None: an entity created from a reference)
    ref: str | None  # the entity key, or None
    reason: str


@dataclass
class RememberResult:
    """What a structured import did. ``fact_ids`` follow the input order (an existing fact's id
    when the fact was already known)."""

    entities_created: int = 0
    entities_total: int = 0
    facts_added: int = 0
    facts_unchanged: int = 0
    relations: int = 0
    events: int = 0
    fact_ids: list[str] = field(default_factory=list)
    entity_keys: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    duration_ms: float = 0.0
    complete: bool = True
    """False when a batch failed after earlier batches committed: ``refused`` lists what was
    not stored (every item of the failed and later batches) and ``error`` says why."""
    error: str | None = None
    refused: list[RefusedItem] = field(default_factory=list)


@dataclass
class FactChange:
    """One fact decision reported in a ``WriteResult``."""

    id: str
    text: str
    subject_key: str
    action: str
    target_id: str | None = None
    reason: str | None = None
    confidence: float | None = None
    review_needed: bool = False


@dataclass
class TokenCounts:
    input: int = 0
    output: int = 0
    total: int = 0


@dataclass
class WriteResult:
    """Outcome of one ``write`` call. ``success`` is False only when the pipeline could not
    do what was asked (e.g. the event could not be stored, or extraction produced nothing
    usable); stage degradations appear in ``warnings``."""

    success: bool = True
    error: str | None = None
    event_id: str | None = None
    facts_added: list[FactChange] = field(default_factory=list)
    facts_updated: list[FactChange] = field(default_factory=list)
    facts_unchanged: list[FactChange] = field(default_factory=list)
    facts_deleted: list[FactChange] = field(default_factory=list)
    entities_resolved: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tokens_used: TokenCounts = field(default_factory=TokenCounts)
    llm_calls: int = 0
    duration_ms: float = 0.0
    mode: str = "full"
    dry_run: bool = False
    trace: list[dict[str, Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WriteResult:
        """Rebuild a result stored in a ``WriteReceipt``."""
        data = dict(data)
        for name in ("facts_added", "facts_updated", "facts_unchanged", "facts_deleted"):
            data[name] = [FactChange(**c) for c in data.get(name, [])]
        data["tokens_used"] = TokenCounts(**data.get("tokens_used", {}))
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})
