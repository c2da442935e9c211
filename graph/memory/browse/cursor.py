"""Opaque Relay cursors for keyset pagination (pure functions, no I/O).

A cursor is URL-safe base64 of ``<kind>|<value>[|<id>]``; clients treat it as opaque. A cursor
of another kind or a malformed one is a :class:`~graph.errors.BadInput`.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from graph.errors import BadInput

__all__ = ["decode_key_cursor", "decode_time_cursor", "encode_key_cursor", "encode_time_cursor"]


def _encode(*parts: str) -> str:
    return base64.urlsafe_b64encode("|".join(parts).encode()).decode().rstrip("=")


def _decode(cursor: str, kind: str, count: int) -> list[str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        text = base64.urlsafe_b64decode(padded.encode()).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise BadInput("malformed cursor") from exc
    parts = text.split("|", count)
    if len(parts) != count + 1 or parts[0] != kind:
        raise BadInput("cursor does not belong to this list")
    return parts[1:]


def encode_key_cursor(key: str) -> str:
    """Cursor after an entity with this key (entities are ordered by key)."""
    return _encode("k", key)


def decode_key_cursor(cursor: str) -> str:
    """Inverse of :func:`encode_key_cursor`. Raises BadInput when malformed."""
    return _decode(cursor, "k", 1)[0]


def encode_time_cursor(at: datetime | None, node_id: str) -> str:
    """Cursor after a node ordered by (time DESC, id ASC)."""
    return _encode("t", at.isoformat() if at else "", node_id)


def decode_time_cursor(cursor: str) -> tuple[datetime | None, str]:
    """Inverse of :func:`encode_time_cursor`. Raises BadInput when malformed."""
    stamp, node_id = _decode(cursor, "t", 2)
    try:
        return (datetime.fromisoformat(stamp) if stamp else None), node_id
    except ValueError as exc:
        raise BadInput("malformed cursor") from exc
