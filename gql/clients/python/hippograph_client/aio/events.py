from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Events(BaseModel):
    events: "EventsEvents"


class EventsEvents(BaseModel):
    edges: list["EventsEventsEdges"]
    page_info: "EventsEventsPageInfo" = Field(alias="pageInfo")


class EventsEventsEdges(BaseModel):
    node: "EventsEventsEdgesNode"
    cursor: str


class EventsEventsEdgesNode(BaseModel):
    id: str
    text: str
    speaker: Optional[str]
    occurred_at: Optional[datetime] = Field(alias="occurredAt")
    ingested_at: Optional[datetime] = Field(alias="ingestedAt")
    thread_id: Optional[str] = Field(alias="threadId")
    source: Optional[str]
    emotion: Optional[str]
    intensity: Optional[float]


class EventsEventsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


Events.model_rebuild()
EventsEvents.model_rebuild()
EventsEventsEdges.model_rebuild()
