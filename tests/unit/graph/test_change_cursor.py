"""memoryChanged cursors: a change's position survives the round trip; anything else is
BAD_INPUT (never a stack trace)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.errors import BadInput
from graph.memory.changes import Position, decode_cursor, encode_cursor, rows


def test_a_cursor_names_its_position() -> None:
    position = Position(datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC), "a1b2")
    cursor = encode_cursor(position)
    assert decode_cursor(cursor) == position
    assert cursor.isascii() and "=" not in cursor and "/" not in cursor


@pytest.mark.parametrize(
    "cursor",
    [
        "",
        "nope",
        "!!!",
        encode_cursor(Position(datetime(2026, 1, 1, tzinfo=UTC)))[:-3] + "x",
        "MjAyNi0wMS0wMVQwMDowMDowMHx4",
    ],  # a time without its zone
)
def test_anything_else_is_bad_input(cursor: str) -> None:
    with pytest.raises(BadInput):
        decode_cursor(cursor)


def test_a_cursor_of_year_one_is_bad_input() -> None:
    """Its time cannot have the look-back taken from it (a position before year one)."""
    with pytest.raises(BadInput):
        decode_cursor(encode_cursor(Position(datetime(1, 1, 1, tzinfo=UTC), "x")))


def test_a_long_cursor_is_refused_before_it_is_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    def decoded(text: str) -> bytes:
        raise AssertionError("decoded")

    monkeypatch.setattr(rows.base64, "urlsafe_b64decode", decoded)
    with pytest.raises(BadInput):
        decode_cursor("A" * 201)
