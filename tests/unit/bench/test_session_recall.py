"""Session-level recall of the LoCoMo benchmark: a session is found when a retrieved item holds
one of its evidence turns; the share of the question's evidence sessions found in the top k."""

from __future__ import annotations

import pytest

from tests.bench.locomo_parts import Metrics, session_of, session_recall

# items: two turns of the third session (D3), one of the seventh (D7), a fact drawn from turns
# of both, a turn of the twelfth (D12) that is not evidence
DIA_OF = {
    "t3a": {"D3:1"},
    "t3b": {"D3:4"},
    "t7": {"D7:2"},
    "fact": {"D3:9", "D7:5"},
    "t12": {"D12:1"},
}


def test_the_session_of_a_dia_id() -> None:
    assert [session_of(d) for d in ("D3:12", "D12:1", "D1:0")] == ["3", "12", "1"]
    assert session_of("odd") == "odd"


def test_a_session_is_found_by_any_item_holding_one_of_its_evidence_turns() -> None:
    evidence = {"D3:1", "D3:4", "D7:2"}  # two sessions
    assert session_recall(["t3a", "t12", "t7"], DIA_OF, evidence, 1) == 0.5
    assert session_recall(["t3a", "t3b"], DIA_OF, evidence, 10) == 0.5  # one session twice
    assert session_recall(["t3a", "t12", "t7"], DIA_OF, evidence, 3) == 1.0
    # a non-evidence turn of an evidence session does not find it
    assert session_recall(["t12"], DIA_OF, {"D12:5"}, 5) == 0.0
    # an item drawn from several turns finds each session whose evidence it holds
    assert session_recall(["fact"], DIA_OF, {"D3:9", "D7:5", "D9:9"}, 5) == pytest.approx(2 / 3)


def test_metrics_average_session_recall_at_5_and_10_over_the_questions() -> None:
    m = Metrics()
    ranked = ["t12"] * 5 + ["t3a", "t7"]  # D3 and D7 only from rank 6 on
    m.add(ranked, DIA_OF, {"D3:1", "D7:2"}, ms=1.0)
    m.add(["t3a"], DIA_OF, {"D3:1"}, ms=1.0)
    assert (m.session_r(5), m.session_r(10)) == (0.5, 1.0)
    assert m.r(5) == 0.5  # turn recall agrees here: one turn per session
    row = m.row("ranker")
    assert row.split()[5:7] == ["0.500", "1.000"]  # sess R@5, R@10 after MRR
