"""Merge & rank (pure): dedup across signals, recency, confidence decay, pattern boost, the
weighted formula, the reranker blend and the final cut.

Formula (weights from ``RetrieveConfig.weights``, defaults 0.70 / 0.20 / 0.10 + boosts):

    base    = w_sem·semantic + w_rec·recency + w_imp·importance
    boost   = w_kw·keyword + w_graph·graph + pattern
    boosted = base + (1 − base)·min(1, boost)
    formula = boosted × (0.8 + 0.2·confidence_eff)        (confidence_weight 0.2)

``semantic`` is the raw cosine (clipped at 0) for every candidate, whichever signal found it, so
facts found by keyword or graph are ranked on the same footing. Keyword, graph and pattern act
as boosts (the graph-boost idea: linked facts get lifted, never penalised) that fill part of the
headroom above ``base`` instead of being added on top: the score stays in 0..1 without clipping,
so two strong facts never tie at 1.0 and the semantic order among them survives.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import datetime

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, ScoredFact
from graph.memory.text import fold

__all__ = [
    "apply_rerank",
    "blend",
    "drop_provenance",
    "effective_confidence",
    "merge_candidates",
    "pattern_boost",
    "rank",
    "recency",
    "score_events",
    "score_facts",
]


def recency(when: datetime | None, now: datetime, half_life_days: float) -> float:
    """Exponential decay ``0.5 ** (age / half_life)``; future times count as new, an unknown
    time as 0.5 (neutral)."""
    if when is None:
        return 0.5
    age_days = max(0.0, (now - when).total_seconds() / 86400.0)
    return float(0.5 ** (age_days / half_life_days))


def effective_confidence(fact: ScoredFact, now: datetime, half_life_days: float) -> float:
    """Base confidence decayed with age (never below half of it); a temporal fact past its
    ``valid_until`` counts half."""
    decay = max(0.5, recency(fact.created_at, now, half_life_days))
    value = fact.confidence * decay
    expired = fact.valid_until is not None and fact.valid_until < now
    if fact.temporal_class == "temporal" and expired:
        value *= 0.5
    return max(0.0, min(1.0, value))


def pattern_boost(reinforcement_count: int, max_boost: float, saturation: int) -> float:
    """Additive boost for well-established facts: 0 for a fact seen once, ``max_boost`` at
    ``saturation`` confirmations, logarithmic in between."""
    extra = max(0, int(reinforcement_count or 0) - 1)
    if extra == 0 or saturation <= 1:
        return 0.0
    return max_boost * min(1.0, math.log1p(extra) / math.log1p(saturation - 1))


def merge_candidates(*signals: Iterable[ScoredFact]) -> list[ScoredFact]:
    """Deduplicate by fact id keeping the best value of every signal component."""
    merged: dict[str, ScoredFact] = {}
    for signal in signals:
        for fact in signal:
            have = merged.get(fact.id)
            if have is None:
                merged[fact.id] = fact
                continue
            have.sources |= fact.sources
            have.scores.semantic = max(have.scores.semantic, fact.scores.semantic)
            have.scores.keyword = max(have.scores.keyword, fact.scores.keyword)
            have.scores.graph = max(have.scores.graph, fact.scores.graph)
            if fact.hops is not None and (have.hops is None or fact.hops < have.hops):
                have.hops = fact.hops
    return list(merged.values())


def score_facts(facts: Iterable[ScoredFact], config: RetrieveConfig, now: datetime) -> None:
    """Fill recency, importance, confidence, pattern, formula (and final = formula)."""
    w_sem, w_rec, w_imp = config.weight("semantic"), config.weight("recency"), config.weight(
        "importance")
    w_kw, w_graph = config.weight("keyword"), config.weight("graph")
    for fact in facts:
        s = fact.scores
        s.semantic = max(0.0, min(1.0, s.semantic))
        s.recency = recency(fact.created_at, now, config.recency_half_life_days)
        s.importance = max(0.0, min(1.0, fact.importance if fact.importance is not None else 0.5))
        s.confidence = effective_confidence(fact, now, config.confidence_half_life_days)
        s.pattern = pattern_boost(fact.reinforcement_count, config.pattern_boost_max,
                                  config.pattern_saturation)
        base = w_sem * s.semantic + w_rec * s.recency + w_imp * s.importance
        boost = min(1.0, w_kw * s.keyword + w_graph * s.graph + s.pattern)
        boosted = base + (1.0 - min(1.0, base)) * boost
        cw = config.confidence_weight
        s.formula = min(1.0, boosted * ((1.0 - cw) + cw * s.confidence))
        s.final = s.formula
        s.reranker = None


def score_events(events: Iterable[EventHit], config: RetrieveConfig, now: datetime,
                 named_speakers: Iterable[str] = ()) -> None:
    """Events get the fact formula on the same scale: neutral importance (0.5), base
    confidence 1.0 (a verbatim record of what was said) with the same age decay, the keyword
    boost, and the graph boost of a named entity when that entity is the event's speaker
    (``named_speakers`` are folded names; the speaker is the event's one entity link)."""
    w_sem, w_rec, w_imp = config.weight("semantic"), config.weight("recency"), config.weight(
        "importance")
    w_kw, w_graph, cw = config.weight("keyword"), config.weight("graph"), config.confidence_weight
    speakers = set(named_speakers)
    for ev in events:
        rec = recency(ev.occurred_at, now, config.recency_half_life_days)
        confidence = max(0.5, recency(ev.occurred_at, now, config.confidence_half_life_days))
        ev.graph = 1.0 if ev.speaker and fold(ev.speaker) in speakers else 0.0
        base = w_sem * max(0.0, ev.semantic) + w_rec * rec + w_imp * 0.5
        boost = min(1.0, w_kw * ev.keyword + w_graph * ev.graph)
        boosted = base + (1.0 - min(1.0, base)) * boost
        ev.score = min(1.0, boosted * ((1.0 - cw) + cw * confidence))


def drop_provenance(events: Iterable[EventHit], facts: Iterable[ScoredFact]) -> list[EventHit]:
    """Events no returned fact was extracted from (FROM_EVENT): a snippet behind a returned
    fact only repeats it, so its room goes to other conversations."""
    covered = {eid for f in facts for eid in f.event_ids}
    return [e for e in events if e.id not in covered]


def blend(formula: float, reranker: float, weight: float) -> float:
    """Multiplicative blend: ``formula × ((1 − weight) + weight × reranker)``."""
    reranker = max(0.0, min(1.0, reranker))
    return formula * ((1.0 - weight) + weight * reranker)


def order(facts: Iterable[ScoredFact]) -> list[ScoredFact]:
    """Final-score order with a deterministic tie-break (formula, then id)."""
    return sorted(facts, key=lambda f: (-f.scores.final, -f.scores.formula, f.id))


def apply_rerank(pool: list[ScoredFact], reranker_scores: Mapping[str, float],
                 config: RetrieveConfig) -> list[ScoredFact]:
    """Blend reranker scores into the pool; a score under ``min_reranker_score`` vetoes the
    fact (final 0). Facts the reranker did not score keep their formula score."""
    for fact in pool:
        score = reranker_scores.get(fact.id)
        if score is None:
            continue
        fact.scores.reranker = max(0.0, min(1.0, float(score)))
        if fact.scores.reranker < config.min_reranker_score:
            fact.scores.final = 0.0
        else:
            fact.scores.final = blend(fact.scores.formula, fact.scores.reranker,
                                      config.reranker_weight)
    return order(pool)


def rank(facts: Iterable[ScoredFact], config: RetrieveConfig) -> list[ScoredFact]:
    """Drop facts under ``min_score``, order, keep ``topk_facts``."""
    kept = [f for f in facts if f.scores.final >= config.min_score]
    return order(kept)[: config.topk_facts]
