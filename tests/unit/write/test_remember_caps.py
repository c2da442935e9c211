"""remember refuses oversized input before any work (pure check): list sizes, nested lists,
and the length of every free text or name that would reach embeddings and prompts."""

from __future__ import annotations

import pytest

from graph.errors import BadInput
from graph.memory.remember.rows import MAX_NAME_CHARS, MAX_TEXT_CHARS, check_sizes
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.memory.write.models import StructuredEvent

LONG_TEXT = "x" * (MAX_TEXT_CHARS + 1)
LONG_NAME = "n" * (MAX_NAME_CHARS + 1)


@pytest.mark.parametrize(
    ("entities", "facts", "relations", "events"),
    [
        ([StructuredEntity(LONG_NAME)], [], [], []),
        ([StructuredEntity("Ana", aliases=[LONG_NAME])], [], [], []),
        ([], [StructuredFact(LONG_TEXT, "Ana")], [], []),
        ([], [StructuredFact("Ana likes tea", LONG_NAME)], [], []),
        ([], [StructuredFact("Ana likes tea", "Ana", [LONG_NAME])], [], []),
        ([], [], [StructuredRelation("Ana", LONG_NAME, "knows")], []),
        ([], [], [], [StructuredEvent(LONG_TEXT, "Ana")]),
    ],
)
def test_long_texts_and_names_are_refused(
    entities: list, facts: list, relations: list, events: list
) -> None:
    with pytest.raises(BadInput):
        check_sizes(entities, facts, relations, events, max_items=None)


def test_texts_at_the_cap_pass() -> None:
    check_sizes(
        [StructuredEntity("n" * MAX_NAME_CHARS)],
        [StructuredFact("x" * MAX_TEXT_CHARS, "Ana")],
        [],
        [],
        max_items=1_000,
    )
