"""Merge & rank (pure): dedup across signals, recency, confidence decay, pattern boost, the
weighted formula, the reranker blend and the final cut.

Formula (weights from ``RetrieveConfig.scoring.weights``, defaults 0.70 / 0.20 / 0.10 + boosts):

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
from functools import lru_cache

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, ScoredFact
from graph.memory.read.temporal import TimeWindow
from graph.memory.text import detect_language, fold

__all__ = [
    "apply_rerank",
    "blend",
    "calibrate",
    "drop_provenance",
    "effective_confidence",
    "kept",
    "lift_to_turns",
    "merge_candidates",
    "merge_events",
    "pattern_boost",
    "rank",
    "recency",
    "score_events",
    "score_facts",
]


def calibrate(cosine: float, floor: float) -> float:
    """A raw cosine on the embedder's scale, stretched so that ``floor`` (the cosine its
    unrelated texts reach) becomes 0 and 1 stays 1, clipped to 0..1. A model whose cosines
    crowd into 0.75-0.95 (e5) then weighs against keyword and graph as one spread over 0-1
    (MiniLM, floor 0) does; the order of the semantic signal alone does not change."""
    if floor <= 0.0:
        return max(0.0, min(1.0, cosine))
    return max(0.0, min(1.0, (cosine - floor) / (1.0 - floor)))


@lru_cache(maxsize=65_536)
def _language(text: str) -> str:
    return detect_language(text) or ""


def language_of(item: ScoredFact | EventHit) -> str:
    """The candidate's language ("" when unclear), detected once from its text (and once per
    text in the process: the same facts come back retrieve after retrieve)."""
    if item.language is None:
        item.language = _language(item.text)
    return item.language


def language_gap(
    item: ScoredFact | EventHit, query_language: str | None, config: RetrieveConfig
) -> float:
    """The cosine added to a candidate: the embedder's cross-lingual gap when the candidate's
    language is known and differs from the question's, else 0."""
    if not query_language:
        return 0.0
    language = language_of(item)
    if not language or language == query_language:
        return 0.0
    return config.scoring.language_gap


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


def merge_events(*lists: list[EventHit]) -> list[EventHit]:
    """Event hits of several signals, each event once with its best score of each kind."""
    merged: dict[str, EventHit] = {}
    for hits in lists:
        for hit in hits:
            have = merged.get(hit.id)
            if have is None:
                merged[hit.id] = hit
            else:
                have.semantic = max(have.semantic, hit.semantic)
                have.keyword = max(have.keyword, hit.keyword)
    return list(merged.values())


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
            have.scores.activation = max(have.scores.activation, fact.scores.activation)
            have.scores.relation = max(have.scores.relation, fact.scores.relation)
            if fact.hops is not None and (have.hops is None or fact.hops < have.hops):
                have.hops = fact.hops
    return list(merged.values())


def lift_to_turns(facts: Iterable[ScoredFact], events: Iterable[EventHit], weight: float) -> int:
    """A fact scores at least ``weight`` × the final score of the conversation turn it was
    extracted from (``event_ids``, FROM_EVENT) when that turn is a snippet candidate: the turn
    often says more than the one-line fact (names, the question it answers), and the fact
    should not rank below its own source. Sets ``formula`` and ``final``; call it after
    ``score_facts`` and ``score_events``. Returns how many facts rose."""
    if weight <= 0.0:
        return 0
    scores = {e.id: e.score for e in events}
    lifted = 0
    for fact in facts:
        turn = max((scores[i] for i in fact.event_ids if i in scores), default=0.0)
        value = min(1.0, weight * turn)
        if value > fact.scores.final:
            fact.scores.final = fact.scores.formula = value
            lifted += 1
    return lifted


