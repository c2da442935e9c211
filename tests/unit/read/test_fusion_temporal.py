"""Query time windows, the temporal boost, provenance lift and the keyword terms without
entity names (pure functions of the read pipeline)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graph.memory.read import planner, ranking
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EntityMatch, EventHit, ScoredFact
from graph.memory.read.temporal import TimeWindow, query_window

NOW = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("What did Mel show Caroline on October 13, 2023?", date(2023, 10, 12), date(2023, 10, 14)),
        ("What did Nate do for Joanna on 25 May, 2022?", date(2022, 5, 24), date(2022, 5, 26)),
        ("o que houve em 13 de outubro de 2023", date(2023, 10, 12), date(2023, 10, 14)),
        ("What did she paint in July 2023?", date(2023, 7, 1), date(2023, 7, 31)),
        ("How often did he go to the beach in 2023?", date(2023, 1, 1), date(2023, 12, 31)),
        ("what did I do last year", date(2025, 1, 1), date(2025, 12, 31)),
        ("what happened last month", date(2026, 2, 1), date(2026, 2, 28)),
    ],
)
def test_query_window_dates(query: str, start: date, end: date) -> None:
    window = query_window(query, NOW)
    assert window is not None and (window.start, window.end) == (start, end)


def test_month_without_year_matches_any_year_and_plain_words_give_none() -> None:
    window = query_window("When did Melanie go camping in June?", NOW)
    assert window == TimeWindow(month=6, text="in june")
    assert window.contains(datetime(2019, 6, 30, tzinfo=UTC))
    assert not window.contains(datetime(2019, 7, 1, tzinfo=UTC))
    assert not window.contains(None)
    for query in ("What may happen next?", "Where does Marcos live?", "February 30 2023"):
        assert query_window(query, NOW) is None


def test_temporal_boost_lifts_facts_inside_the_window() -> None:
    inside = ScoredFact(id="a", text="a", valid_from=datetime(2023, 7, 9, tzinfo=UTC))
    outside = ScoredFact(id="b", text="b", valid_from=datetime(2023, 8, 9, tzinfo=UTC))
    for f in (inside, outside):
        f.scores.semantic = 0.5
    window = query_window("in July 2023", NOW)
    ranking.score_facts([inside, outside], RetrieveConfig(), NOW, window)
    assert inside.scores.temporal == 1.0 and outside.scores.temporal == 0.0
    assert inside.scores.final > outside.scores.final
    ranking.score_facts(
        [inside, outside], RetrieveConfig.of(weights={"temporal": 0.0}), NOW, window
    )
    assert inside.scores.final == pytest.approx(outside.scores.final)


def test_a_fact_scores_at_least_its_source_turn() -> None:
    config = RetrieveConfig()
    fact = ScoredFact(id="f", text="f", event_ids=["e1", "e2"], confidence=0.9)
    fact.scores.semantic = 0.1
    other = ScoredFact(id="g", text="g", event_ids=["e9"], confidence=0.9)
    other.scores.semantic = 0.1
    strong = ScoredFact(id="h", text="h", event_ids=["e2"], confidence=0.9)
    strong.scores.semantic, strong.scores.keyword = 1.0, 1.0
    facts = [fact, other, strong]
    turns = [EventHit(id="e2", text="t", speaker=None, occurred_at=None, semantic=0.8, keyword=0.5)]
    ranking.score_events(turns, config, NOW)
    ranking.score_facts(facts, config, NOW)
    before = {f.id: f.scores.final for f in facts}
    assert before["f"] < turns[0].score < before["h"]
    assert ranking.lift_to_turns(facts, turns, 0.0) == 0
    assert ranking.lift_to_turns(facts, turns, 1.0) == 1  # only f: its turn scored higher
    assert fact.scores.final == fact.scores.formula == pytest.approx(turns[0].score)
    assert other.scores.final == before["g"]  # its turn is not a candidate
    assert strong.scores.final == before["h"]  # never lowered
    assert [f.id for f in ranking.order(facts)] == ["h", "f", "g"]


def test_keyword_terms_with_and_without_entity_names() -> None:
    plan = planner.build_plan(
        "What did Caroline research?",
        ["person"],
        [
            planner.CatalogRow(
                key="person:caroline",
                name="Caroline",
                type="person",
                via="slug",
                matched="caroline",
            )
        ],
    )
    assert plan.entities == (
        EntityMatch("person:caroline", "Caroline", "person", "slug", "caroline"),
    )
    assert planner.keyword_terms(plan) == ["caroline", "research"]
    assert planner.keyword_terms(plan, names=False) == ["research"]
