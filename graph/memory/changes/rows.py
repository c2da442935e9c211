"""An agent's memory changes, read from the database: the applied decisions of its audit trail
(``Audit`` nodes written by the write pipeline, ``remember``, ``forget``, ``merge_entities`` and
``erase``) as :class:`Change` values with an opaque resume cursor.

Changes come from Neo4j, never from one process's memory, so every API process sees every
other's writes. Text leaves only while it may still be shown (``cypher/browse/memory_changes``):
never for a forget, an invalidation or an erase, nor once an erase scrubbed the record.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum

from graph.errors import BadInput
from graph.executor import Executor

__all__ = ["Change", "ChangeKind", "Position", "decode_cursor", "encode_cursor", "read_changes"]

# Changes one read returns at most; a full page is followed by another read at once.
PAGE = 200


class ChangeKind(Enum):
    """What happened, from the audit record's action."""

    FACT_ADDED = "ADD"
    FACT_UPDATED = "UPDATE"
    FACT_INVALIDATED = "DELETE"
    FACT_FORGOTTEN = "FORGET"
    ERASED = "ERASE"
    ENTITY_MERGED = "MERGE"


@dataclass(frozen=True, order=True)
class Position:
    """A place in an agent's change stream: changes are ordered by time, then id."""

    at: datetime
    id: str = ""


@dataclass(frozen=True)
class Change:
    """One applied change of an agent's memory."""

    id: str
    kind: ChangeKind
    at: datetime
    fact_id: str | None = None
    previous_fact_id: str | None = None
    entity_key: str | None = None
    merged_entity_key: str | None = None
    scope: str | None = None
    text: str | None = None

    @property
    def position(self) -> Position:
        return Position(self.at, self.id)

    @property
    def cursor(self) -> str:
        return encode_cursor(self.position)


def encode_cursor(position: Position) -> str:
    """The opaque cursor of a position (URL-safe)."""
    raw = f"{position.at.astimezone(UTC).isoformat()}|{position.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> Position:
    """The position a cursor names.

    Raises:
        BadInput: not a cursor this server made.
    """
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        at, _, change_id = raw.partition("|")
        when = datetime.fromisoformat(at)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise BadInput("`since` is not a memoryChanged cursor") from None
    if when.tzinfo is None or len(cursor) > 200:
        raise BadInput("`since` is not a memoryChanged cursor")
    return Position(when, change_id)


def _change(row: dict[str, object]) -> Change | None:
    try:
        kind = ChangeKind(row.get("action"))
    except ValueError:
        return None
    fact_id, target = row.get("fact_id"), row.get("target_id")
    at = row["created_at"]
    assert isinstance(at, datetime)
    text = row.get("text")
    return Change(
        id=str(row["id"]),
        kind=kind,
        at=at,
        fact_id=str(fact_id) if fact_id and kind is not ChangeKind.ENTITY_MERGED else None,
        previous_fact_id=str(target) if target and kind is ChangeKind.FACT_UPDATED else None,
        entity_key=str(target) if target and kind is ChangeKind.ENTITY_MERGED else None,
        merged_entity_key=str(text) if text and kind is ChangeKind.ENTITY_MERGED else None,
        scope=str(row["scope"]) if row.get("scope") else None,
        text=str(text)
        if text and kind in (ChangeKind.FACT_ADDED, ChangeKind.FACT_UPDATED)
        else None,
    )


async def read_changes(
    executor: Executor, agent_id: str, after: Position, limit: int = PAGE
) -> list[Change]:
    """The agent's changes after ``after`` (an empty id: every change at its time too), oldest
    first, at most ``limit``."""
    rows = await executor.run(
        "browse/memory_changes",
        {"agent_id": agent_id, "after": after.at, "after_id": after.id, "limit": limit},
        read=True,
    )
    return [c for c in (_change(r["change"]) for r in rows) if c is not None]
