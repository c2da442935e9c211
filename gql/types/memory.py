"""Types of the memory operations: retrieve results, write results and structured imports."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry

from gql.errors import UserError
from graph.memory.read import models as read_models
from graph.memory.write.admin import MergeResult
from graph.memory.write.models import FactChange as WriteFactChange
from graph.memory.write.models import WriteResult

__all__ = [
    "EntityInput",
    "EventHit",
    "FactChange",
    "FactInput",
    "ForgetPayload",
    "IngestDocumentPayload",
    "MaintenanceJob",
    "MergeEntitiesPayload",
    "MergeSummary",
    "QueuedWrite",
    "RelationInput",
    "RememberPayload",
    "RememberSummary",
    "ResolveMergeCandidatePayload",
    "RetrievalPlan",
    "RetrieveOptions",
    "RetrieveResult",
    "RunJobPayload",
    "ScoredFact",
    "WriteOutcome",
    "WritePayload",
    "merge_summary_from",
    "retrieve_result_from",
    "write_outcome_from",
]


# --- retrieve ------------------------------------------------------------------------------


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


# --- write ---------------------------------------------------------------------------------


@strawberry.type(description="One fact decision made by `write`.")
class FactChange:
    id: strawberry.ID = strawberry.field(description="Fact id.")
    text: str = strawberry.field(description="Fact text.")
    subject_key: str = strawberry.field(description="Subject entity key.")
    action: str = strawberry.field(description="ADD, UPDATE, NOOP or DELETE.")
    target_id: strawberry.ID | None = strawberry.field(description="Fact it replaced or removed.")
    reason: str | None = strawberry.field(description="Why.")
    review_needed: bool = strawberry.field(description="Uncertain decision: check it.")


@strawberry.type(description="What one `write` did.")
class WriteOutcome:
    success: bool = strawberry.field(description="False when nothing usable could be stored.")
    event_id: strawberry.ID | None = strawberry.field(description="The stored message.")
    facts_added: list[FactChange] = strawberry.field(description="New facts.")
    facts_updated: list[FactChange] = strawberry.field(description="Facts superseded by new ones.")
    facts_unchanged: list[FactChange] = strawberry.field(description="Facts already known.")
    facts_deleted: list[FactChange] = strawberry.field(description="Facts retracted.")
    entities: list[str] = strawberry.field(description="Keys of entities resolved or created.")
    warnings: list[str] = strawberry.field(description="Stages that degraded (never fatal).")
    llm_calls: int = strawberry.field(description="LLM calls made (0 in offline mode).")
    tokens_used: int = strawberry.field(description="LLM tokens used.")
    mode: str = strawberry.field(description="Write mode: shadow, controlled or full.")
    dry_run: bool = strawberry.field(description="True when nothing was persisted.")
    duration_ms: float = strawberry.field(description="Server-side time taken.")


def _change(c: WriteFactChange) -> FactChange:
    return FactChange(
        id=strawberry.ID(c.id),
        text=c.text,
        subject_key=c.subject_key,
        action=c.action,
        target_id=strawberry.ID(c.target_id) if c.target_id else None,
        reason=c.reason,
        review_needed=bool(c.review_needed),
    )


def write_outcome_from(r: WriteResult) -> WriteOutcome:
    """Map ``graph.memory.write.WriteResult`` to the API type."""
    keys = [str(e.get("key")) for e in r.entities_resolved if isinstance(e, dict) and e.get("key")]
    return WriteOutcome(
        success=r.success,
        event_id=strawberry.ID(r.event_id) if r.event_id else None,
        facts_added=[_change(c) for c in r.facts_added],
        facts_updated=[_change(c) for c in r.facts_updated],
        facts_unchanged=[_change(c) for c in r.facts_unchanged],
        facts_deleted=[_change(c) for c in r.facts_deleted],
        entities=keys,
        warnings=list(r.warnings),
        llm_calls=r.llm_calls,
        tokens_used=r.tokens_used.total,
        mode=r.mode,
        dry_run=r.dry_run,
        duration_ms=r.duration_ms,
    )


@strawberry.type(description="An async write: the event is stored, a worker job extracts it.")
class QueuedWrite:
    event_id: strawberry.ID | None = strawberry.field(
        description="The stored message (null when the message was empty)."
    )
    job_id: strawberry.ID | None = strawberry.field(
        description="The `extract` job to poll with `job(agentId, id: jobId)`."
    )
    created: bool = strawberry.field(
        description="False when the same idempotency key was seen before (same event and job)."
    )
    warnings: list[str] = strawberry.field(description="Guard and PII notes (never fatal).")


@strawberry.type(description="Result of `write`: the outcome (or the queued job), or errors.")
class WritePayload:
    outcome: WriteOutcome | None = strawberry.field(
        default=None, description="What was stored (null for `async: true`)."
    )
    queued: QueuedWrite | None = strawberry.field(
        default=None, description="The event and extraction job of an `async: true` write."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


# --- remember (structured import) ----------------------------------------------------------


@strawberry.input(description="An entity given directly (no extraction).")
class EntityInput:
    name: str = strawberry.field(description="Display name.")
    type: str = strawberry.field(default="thing", description="Lowercase type (person, city...).")
    aliases: list[str] = strawberry.field(default_factory=list, description="Other names.")
    key: str | None = strawberry.field(default=None, description="Key; default `type:slug(name)`.")
    importance: float = strawberry.field(default=0.5, description="Importance, 0..1.")


@strawberry.input(description="A fact given directly. Names, aliases or keys refer to entities.")
class FactInput:
    text: str = strawberry.field(description="The fact as a sentence.")
    subject: str = strawberry.field(description="Entity it is about (name, alias or key).")
    entities: list[str] = strawberry.field(
        default_factory=list, description="Other entities it mentions."
    )
    kind: str = strawberry.field(default="fact", description="Fact kind.")
    confidence: float = strawberry.field(default=0.9, description="Confidence, 0..1.")
    importance: float = strawberry.field(default=0.5, description="Importance, 0..1.")
    valid_from: datetime | None = strawberry.field(default=None, description="When it became true.")
    valid_to: datetime | None = strawberry.field(default=None, description="When it ended.")
    categories: list[str] = strawberry.field(default_factory=list, description="Topics.")


@strawberry.input(description="A relationship between two entities (names, aliases or keys).")
class RelationInput:
    source: str = strawberry.field(description="Source entity.")
    target: str = strawberry.field(description="Target entity.")
    type: str = strawberry.field(description="Relationship type; normalised to snake_case.")
    strength: float = strawberry.field(default=0.8, description="Strength, 0..1.")
    valid_from: datetime | None = strawberry.field(default=None, description="When it began.")


@strawberry.type(description="What a structured import did.")
class RememberSummary:
    entities_created: int = strawberry.field(description="New entities.")
    facts_added: int = strawberry.field(description="New facts.")
    facts_unchanged: int = strawberry.field(description="Facts already known (idempotent).")
    relations: int = strawberry.field(description="Relationships created or confirmed.")
    fact_ids: list[strawberry.ID] = strawberry.field(description="Fact ids in input order.")
    warnings: list[str] = strawberry.field(description="Inputs that were skipped and why.")


@strawberry.type(description="Result of `remember`.")
class RememberPayload:
    summary: RememberSummary | None = strawberry.field(
        default=None, description="What was stored."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="Result of `forget`.")
class ForgetPayload:
    fact_id: strawberry.ID | None = strawberry.field(
        default=None, description="The fact invalidated."
    )
    invalidated_relationships: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="Relationships invalidated in cascade (the fact was their evidence).",
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="What a merge moved from the dropped entity to the kept one.")
class MergeSummary:
    keep_key: str = strawberry.field(description="The surviving entity.")
    drop_key: str = strawberry.field(description="The merged entity (kept, with `mergedInto`).")
    aliases_moved: int = strawberry.field(description="Aliases moved.")
    links_moved: int = strawberry.field(description="Fact links (ABOUT) moved.")
    facts_resubjected: int = strawberry.field(description="Facts whose subject changed.")
    relationships_moved: int = strawberry.field(description="Relationships moved.")
    relationships_closed: int = strawberry.field(
        description="Relationships closed because the survivor already had them."
    )


def merge_summary_from(m: MergeResult) -> MergeSummary:
    return MergeSummary(
        keep_key=m.keep_key,
        drop_key=m.drop_key,
        aliases_moved=m.aliases_moved,
        links_moved=m.links_moved,
        facts_resubjected=m.facts_resubjected,
        relationships_moved=m.relationships_moved,
        relationships_closed=m.relationships_closed,
    )


@strawberry.type(description="Result of `mergeEntities`.")
class MergeEntitiesPayload:
    merge: MergeSummary | None = strawberry.field(default=None, description="What moved.")
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="Result of `resolveMergeCandidate`.")
class ResolveMergeCandidatePayload:
    status: str | None = strawberry.field(default=None, description="merged or rejected.")
    merge: MergeSummary | None = strawberry.field(
        default=None, description="What moved, when merged."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.type(description="Result of `ingestDocument`: poll `job(agentId, id: jobId)`.")
class IngestDocumentPayload:
    document_id: strawberry.ID | None = strawberry.field(
        default=None, description="The document."
    )
    job_id: strawberry.ID | None = strawberry.field(
        default=None, description="The ingest job to poll."
    )
    created: bool = strawberry.field(
        default=False, description="False when the same content was already registered."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )


@strawberry.enum(description="Maintenance jobs that can be started on demand.")
class MaintenanceJob(Enum):
    PROFILE = strawberry.enum_value("profile", description="Rebuild entity profiles.")
    CONSOLIDATE = strawberry.enum_value(
        "consolidate", description="Consolidate facts into observations."
    )
    IMPORTANCE = strawberry.enum_value("importance", description="Recompute importance.")
    DECAY = strawberry.enum_value("decay", description="Expire and decay stale facts.")
    DEDUP_ENTITIES = strawberry.enum_value(
        "dedup_entities", description="Propose merge candidates for duplicate entities."
    )


@strawberry.type(description="Result of `runJob`: poll `job(agentId, id: jobId)`.")
class RunJobPayload:
    job_id: strawberry.ID | None = strawberry.field(default=None, description="The job to poll.")
    created: bool = strawberry.field(
        default=False,
        description="False when an equivalent job was already pending (its id is returned).",
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )
