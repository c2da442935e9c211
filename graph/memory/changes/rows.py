"""An agent's memory changes, read from the database: the applied decisions of its audit trail
(``Audit`` nodes written by the write pipeline, ``remember``, ``forget``, ``merge_entities`` and
``erase``) as :class:`Change` values with an opaque resume cursor.

Changes come from Neo4j, never from one process's memory, so every API process sees every
other's writes. Text leaves only while it may still be shown (``cypher/browse/memory_changes``):
never for a forget, an invalidation or an erase, nor once an erase scrubbed the record.

A read names the tenant the agent belonged to when the reader started (None: no tenant): once
the id belongs to anyone else — the agent was erased, its id released and maybe claimed by
another tenant — the read answers :class:`AgentReleased` and never the new owner's changes.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum

from graph.errors import BadInput, GraphError
from graph.executor import Executor

__all__ = [
    "AgentReleased",
    "Change",
    "ChangeKind",
    "Position",
    "agent_erased",
    "decode_cursor",
    "earlier",
    "encode_cursor",
    "read_changes",
]

# Changes one read returns at most; a full page is followed by another read at once.
PAGE = 200
# A cursor is a base64 time and change id: longer text is refused before it is decoded.
MAX_CURSOR_CHARS = 200
# The times a cursor may name: no audit record is older (a cursor of year one would also
# overflow once the look-back is taken from it) or newer.
CURSOR_RANGE = (datetime(1970, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC))
FIRST_INSTANT = datetime.min.replace(tzinfo=UTC)


class AgentReleased(GraphError):
    """The agent id no longer belongs to the tenant the read named: the agent was erased (its
    id released, maybe claimed by another tenant since)."""


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

    @property
    def ends_stream(self) -> bool:
        """The erasure of the whole agent: nothing of it comes after."""
        return self.kind is ChangeKind.ERASED and self.scope == "agent"


def agent_erased() -> Change:
    """The change a stream ends with when its agent is gone (erased as a whole: the erase
    removes the agent's audit trail too, so no record of it is read)."""
    return Change(
        id=f"erased-{uuid.uuid4()}", kind=ChangeKind.ERASED, at=datetime.now(UTC), scope="agent"
    )


def earlier(at: datetime, by: timedelta) -> datetime:
    """``at - by``, or the first instant when that comes before it."""
    return at - by if at - FIRST_INSTANT > by else FIRST_INSTANT


def encode_cursor(position: Position) -> str:
    """The opaque cursor of a position (URL-safe)."""
    raw = f"{position.at.astimezone(UTC).isoformat()}|{position.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> Position:
    """The position a cursor names.

    Raises:
        BadInput: not a cursor this server made (checked on its length before decoding; its
            time must have a zone and lie in ``CURSOR_RANGE``).
    """
    refused = BadInput("`since` is not a memoryChanged cursor")
    if len(cursor) > MAX_CURSOR_CHARS:
        raise refused
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        at, _, change_id = raw.partition("|")
        when = datetime.fromisoformat(at)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise refused from None
    if when.tzinfo is None or not CURSOR_RANGE[0] <= when < CURSOR_RANGE[1]:
        raise refused
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
    executor: Executor,
    agent_id: str,
    after: Position,
    limit: int = PAGE,
    *,
    tenant: str | None = None,
) -> list[Change]:
    """The agent's changes after ``after`` (an empty id: every change at its time too), oldest
    first, at most ``limit``, while the agent belongs to ``tenant`` (None: to no tenant).

    Raises:
        AgentReleased: the agent id belongs to someone else now (it was erased).
    """
    rows = await executor.run(
        "browse/memory_changes",
        {
            "agent_id": agent_id,
            "tenant": tenant,
            "after": after.at,
            "after_id": after.id,
            "limit": limit,
        },
        read=True,
    )
    if not rows or not rows[0]["owned"]:
        raise AgentReleased(f"agent {agent_id!r} no longer belongs to the tenant it had")
    changes = [c for c in (_change(r) for r in rows[0]["changes"]) if c is not None]
    return sorted(changes, key=lambda c: c.position)
