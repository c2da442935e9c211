"""Value types of the read pipeline: plan, scored facts, events, observations, result."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

__all__ = [
    "EntityMatch",
    "EventHit",
    "ObservationHit",
    "RetrievalPlan",
    "RetrieveResult",
    "ScoredFact",
    "Scores",
]


@dataclass(frozen=True)
class EntityMatch:
    """An entity the planner recognised in the query (or added by expansion)."""

    key: str
    name: str
    type: str
    source: str  # "alias" | "slug" | "name" | "prefix" | "expansion"
    matched: str = ""  # the query words that matched ("" for expansion)

    @property
    def named(self) -> bool:
        """Named in the query (gets the graph query bonus), as opposed to expansion."""
        return self.source != "expansion"


@dataclass(frozen=True)
class RetrievalPlan:
    """What the deterministic planner decided. Same query + same agent schema → same plan."""

    strategy: str  # "multi_signal" | "skip"
    reason: str  # "greeting" | "deterministic" | "aggregation" | "broad" | "empty"
    similarity_query: str
    entities: tuple[EntityMatch, ...] = ()
    pattern_types: tuple[str, ...] = ()
    broad_query: bool = False
    keywords: tuple[str, ...] = ()

    @property
    def skip(self) -> bool:
        return self.strategy == "skip"

    def seed_entities(self) -> list[dict[str, Any]]:
        """Graph seeds as Cypher parameters: key and whether it was named in the query."""
        return [{"key": e.key, "named": e.named} for e in self.entities]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Scores:
    """Every score component of one fact (all in 0..1 except formula/final may reach 1.0+)."""

    semantic: float = 0.0
    keyword: float = 0.0
    graph: float = 0.0
    activation: float = 0.0  # reached by spreading activation from the best facts
    relation: float = 0.0  # 1.0: the evidence of a named entity's relation the query asks for
    recency: float = 0.0
    importance: float = 0.0
    confidence: float = 0.0
    pattern: float = 0.0
    temporal: float = 0.0
    formula: float = 0.0
    reranker: float | None = None
    final: float = 0.0

    def as_dict(self) -> dict[str, float | None]:
        return asdict(self)


@dataclass
class ScoredFact:
    """A candidate fact with its properties and score components."""

    id: str
    text: str
    subject_key: str | None = None
    kind: str | None = None
    confidence: float = 0.0
    importance: float = 0.5
    reinforcement_count: int = 0
    created_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    invalidated_at: datetime | None = None
    temporal_class: str | None = None
    valid_until: datetime | None = None
    event_ids: list[str] = field(default_factory=list)  # provenance (FROM_EVENT)
    sources: set[str] = field(default_factory=set)  # semantic/keyword/graph/activation/pattern
    scores: Scores = field(default_factory=Scores)
    hops: int | None = None
    language: str | None = None  # as stored at write, else detected when the blend needs it
    tier: str | None = None  # "hot" / "warm" once formatted into the context
    # why a learned ranker scored it so (``ranker.Explanation``); None under the formula
    explanation: Any = None

    @property
    def score(self) -> float:
        return self.scores.final


@dataclass
class EventHit:
    """A conversation snippet relevant to the query."""

    id: str
    text: str
    speaker: str | None
    occurred_at: datetime | None
    semantic: float = 0.0
    keyword: float = 0.0
    graph: float = 0.0
    score: float = 0.0
    # Every fact extracted from this turn (FROM_EVENT) is closed as of the retrieve's as_of
    # (updated or retracted): what was said then, no longer what holds (``past_turns``).
    superseded: bool = False
    language: str | None = None  # detected from the text when the blend first needs it


@dataclass
class ObservationHit:
    """A consolidated pattern (``(:Observation)``) relevant to the query."""

    id: str
    text: str
    kind: str | None
    semantic: float = 0.0


@dataclass
class RetrieveResult:
    """What ``retrieve`` returns: the formatted context and everything behind it."""

    context: str
    facts: list[ScoredFact]
    observations: list[ObservationHit]
    events: list[EventHit]
    plan: RetrievalPlan
    total_candidates: int  # distinct facts ranked (signals + spreading activation) >= len(facts)
    duration_ms: float
    trace: dict[str, Any] = field(default_factory=dict)
    context_tokens: int = 0
    retrieve_id: str = ""  # names this answer for feedback (graph/memory/read/recent.py)
