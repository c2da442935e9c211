"""Past turns: a turn whose every extracted fact was superseded or retracted is demoted by
``past_turn_factor`` and shown in the context with its date as earlier."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.errors import ConfigError
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.formatter import format_context
from graph.memory.read.models import EventHit, ScoredFact
from graph.memory.read.past_turns import PAST_TURN_MARK, demote_past_turns, turn_label
from graph.memory.read.search import event_from_row

CURITIBA = datetime(2025, 3, 10, 19, 2, tzinfo=UTC)
LISBON = datetime(2026, 2, 3, 10, 0, tzinfo=UTC)


def turns() -> list[EventHit]:
    return [
        EventHit("e1", "I live in Curitiba.", "Guilherme", CURITIBA, score=0.6, superseded=True),
        EventHit("e2", "Eu me mudei para Lisboa.", "Guilherme", LISBON, score=0.4),
    ]


def test_only_superseded_turns_are_demoted_by_the_factor() -> None:
    events = turns()
    assert demote_past_turns(events, 0.5) == 1
    assert [e.score for e in events] == [pytest.approx(0.3), 0.4]
    assert demote_past_turns(turns(), 1.0) == 1 and turns()[0].score == 0.6


def test_a_superseded_turn_is_formatted_as_earlier_with_its_date() -> None:
    old, new = turns()
    assert turn_label(old) == f"(2025-03-10, {PAST_TURN_MARK}) "
    assert turn_label(new) == "(2026-02-03) "
    undated = EventHit("e3", "x", None, None, superseded=True)
    assert turn_label(undated) == f"({PAST_TURN_MARK}) "
    assert turn_label(EventHit("e4", "x", None, None)) == ""
    facts = [ScoredFact(id="f", text="Guilherme lives in Lisbon")]
    text = format_context(facts, [], [new, old], RetrieveConfig()).text
    assert text.endswith(
        "Relevant conversations:\n"
        "- (2026-02-03) Guilherme: Eu me mudei para Lisboa.\n"
        "- (2025-03-10, earlier; since updated) Guilherme: I live in Curitiba."
    )


def test_the_statements_flag_becomes_the_hits_field() -> None:
    row = {"id": "e1", "text": "t", "speaker": None, "occurred_at": None}
    assert event_from_row(row).superseded is False  # a statement without the flag
    assert event_from_row({**row, "superseded": True}).superseded is True
    assert event_from_row({**row, "superseded": None}).superseded is False


def test_the_factor_is_an_option_within_zero_and_one() -> None:
    assert RetrieveConfig().scoring.past_turn_factor == 0.8
    assert RetrieveConfig().with_options({"past_turn_factor": 1.0}).scoring.past_turn_factor == 1
    for bad in (-0.1, 1.5):
        with pytest.raises(ConfigError):
            RetrieveConfig().with_options({"past_turn_factor": bad})
