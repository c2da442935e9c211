"""The learned ranker's feature rows (pure): one row per candidate fact and turn, each signal's
score and place, provenance partners, the question's features; the vocabulary only grows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EntityMatch, EventHit, RetrievalPlan, ScoredFact
from graph.memory.read.ranker import (
    FEATURES,
    apply_model,
    explain,
    feature_table,
    query_view,
    shipped_model,
)
from graph.memory.read.ranker.features import QUESTION_WORDS
from graph.memory.read.temporal import TimeWindow

NOW = datetime(2026, 3, 1, tzinfo=UTC)
# The first features in the order every shipped model was trained with: never reordered.
FIRST = ("cosine", "cosine_adjusted", "cosine_rank", "cosine_gap", "cosine_z", "bm25")


def _fact(fid: str, text: str, cosine: float, keyword: float = 0.0, **kw: object) -> ScoredFact:
    fact = ScoredFact(id=fid, text=text, created_at=NOW - timedelta(days=1), **kw)  # type: ignore[arg-type]
    fact.scores.semantic, fact.scores.keyword = cosine, keyword
    fact.scores.formula = cosine
    fact.sources = {"semantic", "keyword"} if keyword else {"semantic"}
    return fact


def _plan(query: str) -> RetrievalPlan:
    ana = EntityMatch("person:ana_lima", "Ana Lima", "person", "alias", "ana")
    return RetrievalPlan("multi_signal", "deterministic", query, entities=(ana,))


def test_every_candidate_gets_a_row_in_the_vocabulary_order() -> None:
    query = "Where does Ana live now?"
    facts = [
        _fact("f1", "Ana lives in Lisbon since May", 0.9, 1.0, subject_key="person:ana_lima"),
        _fact("f2", "Bruno plays chess", 0.4, event_ids=["e1"]),
    ]
    turn = EventHit("e1", "Ana said she moved to Lisbon", "Ana", NOW - timedelta(days=1))
    turn.semantic, turn.score = 0.8, 0.7
    view = query_view(query, _plan(query), "en", None, 120, relation=False)
    table = feature_table(facts, [turn], view, RetrieveConfig(), NOW)
    assert table.values.shape == (3, len(FEATURES))
    assert [c.id for c in table.candidates] == ["f1", "f2", "e1"]
    assert FEATURES[: len(FIRST)] == FIRST
    col = {name: table.column(name) for name in FEATURES}
    assert list(col["cosine"]) == [0.9, 0.4, 0.8]
    assert list(np.expm1(col["cosine_rank"]).round()) == [0.0, 2.0, 1.0]
    assert col["cosine_gap"][0] == 0.0 and col["cosine_gap"][1] == pytest.approx(0.5)
    assert list(col["is_turn"]) == [0.0, 0.0, 1.0]
    assert list(col["subject_named"]) == [1.0, 0.0, 1.0]  # the turn's speaker is named
    assert list(col["entity_mentions"]) == [1.0, 0.0, 1.0]
    # provenance partners: f2 came from e1 (and e1 gave f2)
    assert col["source_cosine"][1] == pytest.approx(0.8)
    assert col["source_cosine"][2] == pytest.approx(0.4)
    assert col["keyword_coverage"][0] > col["keyword_coverage"][1]
    assert list(col["question_where"]) == [1.0, 1.0, 1.0]
    assert col["query_entities"][0] == 1.0
    assert col["agent_facts"][0] == pytest.approx(np.log1p(120))
    # the turn said within the session of each fact: both facts are a day old, like the turn
    assert list(col["session_candidates"]) == pytest.approx([np.log1p(1)] * 2 + [0.0])
    # pool columns: one value for every candidate, the mean of the candidates' own
    assert set(col["pool_language_match"]) == {col["language_match"].mean()}
    assert set(col["pool_keyword"]) == {col["found_keyword"].mean()}


def test_question_words_in_english_and_portuguese() -> None:
    def word(q: str) -> str:
        return query_view(
            q, RetrievalPlan("multi_signal", "x", q), None, None, 0, False
        ).question_word

    assert word("When did Caroline go to the support group?") == "when"
    assert word("Onde mora o Pedro?") == "where"
    assert word("In which year did she move?") == "which"
    assert word("Did Ana like the film?") == "yesno"
    assert word("Tell me about Ana") == "other"
    assert set(QUESTION_WORDS) | {"other"} == {
        n.removeprefix("question_") for n in FEATURES if n.startswith("question_")
    }


def test_a_time_window_marks_the_turns_said_inside_it() -> None:
    turn = EventHit("e1", "We painted the garage", "Mel", datetime(2023, 8, 12, tzinfo=UTC))
    other = EventHit("e2", "We painted the garage", "Mel", datetime(2023, 9, 12, tzinfo=UTC))
    window = TimeWindow(start=datetime(2023, 8, 1).date(), end=datetime(2023, 8, 31).date())
    q = "What did Mel paint in August 2023?"
    view = query_view(q, RetrievalPlan("multi_signal", "x", q), "en", window, 0, False)
    table = feature_table([], [turn, other], view, RetrieveConfig(), NOW, window)
    assert list(table.column("temporal")) == [1.0, 0.0]
    assert list(table.column("query_time")) == [1.0, 1.0]


def test_the_kind_of_answer_a_candidate_holds() -> None:
    q = "When did Ana move to Lisbon?"
    facts = [
        _fact("f1", "Ana Lima moved to Lisbon in May 2024 with Bruno", 0.9),
        _fact("f2", "Ana moved to Lisbon last week", 0.8),
        _fact("f3", "Ana plays chess", 0.7),
        _fact("f4", "A Ana tem três gatos", 0.6),
    ]
    view = query_view(q, _plan(q), "en", None, 0, False)
    table = feature_table(facts, [], view, RetrieveConfig(), NOW)
    # a date (a year or a month), a relative time word, none
    assert list(table.column("answer_date")) == [1.0, 0.5, 0.0, 0.0]
    assert list(table.column("answer_number")) == [1.0, 0.0, 0.0, 1.0]
    # names past a sentence's start the question does not say: May, Bruno (the question
    # says Lisbon, and Ana Lima through her entity)
    assert list(np.expm1(table.column("answer_names")).round()) == [2.0, 0.0, 0.0, 0.0]


def test_no_candidates_no_rows() -> None:
    q = "anything"
    view = query_view(q, RetrievalPlan("multi_signal", "x", q), None, None, 0, False)
    assert feature_table([], [], view, RetrieveConfig(), NOW).values.shape == (0, len(FEATURES))


def test_a_model_orders_the_formulas_first_candidates_and_the_rest_follow_in_its_order() -> None:
    q = "What does Ana do?"
    facts = [_fact(f"f{i}", f"Ana fact number {i}", 0.3 + 0.01 * i) for i in range(12)]
    view = query_view(q, _plan(q), "en", None, 12, relation=False)
    full = feature_table(facts, [], view, RetrieveConfig(), NOW, every_row=True)
    table = feature_table(facts, [], view, RetrieveConfig(), NOW, limit=5)
    # the formula's five best (the last five facts) are ranked, and only their rows worked out
    assert list(np.flatnonzero(table.ranked)) == [7, 8, 9, 10, 11]
    assert list(np.flatnonzero(table.filled)) == [7, 8, 9, 10, 11]
    assert np.array_equal(table.values[table.ranked], full.values[table.ranked])
    # a place among the others reads the whole pool, worked out or not
    assert np.array_equal(table.column("cosine_rank"), full.column("cosine_rank"))
    assert not table.values[0, FEATURES.index("keyword_coverage")]
    table.fill([0, 8])
    assert np.array_equal(table.values[0], full.values[0])

    ranked = apply_model(shipped_model(), table)
    finals = [f.scores.final for f in facts]
    lowest = min(finals[7:])
    assert all(0.0 < finals[i] < lowest for i in range(7))
    assert finals[:7] == sorted(finals[:7])  # the formula's order below the ranked ones
    explain(ranked, [facts[0], facts[11]])
    for fact in (facts[0], facts[11]):
        e = fact.explanation
        assert e is not None and e.bias + e.contributions.sum() == pytest.approx(e.raw)
