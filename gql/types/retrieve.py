"""Types of `retrieve`: per-call options, the ranked facts with their scores, the plan."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from gql.context import Info
from gql.loaders import PathKey
from gql.types.enums import (
    ContextTier,
    FactKind,
    Ranker,
    RetrievalSignal,
    RetrievalStrategy,
    to_api,
    to_api_list,
)
from graph.memory.read import models as read_models
from graph.memory.read.focus import BOOST

__all__ = [
    "EventHit",
    "FactScores",
    "FeatureContribution",
    "HopStep",
    "ObservationHit",
    "RankExplanation",
    "RetrievalPlan",
    "RetrieveBoost",
    "RetrieveOptions",
    "RetrieveResult",
    "ScoredFact",
    "retrieve_result_from",
]


@strawberry.input(
    description=f"Types whose facts `retrieve` lifts: a matching fact's final score is multiplied "
    f"by {BOOST} before the cut; the other facts stay. Unknown types lift nothing."
)
class RetrieveBoost:
    entity_types: list[str] | None = strawberry.field(
        default=None,
        description="Facts about an entity of these types, or of their subtypes in the agent's "
        "ontology.",
    )
    relation_types: list[str] | None = strawberry.field(
        default=None,
        description="Facts that state a relationship of these types (the relationship names the "
        "fact as its evidence).",
    )


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
    ranker: Ranker | None = strawberry.field(
        default=None,
        description="How to order the candidates (default `LEARNED`; `FORMULA`: the hand formula).",
    )

    def as_dict(self) -> dict[str, Any]:
        return {
            k: (v.value if isinstance(v, Ranker) else v)
            for k, v in vars(self).items()
            if v is not None
        }


@strawberry.type(description="What one feature added to a fact's learned score.")
class FeatureContribution:
    feature: str = strawberry.field(
        description="The feature's name (docs/architecture.md lists them), e.g. `cosine_rank` "
        "or `keyword_coverage`."
    )
    value: float = strawberry.field(description="The feature's value for this fact.")
    contribution: float = strawberry.field(
        description="What it added to the raw score (negative: it pulled the fact down)."
    )


@strawberry.type(
    description="Why the learned ranker scored a fact as it did: `raw = bias + Σ "
    "contributions`, and the fact's `final` score is `raw` calibrated to 0..1."
)
class RankExplanation:
    model: str = strawberry.field(description="The model's name (`shipped-…` or a tenant's).")
    version: int = strawberry.field(description="The model's version.")
    raw: float = strawberry.field(description="The model's raw score of the fact.")
    bias: float = strawberry.field(description="The score of a fact with no feature's effect.")
    contributions: list[FeatureContribution] = strawberry.field(
        description="Every feature that moved the score, largest effect first."
    )


def explanation_of(explanation: Any) -> RankExplanation | None:
    """The API form of a ``ranker.Explanation`` (None under the formula)."""
    if explanation is None:
        return None
    return RankExplanation(
        model=explanation.model,
        version=explanation.version,
        raw=explanation.raw,
        bias=explanation.bias,
        contributions=[
            FeatureContribution(feature=n, value=v, contribution=c)
            for n, v, c in explanation.terms()
        ],
    )


@strawberry.type(description="Score components of one retrieved fact.")
class FactScores:
    semantic: float = strawberry.field(description="Embedding similarity signal.")
    keyword: float = strawberry.field(description="Full-text match signal.")
    graph: float = strawberry.field(description="Graph proximity to entities named in the query.")
    recency: float = strawberry.field(description="Recency decay.")
    importance: float = strawberry.field(description="Stored importance.")
    reranker: float | None = strawberry.field(description="LLM reranker score, when used.")
    formula: float = strawberry.field(
        description="The weighted formula's score (the order under `ranker: FORMULA`; under "
        "the learned ranker one of its features and the `minScore` cut)."
    )
    final: float = strawberry.field(
        description="The score used for ranking: the learned ranker's calibrated score (or the "
        "formula's), blended with the LLM reranker's when one ran."
    )
    ranker: Ranker = strawberry.field(description="Which ranker ordered this fact.")
    explanation: RankExplanation | None = strawberry.field(
        description="Each feature's contribution to the learned score (null under `FORMULA`)."
    )


@strawberry.type(
    description="One entity on the graph path that reached a retrieved fact, with the "
    "relationship that led to it, e.g. `Guilherme Maturana -[works_at]-> Vertix`."
)
class HopStep:
    key: str = strawberry.field(description="Entity key.")
    name: str | None = strawberry.field(description="Entity display name.")
    via: str | None = strawberry.field(
        description="Type of the relationship from the previous step to this entity (null "
        "for the first step, an entity named in the query)."
    )
    forward: bool = strawberry.field(
        description="True when that relationship runs from the previous entity to this one "
        "(`previous -[via]-> this`), false when it runs the other way."
    )


@strawberry.type(description="A fact chosen for the context, with its scores.")
class ScoredFact:
    agent_id: strawberry.Private[str]
    as_of: strawberry.Private[datetime | None]
    starts: strawberry.Private[tuple[str, ...]]
    id: strawberry.ID = strawberry.field(description="Fact id.")
    text: str = strawberry.field(description="Fact text.")
    subject_key: str | None = strawberry.field(description="Subject entity key.")
    kind: FactKind | None = strawberry.field(description="Fact kind.")
    confidence: float = strawberry.field(description="Confidence, 0..1.")
    created_at: datetime | None = strawberry.field(description="When it was stored.")
    valid_from: datetime | None = strawberry.field(description="When it became true.")
    sources: list[RetrievalSignal] = strawberry.field(description="Signals that found it.")
    hops: int | None = strawberry.field(description="Graph distance from a named entity.")
    tier: ContextTier | None = strawberry.field(description="Section of the context it is in.")
    score: float = strawberry.field(description="Final score.")
    scores: FactScores = strawberry.field(description="Every score component.")

    @strawberry.field(
        description="The hop path behind `hops`: a shortest chain of relationships (at most "
        "`hops` long, as memory stood at the query's `asOf`) from an entity named in the query "
        "to an entity this fact is about, starting entity first; one step when the fact is "
        "about a named entity. Null when the fact has no `hops`; empty when no named entity "
        "reaches it (e.g. found by spreading activation from another fact). Costs one batched "
        "read for all facts, only when asked for."
    )
    async def hop_path(self, info: Info) -> list[HopStep] | None:
        if self.hops is None:
            return None
        key = PathKey(self.agent_id, self.starts, self.as_of, str(self.id), self.hops)
        steps = await info.context.loaders.hop_path.load(key)
        return [HopStep(key=s.key, name=s.name, via=s.via, forward=s.forward) for s in steps]


@strawberry.type(description="A conversation snippet relevant to the query.")
class EventHit:
    id: strawberry.ID = strawberry.field(description="Event id.")
    text: str = strawberry.field(description="Message text.")
    speaker: str | None = strawberry.field(description="Who said it.")
    occurred_at: datetime | None = strawberry.field(description="When.")
    score: float = strawberry.field(description="Relevance score.")
    superseded: bool = strawberry.field(
        description="Every fact extracted from this turn is closed as of the query's `asOf` "
        "(updated by a later message or retracted): what was said then, no longer what holds. "
        "Such a turn is ranked lower and marked in `context` as earlier, since updated."
    )


@strawberry.type(description="A consolidated pattern relevant to the query.")
class ObservationHit:
    id: strawberry.ID = strawberry.field(description="Observation id.")
    text: str = strawberry.field(description="Pattern text.")
    kind: str | None = strawberry.field(description="Pattern kind.")


@strawberry.type(description="What the deterministic planner decided for the query.")
class RetrievalPlan:
    strategy: RetrievalStrategy = strawberry.field(description="What the planner chose.")
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
    total_candidates: int = strawberry.field(
        description="Distinct candidate facts ranked: every signal's and spreading "
        "activation's together (at least the number of `facts` returned)."
    )
    duration_ms: float = strawberry.field(description="Server-side time taken.")
    retrieve_id: str = strawberry.field(
        description="Names this answer: pass it to `feedback` to say whether a fact helped."
    )


def retrieve_result_from(
    r: read_models.RetrieveResult, agent_id: str, as_of: datetime | None = None
) -> RetrieveResult:
    """Map ``graph.memory.read.RetrieveResult`` to the API type (``agent_id`` and ``as_of`` of
    the call: the hop paths are looked up from the plan's named entities on request)."""
    starts = tuple(e.key for e in r.plan.entities if e.named)
    facts = [
        ScoredFact(
            agent_id=agent_id,
            as_of=as_of,
            starts=starts,
            id=strawberry.ID(f.id),
            text=f.text,
            subject_key=f.subject_key,
            kind=to_api(FactKind, f.kind),
            confidence=f.confidence,
            created_at=f.created_at,
            valid_from=f.valid_from,
            sources=to_api_list(RetrievalSignal, f.sources),
            hops=f.hops,
            tier=to_api(ContextTier, f.tier),
            score=f.scores.final,
            scores=FactScores(
                semantic=f.scores.semantic,
                keyword=f.scores.keyword,
                graph=f.scores.graph,
                recency=f.scores.recency,
                importance=f.scores.importance,
                reranker=f.scores.reranker,
                formula=f.scores.formula,
                final=f.scores.final,
                ranker=Ranker.FORMULA if f.explanation is None else Ranker.LEARNED,
                explanation=explanation_of(f.explanation),
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
                superseded=e.superseded,
            )
            for e in r.events
        ],
        observations=[
            ObservationHit(id=strawberry.ID(o.id), text=o.text, kind=o.kind) for o in r.observations
        ],
        plan=RetrievalPlan(
            strategy=RetrievalStrategy(r.plan.strategy),
            reason=r.plan.reason,
            entities=[e.key for e in r.plan.entities],
            keywords=list(r.plan.keywords),
        ),
        total_candidates=r.total_candidates,
        duration_ms=r.duration_ms,
        retrieve_id=r.retrieve_id,
    )