def score_facts(
    facts: Iterable[ScoredFact],
    config: RetrieveConfig,
    now: datetime,
    window: TimeWindow | None = None,
    query_language: str | None = None,
) -> None:
    """Fill recency, importance, confidence, pattern, temporal, formula (and final = formula).

    ``window`` is the time the query names: a fact valid from (or created) inside it gets the
    temporal boost."""
    w_sem, w_rec, w_imp = (
        config.weight("semantic"),
        config.weight("recency"),
        config.weight("importance"),
    )
    w_kw, w_graph, w_time = (
        config.weight("keyword"),
        config.weight("graph"),
        config.weight("temporal"),
    )
    facts = list(facts)
    for fact in facts:
        s = fact.scores
        s.semantic = max(0.0, min(1.0, s.semantic))
        s.recency = recency(fact.created_at, now, config.scoring.recency_half_life_days)
        s.importance = max(0.0, min(1.0, fact.importance if fact.importance is not None else 0.5))
        s.confidence = effective_confidence(fact, now, config.scoring.confidence_half_life_days)
        s.pattern = pattern_boost(
            fact.reinforcement_count,
            config.scoring.pattern_boost_max,
            config.scoring.pattern_saturation,
        )
        s.temporal = (
            1.0
            if window is not None and window.contains(fact.valid_from or fact.created_at)
            else 0.0
        )
        gap = language_gap(fact, query_language, config)
        semantic = calibrate(s.semantic + gap, config.scoring.semantic_floor)
        base = w_sem * semantic + w_rec * s.recency + w_imp * s.importance
        boost = min(
            1.0,
            w_kw * s.keyword
            + w_graph * s.graph
            + s.pattern
            + w_time * s.temporal
            + config.weight("relation") * s.relation,
        )
        boosted = base + (1.0 - min(1.0, base)) * boost
        cw = config.scoring.confidence_weight
        s.formula = min(1.0, boosted * ((1.0 - cw) + cw * s.confidence))
        s.final = s.formula
        s.reranker = None


def score_events(
    events: Iterable[EventHit],
    config: RetrieveConfig,
    now: datetime,
    named_speakers: Iterable[str] = (),
    window: TimeWindow | None = None,
    query_language: str | None = None,
) -> None:
    """Events get the fact formula on the same scale: neutral importance (0.5), base
    confidence 1.0 (a verbatim record of what was said) with the same age decay, the keyword
    boost, and the graph boost of a named entity when that entity is the event's speaker
    (``named_speakers`` are folded names; the speaker is the event's one entity link)."""
    w_sem, w_rec, w_imp = (
        config.weight("semantic"),
        config.weight("recency"),
        config.weight("importance"),
    )
    w_kw, w_graph = config.weight("keyword"), config.weight("graph")
    cw = config.scoring.confidence_weight
    w_time = config.weight("temporal")
    speakers = set(named_speakers)
    events = list(events)
    for ev in events:
        rec = recency(ev.occurred_at, now, config.scoring.recency_half_life_days)
        confidence = max(
            0.5, recency(ev.occurred_at, now, config.scoring.confidence_half_life_days)
        )
        ev.graph = 1.0 if ev.speaker and fold(ev.speaker) in speakers else 0.0
        gap = language_gap(ev, query_language, config)
        semantic = calibrate(ev.semantic + gap, config.scoring.semantic_floor)
        base = w_sem * semantic + w_rec * rec + w_imp * 0.5
        in_window = window is not None and window.contains(ev.occurred_at)
        boost = min(1.0, w_kw * ev.keyword + w_graph * ev.graph + w_time * in_window)
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


def apply_rerank(
    pool: list[ScoredFact], reranker_scores: Mapping[str, float], config: RetrieveConfig
) -> list[ScoredFact]:
    """Blend reranker scores into the pool's scores (the formula's or the learned ranker's); a
    score under ``min_reranker_score`` vetoes the fact (final 0). Facts the reranker did not
    score keep theirs."""
    for fact in pool:
        score = reranker_scores.get(fact.id)
        if score is None:
            continue
        fact.scores.reranker = max(0.0, min(1.0, float(score)))
        if fact.scores.reranker < config.rerank.min_reranker_score:
            fact.scores.final = 0.0
        else:
            fact.scores.final = blend(
                fact.scores.final, fact.scores.reranker, config.rerank.reranker_weight
            )
    return order(pool)


def kept(fact: ScoredFact, config: RetrieveConfig) -> bool:
    """Whether a ranked fact passes the cut: its formula score (the learned ranker's order
    keeps the formula's notion of relevant at all) or, under the formula, its final score,
    reaches ``min_score``; a fact the reranker vetoed (final 0) never does."""
    if config.scoring.ranker == "learned":
        return fact.scores.formula >= config.scoring.min_score and fact.scores.final > 0.0
    return fact.scores.final >= config.scoring.min_score


def rank(facts: Iterable[ScoredFact], config: RetrieveConfig) -> list[ScoredFact]:
    """Drop facts that do not pass the cut (``kept``), order, keep ``topk_facts``."""
    return order(f for f in facts if kept(f, config))[: config.context.topk_facts]
