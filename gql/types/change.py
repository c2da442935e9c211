"""The events of the ``memoryChanged`` subscription."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from graph.memory.changes import Change, ChangeKind

__all__ = ["MemoryChange", "MemoryChangeKind"]


@strawberry.enum(description="What changed in an agent's memory.")
class MemoryChangeKind(Enum):
    FACT_ADDED = strawberry.enum_value(
        "FACT_ADDED", description="A fact was stored (a write, `remember` or an import)."
    )
    FACT_UPDATED = strawberry.enum_value(
        "FACT_UPDATED",
        description="A new version replaced a fact: `factId` is the new version, "
        "`previousFactId` the one it closed.",
    )
    FACT_INVALIDATED = strawberry.enum_value(
        "FACT_INVALIDATED", description="A write retracted a fact (it stays in history)."
    )
    FACT_FORGOTTEN = strawberry.enum_value(
        "FACT_FORGOTTEN", description="`forget` soft-deleted a fact; no text is sent."
    )
    ERASED = strawberry.enum_value(
        "ERASED",
        description="An operator erased data for good (`scope` says what kind); no id or "
        "text is sent, since the erase keeps none: refetch what is shown.",
    )
    ENTITY_MERGED = strawberry.enum_value(
        "ENTITY_MERGED",
        description="`mergedEntityKey` was merged into `entityKey` (its facts now name it).",
    )


KINDS = {
    ChangeKind.FACT_ADDED: MemoryChangeKind.FACT_ADDED,
    ChangeKind.FACT_UPDATED: MemoryChangeKind.FACT_UPDATED,
    ChangeKind.FACT_INVALIDATED: MemoryChangeKind.FACT_INVALIDATED,
    ChangeKind.FACT_FORGOTTEN: MemoryChangeKind.FACT_FORGOTTEN,
    ChangeKind.ERASED: MemoryChangeKind.ERASED,
    ChangeKind.ENTITY_MERGED: MemoryChangeKind.ENTITY_MERGED,
}


@strawberry.type(
    description="One change of an agent's memory, read from the database's audit trail (so "
    "changes made through any API process arrive)."
)
class MemoryChange:
    id: strawberry.ID = strawberry.field(
        description="The change's id (its audit record): a change resent after a reconnect "
        "with `since` has the same id."
    )
    kind: MemoryChangeKind = strawberry.field(description="What happened.")
    at: datetime = strawberry.field(description="When the change was made.")
    cursor: str = strawberry.field(
        description="Pass it as `since` when subscribing again to miss nothing from here on."
    )
    fact_id: strawberry.ID | None = strawberry.field(
        description="The fact added, updated (its new version), invalidated or forgotten; "
        "null for merges and erases."
    )
    previous_fact_id: strawberry.ID | None = strawberry.field(
        description="FACT_UPDATED: the version it replaced; null otherwise."
    )
    entity_key: str | None = strawberry.field(
        description="ENTITY_MERGED: the entity that was kept; null otherwise."
    )
    merged_entity_key: str | None = strawberry.field(
        description="ENTITY_MERGED: the entity merged into it; null otherwise, and once an "
        "erase removed it."
    )
    scope: str | None = strawberry.field(
        description="ERASED: what was erased: `fact`, `entity` or `agent` (the whole agent: "
        "the subscription completes after it)."
    )
    text: str | None = strawberry.field(
        description="FACT_ADDED / FACT_UPDATED: the fact's text while the fact is still "
        "stored and not forgotten; always null for forgets, invalidations and erases."
    )

    @classmethod
    def from_change(cls, c: Change) -> MemoryChange:
        return cls(
            id=strawberry.ID(c.id),
            kind=KINDS[c.kind],
            at=c.at,
            cursor=c.cursor,
            fact_id=strawberry.ID(c.fact_id) if c.fact_id else None,
            previous_fact_id=strawberry.ID(c.previous_fact_id) if c.previous_fact_id else None,
            entity_key=c.entity_key,
            merged_entity_key=c.merged_entity_key,
            scope=c.scope,
            text=c.text,
        )
