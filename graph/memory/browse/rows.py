"""Plain dataclasses returned by the read-only listing queries (what the API shows).

Rows are built from Cypher map projections; Neo4j temporal values become timezone-aware
``datetime`` objects. Embeddings are never read here: the API does not expose them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Generic, TypeVar

__all__ = [
    "AliasRow",
    "AuditRow",
    "EntityRow",
    "EventRow",
    "FactRow",
    "GraphNodeRow",
    "HistoryRow",
    "JobRow",
    "MergeCandidateRow",
    "ObservationRow",
    "Page",
    "RelationshipRow",
    "from_map",
]

T = TypeVar("T")


def from_map(cls: type[T], data: dict[str, Any]) -> T:
    """Build a row dataclass from a Cypher map, ignoring unknown keys (the executor already
    converted temporal values)."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class EntityRow:
    key: str
    name: str | None = None
    type: str | None = None
    profile_text: str | None = None
    profile_refreshed_at: datetime | None = None
    summary_text: str | None = None
    mentions: int | None = None
    importance: float | None = None
    source: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    merged_into: str | None = None


@dataclass(frozen=True)
class FactRow:
    id: str
    text: str = ""
    subject_key: str | None = None
    kind: str | None = None
    confidence: float | None = None
    importance: float | None = None
    importance_category: str | None = None
    temporal_class: str | None = None
    valid_until: datetime | None = None
    categories: list[str] | None = None
    language: str | None = None
    speaker: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    invalidated_at: datetime | None = None
    created_at: datetime | None = None
    last_confirmed_at: datetime | None = None
    reinforcement_count: int | None = None
    review_needed: bool | None = None
    primary: bool | None = None
    supersedes: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.valid_to is None and self.invalidated_at is None


@dataclass(frozen=True)
class RelationshipRow:
    id: str | None
    type: str
    source_key: str
    target_key: str
    source_name: str | None = None
    target_name: str | None = None
    strength: float | None = None
    mentions: int | None = None
    confidence: float | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    invalidated_at: datetime | None = None
    evidence_fact_id: str | None = None
    created_at: datetime | None = None
    last_seen_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.valid_to is None and self.invalidated_at is None


@dataclass(frozen=True)
class AliasRow:
    entity_key: str
    text: str


@dataclass(frozen=True)
class HistoryRow:
    at: datetime
    change: str
    text: str
    fact_id: str | None = None
    rel_id: str | None = None


@dataclass(frozen=True)
class EventRow:
    id: str
    text: str = ""
    speaker: str | None = None
    occurred_at: datetime | None = None
    ingested_at: datetime | None = None
    thread_id: str | None = None
    source: str | None = None
    emotion: str | None = None
    intensity: float | None = None
    energy: float | None = None


@dataclass(frozen=True)
class GraphNodeRow:
    key: str
    depth: int
    name: str | None = None
    type: str | None = None
    importance: float | None = None
    mentions: int | None = None
    summary_text: str | None = None


@dataclass(frozen=True)
class ObservationRow:
    id: str
    text: str = ""
    kind: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    fact_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class MergeCandidateRow:
    id: str
    keep_key: str
    drop_key: str
    confidence: float | None = None
    reason: str | None = None
    status: str | None = None
    created_at: datetime | None = None
    keep_name: str | None = None
    drop_name: str | None = None


@dataclass(frozen=True)
class AuditRow:
    id: str
    created_at: datetime | None = None
    event_id: str | None = None
    action: str | None = None
    applied: bool | None = None
    blocked_reason: str | None = None
    fact_id: str | None = None
    target_id: str | None = None
    reason: str | None = None
    mode: str | None = None


@dataclass(frozen=True)
class JobRow:
    id: str
    kind: str | None = None
    subject: str | None = None
    status: str | None = None
    attempts: int | None = None
    max_attempts: int | None = None
    run_after: datetime | None = None
    leased_at: datetime | None = None
    last_error: str | None = None
    last_error_code: str | None = None
    progress: float | None = None
    created_at: datetime | None = None
    finished_at: datetime | None = None


@dataclass(frozen=True)
class Page(Generic[T]):
    """A slice of a keyset-ordered list: ``has_next`` is known because one extra row is read."""

    items: list[T]
    cursors: list[str]
    has_next: bool
    total: int | None = None
