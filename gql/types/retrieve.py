"""Types of `retrieve`: per-call options, the ranked facts with their scores, the plan."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from graph.memory.read import models as read_models

__all__ = [
    "EventHit",
    "FactScores",
    "ObservationHit",
    "RetrievalPlan",
    "RetrieveOptions",
    "RetrieveResult",
    "ScoredFact",
    "retrieve_result_from",
]


@strawberry.input(description="Per-call overrides of the retrieval settings (all optional).")
class RetrieveOptions:
    topk_facts: int | None = strawberry.field(default=None, description="Facts to return (1..500).")
    topk_events: int | None = strawberry.field(
        default=None, description="Conversation snippets to return (0..200)."
    )
    max_hops: int | None = strawberry.field(
        default=None, description="Graph traversal depth from named entities (0..2)."
    )
    min_score: float | None = strawberry.field(
        default=None, description="Drop facts scoring below this."
    )
    enable_reranker: bool | None = strawberry.field(
        default=None, description="Use the LLM reranker when an LLM is configured."
    )

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v is not None}


@strawberry.type(description="Score components of one retrieved fact.")
class FactScores:
    semantic: float = strawberry.field(description="Embedding similarity signal.")
    keyword: float = strawberry.field(description="Full-text match signal.")
    graph: float = strawberry.field(description="Graph proximity to entities named in the query.")
    recency: float = strawberry.field(description="Recency decay.")
    importance: float = strawberry.field(description="Stored importance.")
    reranker: float | None = strawberry.field(description="LLM reranker score, when used.")
    final: float = strawberry.field(description="The blended score used for ranking.")


@strawberry.type(description="A fact chosen for the context, with its scores.")
class ScoredFact:
    id: strawberry.ID = strawberry.field(description="Fact id.")
    text: str = strawberry.field(description="Fact text.")
    subject_key: str | None = strawberry.field(description="Subject entity key.")
    kind: str | None = strawberry.field(description="Fact kind.")
    confidence: float = strawberry.field(description="Confidence, 0..1.")
    created_at: datetime | None = strawberry.field(description="When it was stored.")
    valid_from: datetime | None = strawberry.field(description="When it became true.")
    sources: list[str] = strawberry.field(
        description="Signals that found it: semantic, keyword, graph, activation, pattern."
    )
    hops: int | None = strawberry.field(description="Graph distance from a named entity.")
    tier: str | None = strawberry.field(description="hot or warm section of the context.")
    score: float = strawberry.field(description="Final score.")
    scores: FactScores = strawberry.field(description="Every score component.")


@strawberry.type(description="A conversation snippet relevant to the query.")
class EventHit:
    id: strawberry.ID = strawberry.field(description="Event id.")
    text: str = strawberry.field(description="Message text.")
    speaker: str | None = strawberry.field(description="Who said it.")
    occurred_at: datetime | None = strawberry.field(description="When.")
    score: float = strawberry.field(description="Relevance score.")


@strawberry.type(description="A consolidated pattern relevant to the query.")
class ObservationHit:
    id: strawberry.ID = strawberry.field(description="Observation id.")
    text: str = strawberry.field(description="Pattern text.")
    kind: str | None = strawberry.field(description="Pattern kind.")


@strawberry.type(description="What the deterministic planner decided for the query.")
class RetrievalPlan:
    strategy: str = strawberry.field(description="multi_signal, or skip (greetings, empty).")
    reason: str = strawberry.field(description="Why this strategy.")
    entities: list[str] = strawberry.field(description="Keys of entities recognised in the query.")
    keywords: list[str] = strawberry.field(description="Keywords used for full-text search.")


@strawberry.type(description="Context for the LLM prompt and everything behind it.")
class RetrieveResult:
    context: str = strawberry.field(description="Formatted memory context, ready for a prompt.")
    context_tokens: int = strawberry.field(description="Approximate token count of `context`.")
    facts: list[ScoredFact] = strawberry.field(description="Facts chosen, best first.")
    events: list[EventHit] = strawberry.field(description="Conversation snippets chosen.")
    observations: list[ObservationHit] = strawberry.field(description="Patterns chosen.")
    plan: RetrievalPlan = strawberry.field(description="The retrieval plan.")
    total_candidates: int = strawberry.field(description="Candidates considered before ranking.")
    duration_ms: float = strawberry.field(description="Server-side time taken.")


def retrieve_result_from(r: read_models.RetrieveResult) -> RetrieveResult:
    """Map ``graph.memory.read.RetrieveResult`` to the API type."""
    facts = [
        ScoredFact(
            id=strawberry.ID(f.id),
            text=f.text,
            subject_key=f.subject_key,
            kind=f.kind,
            confidence=f.confidence,
            created_at=f.created_at,
            valid_from=f.valid_from,
            sources=sorted(f.sources),
            hops=f.hops,
            tier=f.tier,
            score=f.scores.final,
            scores=FactScores(
                semantic=f.scores.semantic,
                keyword=f.scores.keyword,
                graph=f.scores.graph,
                recency=f.scores.recency,
                importance=f.scores.importance,
                reranker=f.scores.reranker,
                final=f.scores.final,
            ),
        )
        for f in r.facts
    ]
    return RetrieveResult(
        context=r.context,
        context_tokens=r.context_tokens,
        facts=facts,
        events=[
            EventHit(
                id=strawberry.ID(e.id),
                text=e.text,
                speaker=e.speaker,
                occurred_at=e.occurred_at,
                score=e.score,
            )
            for e in r.events
        ],
        observations=[
            ObservationHit(id=strawberry.ID(o.id), text=o.text, kind=o.kind) for o in r.observations
        ],
        plan=RetrievalPlan(
            strategy=r.plan.strategy,
            reason=r.plan.reason,
            entities=[e.key for e in r.plan.entities],
            keywords=list(r.plan.keywords),
        ),
        total_candidates=r.total_candidates,
        duration_ms=r.duration_ms,
    )
