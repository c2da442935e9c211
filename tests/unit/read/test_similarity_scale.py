"""An embedder's similarity floor: e5's cosines crowd into 0.75-0.95 where MiniLM's spread
over 0-1. The blend, the write thresholds and duplicate detection read cosines above the
floor, so the same thresholds and weights mean the same on both."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from graph.memory.jobs.jobs_config import MaintenanceConfig
from graph.memory.maintenance.duplicates import EntityPoint, find_duplicates
from graph.memory.read import ranking
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.relations import mark_answers, relation_terms
from graph.memory.text import relation_words
from graph.memory.write.config import SIMILARITY_THRESHOLDS, WriteConfig
from graph.providers import E5Embedder, HashEmbedder, read_options, similarity_floor

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def test_calibrate_stretches_the_range_above_the_floor() -> None:
    assert ranking.calibrate(0.5, 0.0) == 0.5
    assert ranking.calibrate(-0.2, 0.0) == 0.0
    assert ranking.calibrate(0.8, 0.8) == 0.0
    assert ranking.calibrate(0.9, 0.8) == pytest.approx(0.5)
    assert ranking.calibrate(1.0, 0.8) == 1.0
    assert ranking.calibrate(0.6, 0.8) == 0.0


def _scored(cosines: list[float], keyword: list[float], floor: float) -> list[float]:
    facts = []
    for n, (cos, kw) in enumerate(zip(cosines, keyword, strict=True)):
        fact = ScoredFact(id=str(n), text=str(n), created_at=NOW, confidence=1.0)
        fact.scores.semantic, fact.scores.keyword = cos, kw
        facts.append(fact)
    ranking.score_facts(facts, RetrieveConfig().with_options({"semantic_floor": floor}), NOW)
    assert [f.scores.semantic for f in facts] == cosines  # the raw cosine is what is shown
    return [f.scores.final for f in facts]


def test_a_floored_embedder_blends_as_one_of_floor_zero() -> None:
    """e5 cosines 0.90 / 0.86 with the floor 0.8 score exactly as MiniLM cosines 0.5 / 0.3."""
    e5 = _scored([0.90, 0.86], [0.0, 1.0], 0.8)
    minilm = _scored([0.5, 0.3], [0.0, 1.0], 0.0)
    assert e5 == pytest.approx(minilm)
    raw = _scored([0.90, 0.86], [0.0, 1.0], 0.0)
    assert raw != pytest.approx(minilm)


def test_the_floor_comes_from_the_embedder() -> None:
    assert similarity_floor(HashEmbedder(8)) == 0.0
    assert E5Embedder.similarity_floor == 0.8


def test_write_thresholds_move_onto_the_embedders_scale() -> None:
    cfg = WriteConfig()
    assert cfg.on_scale(0.0) is cfg
    moved = cfg.on_scale(0.8)
    for name in SIMILARITY_THRESHOLDS:
        assert getattr(moved, name) == pytest.approx(0.8 + 0.2 * getattr(cfg, name))
    # "Helena" and "Pedro" are 0.864 apart with e5: below even the ambiguous band there.
    assert moved.fuzzy_low_threshold > 0.864


def _point(key: str, name: str, vector: list[float]) -> EntityPoint:
    return EntityPoint(key, name, "person", embedding=vector)


def test_duplicates_read_embedding_cosines_above_the_floor() -> None:
    a, b = np.array([1.0, 0.0]), np.array([0.88, np.sqrt(1 - 0.88**2)])  # cosine 0.88
    points = [_point("person:helena", "Helena", list(a)), _point("person:pedro", "Pedro", list(b))]
    assert find_duplicates("x", points, threshold=0.3)  # cos 0.88 blocks and scores high
    assert not find_duplicates("x", points, threshold=0.3, floor=0.8)
    assert MaintenanceConfig(similarity_floor=0.8).cosine(0.75) == pytest.approx(0.95)


def test_relation_words_of_other_languages() -> None:
    assert relation_words("Onde o Guilherme mora?") == ["live"]
    assert relation_words("¿Dónde trabaja Lucía?") == ["work"]
    assert relation_words("Where does Ana live?") == []
    assert "live" in relation_terms("Where does Ana live?")
    assert "live" in relation_terms("Onde a Ana mora?")


def test_the_relation_answer_is_marked() -> None:
    facts = [ScoredFact(id=i, text=i) for i in ("a", "b", "c")]
    assert mark_answers(facts, {"b", "z"}) == 1
    assert [f.scores.relation for f in facts] == [0.0, 1.0, 0.0]
    for f in facts:
        f.created_at, f.confidence = NOW, 1.0
    ranking.score_facts(facts, RetrieveConfig(), NOW)
    assert max(facts, key=lambda f: f.scores.final).id == "b"


def test_read_options_come_from_the_embedder_class_or_instance() -> None:
    assert read_options(E5Embedder) == {"semantic_floor": 0.7, "language_gap": 0.04}
    assert read_options(HashEmbedder(8)) == {"semantic_floor": 0.0, "language_gap": 0.0}


def test_a_candidate_in_another_language_gets_the_gap_back() -> None:
    cfg = RetrieveConfig().with_options({"language_gap": 0.03})
    pt = ScoredFact(id="pt", text="A Corrente do Brasil é uma corrente quente do oceano.")
    en = ScoredFact(id="en", text="The Brazil Current is a warm current of the ocean.")
    assert ranking.language_gap(pt, "en", cfg) == 0.03
    assert ranking.language_gap(en, "en", cfg) == 0.0
    assert ranking.language_gap(pt, None, cfg) == 0.0  # question language unclear
    unclear = ScoredFact(id="x", text="Petrobras P-43 FPSO")
    assert ranking.language_gap(unclear, "en", cfg) == 0.0


def test_the_gap_lets_a_mixed_memory_rank_as_one() -> None:
    """An English question: its Portuguese answer at cosine 0.84 loses to an English
    distractor at 0.85 without the gap and wins with it (e5's gap is about 0.03)."""
    answer = ScoredFact(id="answer", text="A Corrente do Brasil é uma corrente quente.")
    other = ScoredFact(id="other", text="The Benguela Current flows along Africa.")
    for fact, cos in ((answer, 0.84), (other, 0.85)):
        fact.created_at, fact.confidence, fact.scores.semantic = NOW, 1.0, cos
    options = {"semantic_floor": 0.7}
    ranking.score_facts([answer, other], RetrieveConfig().with_options(options), NOW, None, "en")
    assert other.scores.final > answer.scores.final
    with_gap = RetrieveConfig().with_options({**options, "language_gap": 0.03})
    ranking.score_facts([answer, other], with_gap, NOW, None, "en")
    assert answer.scores.final > other.scores.final
