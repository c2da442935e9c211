"""Row preparation of a structured import (pure): facts split into write batches with the
decision for each (new, stored under its id, exact duplicate), entity rows carrying their
folded names."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.memory.remember.names import Registry
from graph.memory.remember.prepare import entity_rows, plan_fact_batches, prepare_rows
from graph.memory.write import RememberResult, StructuredEntity, StructuredFact


def _rows(facts: list[StructuredFact]):  # type: ignore[no-untyped-def]
    registry = Registry()
    result = RememberResult()
    fact_rows, _ = prepare_rows("agent", facts, [], registry, result)
    return fact_rows


def test_duplicates_across_batches_reinforce_the_first_and_keep_input_order() -> None:
    rows = _rows(
        [
            StructuredFact("Ana likes tea", "Ana", id="f1"),
            StructuredFact("Ana likes jazz", "Ana", id="f2"),
            StructuredFact("Ana  likes TEA", "Ana", id="f3"),  # same normalised text as f1
            StructuredFact("Ana likes tea", "Ana", id="f4"),
        ]
    )
    batches = plan_fact_batches(rows, existing_ids=set(), known_hash={}, batch_size=2)
    assert [b.start for b in batches] == [0, 2]
    assert [r["id"] for r in batches[0].new_rows] == ["f1", "f2"]
    assert batches[1].new_rows == []
    assert batches[1].reinforce == [{"id": "f1", "count": 2}]
    assert [i for b in batches for i in b.fact_ids] == ["f1", "f2", "f1", "f1"]
    assert [b.unchanged for b in batches] == [0, 2]


def test_stored_ids_and_stored_texts_are_unchanged() -> None:
    rows = _rows(
        [
            StructuredFact("Ana likes tea", "Ana", id="f1"),
            StructuredFact("Ana likes jazz", "Ana", id="f2"),
        ]
    )
    jazz_hash = rows[1][1]["content_hash"]
    batches = plan_fact_batches(
        rows, existing_ids={"f1"}, known_hash={jazz_hash: "old"}, batch_size=500
    )
    (batch,) = batches
    assert batch.new_rows == [] and batch.unchanged == 2
    assert batch.fact_ids == ["f1", "old"]
    assert batch.reinforce == [{"id": "old", "count": 1}]


def test_new_facts_link_their_subject_once_as_primary() -> None:
    rows = _rows([StructuredFact("Ana met Bo", "Ana", entities=["Bo", "Ana", "Bo"], id="f")])
    (batch,) = plan_fact_batches(rows, set(), {}, 500)
    assert batch.new_rows[0]["keys"] == ["thing:ana", "thing:bo"]  # the subject first


def test_entity_rows_carry_each_folded_name_once() -> None:
    ent = StructuredEntity("Clara Rezende", "person", aliases=["clara rezende", "Clarinha"])
    (row,) = entity_rows([("person:clara-rezende", ent)], [[0.0]], token="t")
    assert row["aliases"] == [
        {"norm": "clara rezende", "text": "Clara Rezende"},
        {"norm": "clarinha", "text": "Clarinha"},
    ]
    assert row["embedding"] == [0.0] and row["token"] == "t"


def test_fact_times_are_the_callers_or_left_to_the_statement() -> None:
    given = datetime(2024, 5, 1, tzinfo=UTC)
    rows = _rows(
        [
            StructuredFact("Ana likes tea", "Ana", id="f1"),
            StructuredFact("Ana likes jazz", "Ana", id="f2", created_at=given, valid_from=given),
        ]
    )
    # No datetime per row unless the caller gave one: the statement fills in the import's time.
    plain, dated = rows[0][1], rows[1][1]
    assert plain["created_at"] is None and plain["valid_from"] is None
    assert dated["created_at"] == given and dated["valid_from"] == given
    assert "last_confirmed_at" not in plain  # the statement sets it to created_at
