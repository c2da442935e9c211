"""Events: the immutable record of every message the agent received."""

from __future__ import annotations

from datetime import datetime

import strawberry

from gql.types.common import PageInfo, page_info
from graph.memory.browse import EventRow, Page

__all__ = ["Event", "EventConnection", "event_connection"]


@strawberry.type(description="One message as received (never modified).")
class Event:
    id: strawberry.ID = strawberry.field(description="Event id.")
    text: str = strawberry.field(description="The message text (PII-redacted when configured).")
    speaker: str | None = strawberry.field(description="Who sent it.")
    occurred_at: datetime | None = strawberry.field(description="When it was said.")
    ingested_at: datetime | None = strawberry.field(description="When memory received it.")
    thread_id: str | None = strawberry.field(description="Conversation thread.")
    source: str | None = strawberry.field(description="Where it came from (chat, import...).")
    emotion: str | None = strawberry.field(description="Detected emotion, when analysed.")
    intensity: float | None = strawberry.field(description="Emotional intensity, 0..1.")

    @classmethod
    def from_row(cls, e: EventRow) -> Event:
        return cls(
            id=strawberry.ID(e.id),
            text=e.text,
            speaker=e.speaker,
            occurred_at=e.occurred_at,
            ingested_at=e.ingested_at,
            thread_id=e.thread_id,
            source=e.source,
            emotion=e.emotion,
            intensity=e.intensity,
        )


@strawberry.type(description="An event and its cursor.")
class EventEdge:
    node: Event = strawberry.field(description="The event.")
    cursor: str = strawberry.field(description="Opaque cursor of this event.")


@strawberry.type(description="A page of events, newest first (Relay connection).")
class EventConnection:
    edges: list[EventEdge] = strawberry.field(description="The events of this page.")
    page_info: PageInfo = strawberry.field(description="Pagination state.")


def event_connection(page: Page[EventRow]) -> EventConnection:
    edges = [
        EventEdge(node=Event.from_row(e), cursor=c)
        for e, c in zip(page.items, page.cursors, strict=True)
    ]
    return EventConnection(
        edges=edges,
        page_info=page_info(page),
    )
