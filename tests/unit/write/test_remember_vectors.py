"""Caller-supplied vectors of a structured import are checked before any work (pure)."""

from __future__ import annotations

import pytest

from graph.errors import BadInput
from graph.memory.remember.rows import check_vectors
from graph.memory.write import StructuredEntity, StructuredFact


def test_vectors_of_the_embedders_size_pass() -> None:
    check_vectors(
        [StructuredEntity("Ana", embedding=[0.0, 1.0])],
        [
            StructuredFact("Ana likes tea", "Ana", embedding=[1, 0.5]),
            StructuredFact("Ana likes jazz", "Ana"),
        ],
        dimensions=2,
    )


@pytest.mark.parametrize(
    ("entities", "facts", "where"),
    [
        ([StructuredEntity("Ana", embedding=[0.0])], [], r"entities\[0\]"),
        (
            [],
            [StructuredFact("a", "Ana"), StructuredFact("b", "Ana", embedding=[1.0, 2.0, 3.0])],
            r"facts\[1\]",
        ),
        ([], [StructuredFact("a", "Ana", embedding=[float("inf"), 0.0])], r"facts\[0\]"),
    ],
)
def test_a_wrong_size_or_non_finite_vector_is_refused(
    entities: list, facts: list, where: str
) -> None:
    with pytest.raises(BadInput, match=where):
        check_vectors(entities, facts, dimensions=2)
