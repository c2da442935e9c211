"""Merge & rank arithmetic, the reranker blend (Bruno Almeida walkthrough) and the cut."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.memory.read import ranking
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _fact(fid: str, formula: float = 0.0, **kw: object) -> ScoredFact:
    fact = ScoredFact(id=fid, text=fid, **kw)  # type: ignore[arg-type]
    fact.scores.formula = fact.scores.final = formula
    return fact


def test_recency_half_life() -> None:
    assert ranking.recency(NOW, NOW, 14) == 1.0
    assert ranking.recency(NOW - timedelta(days=14), NOW, 14) == pytest.approx(0.5)
    assert ranking.recency(NOW - timedelta(days=28), NOW, 14) == pytest.approx(0.25)
    assert ranking.recency(None, NOW, 14) == 0.5


def test_pattern_boost_grows_to_the_cap() -> None:
    assert ranking.pattern_boost(1, 0.10, 10) == 0.0
    assert 0.0 < ranking.pattern_boost(3, 0.10, 10) < 0.10
    assert ranking.pattern_boost(10, 0.10, 10) == pytest.approx(0.10)
    assert ranking.pattern_boost(500, 0.10, 10) == pytest.approx(0.10)


def test_formula_weights() -> None:
    cfg = RetrieveConfig.of(
        weights={"semantic": 0.7, "recency": 0.2, "importance": 0.1, "keyword": 0.0, "graph": 0.0}
    )
    fact = ScoredFact(id="a", text="a", confidence=1.0, importance=0.5, created_at=NOW)
    fact.scores.semantic = 0.8
    ranking.score_facts([fact], cfg, NOW)
    assert fact.scores.recency == 1.0
    assert fact.scores.formula == pytest.approx(0.7 * 0.8 + 0.2 * 1.0 + 0.1 * 0.5)


def test_confidence_decay_and_boosts_order() -> None:
    cfg = RetrieveConfig()
    old = ScoredFact(id="old", text="x", confidence=0.6, created_at=NOW - timedelta(days=900))
    new = ScoredFact(id="new", text="y", confidence=0.95, created_at=NOW)
    for f in (old, new):
        f.scores.semantic = 0.5
    ranking.score_facts([old, new], cfg, NOW)
    assert old.scores.confidence < 0.6 * 0.6
    assert new.scores.formula > old.scores.formula
    linked = ScoredFact(id="g", text="g", confidence=0.95, created_at=NOW)
    linked.scores.semantic, linked.scores.graph = 0.5, 1.0
    ranking.score_facts([linked], cfg, NOW)
    assert linked.scores.formula > new.scores.formula


def test_merge_dedups_keeping_the_best_of_each_signal() -> None:
    a1 = ScoredFact(id="a", text="a", sources={"semantic"})
    a1.scores.semantic = 0.8
    a2 = ScoredFact(id="a", text="a", sources={"keyword"}, hops=2)
    a2.scores.keyword, a2.scores.semantic = 1.0, 0.7
    a3 = ScoredFact(id="a", text="a", sources={"graph"}, hops=1)
    a3.scores.graph = 0.6
    merged = ranking.merge_candidates([a1], [a2], [a3, ScoredFact(id="b", text="b")])
    assert len(merged) == 2
    a = next(f for f in merged if f.id == "a")
    assert (a.scores.semantic, a.scores.keyword, a.scores.graph) == (0.8, 1.0, 0.6)
    assert a.sources == {"semantic", "keyword", "graph"} and a.hops == 1


def test_bruno_almeida_irrelevant_question_returns_nothing() -> None:
    """Seed walkthrough: reranker 0.0 for all three → 0.135 / 0.114 / 0.105 by the blend,
    all under min_score 0.15 (and vetoed, reranker < 0.10)."""
    cfg = RetrieveConfig()
    assert ranking.blend(0.45, 0.0, 0.70) == pytest.approx(0.135)
    assert ranking.blend(0.38, 0.0, 0.70) == pytest.approx(0.114)
    assert ranking.blend(0.35, 0.0, 0.70) == pytest.approx(0.105)
    pool = [_fact("marathons", 0.45), _fact("ml_model", 0.38), _fact("orion", 0.35)]
    reranked = ranking.apply_rerank(pool, {"marathons": 0.0, "ml_model": 0.0, "orion": 0.0}, cfg)
    assert all(f.scores.final == 0.0 and f.scores.reranker == 0.0 for f in reranked)
    assert ranking.rank(reranked, cfg) == []


def test_bruno_almeida_relevant_question_final_092() -> None:
    cfg = RetrieveConfig()
    pool = [_fact("fraud_model", 0.92), _fact("marathons", 0.45)]
    reranked = ranking.apply_rerank(pool, {"fraud_model": 1.0, "marathons": 0.2}, cfg)
    top = ranking.rank(reranked, cfg)
    assert top[0].id == "fraud_model"
    assert top[0].scores.final == pytest.approx(0.92, abs=1e-12)
    assert top[0].scores.formula == 0.92 and top[0].scores.reranker == 1.0
    # 0.45 × (0.30 + 0.70 × 0.2) = 0.198
    assert top[1].scores.final == pytest.approx(0.198)


def test_marcos_walkthrough_blend_numbers() -> None:
    assert ranking.blend(0.91, 1.0, 0.7) == pytest.approx(0.91)
    assert ranking.blend(0.65, 0.2, 0.7) == pytest.approx(0.286)  # seed rounds to 0.28
    cfg = RetrieveConfig()
    pool = [_fact("carolina", 0.30)]
    assert ranking.rank(ranking.apply_rerank(pool, {"carolina": 0.0}, cfg), cfg) == []


def test_unscored_facts_keep_formula_and_rank_cuts() -> None:
    cfg = RetrieveConfig.of(topk_facts=2)
    pool = [_fact("a", 0.5), _fact("b", 0.6), _fact("c", 0.1), _fact("d", 0.55)]
    reranked = ranking.apply_rerank(pool, {"a": 1.0}, cfg)
    assert next(f for f in reranked if f.id == "b").scores.reranker is None
    assert [f.id for f in ranking.rank(reranked, cfg)] == ["b", "d"]


def test_events_share_the_fact_scale_and_speaker_link() -> None:
    from graph.memory.read.models import EventHit

    cfg = RetrieveConfig()
    ana = EventHit(id="e1", text="x", speaker="Ána", occurred_at=NOW, semantic=0.5)
    bob = EventHit(id="e2", text="y", speaker="Bob", occurred_at=NOW, semantic=0.5)
    ranking.score_events([ana, bob], cfg, NOW, named_speakers=["ana"])
    assert ana.graph == 1.0 and bob.graph == 0.0 and ana.score > bob.score
    fact = ScoredFact(id="f", text="z", confidence=1.0, importance=0.5, created_at=NOW)
    fact.scores.semantic = 0.5
    ranking.score_facts([fact], cfg, NOW)
    assert bob.score == pytest.approx(fact.scores.formula)  # same inputs → same score


def test_provenance_events_are_dropped() -> None:
    from graph.memory.read.models import EventHit

    fact = ScoredFact(id="f", text="z", event_ids=["e1"])
    events = [
        EventHit(id="e1", text="a", speaker=None, occurred_at=None),
        EventHit(id="e2", text="b", speaker=None, occurred_at=None),
    ]
    assert [e.id for e in ranking.drop_provenance(events, [fact])] == ["e2"]
