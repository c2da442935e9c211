from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class FailedMessages(BaseModel):
    failed_messages: list["FailedMessagesFailedMessages"] = Field(
        alias="failedMessages"
    )


class FailedMessagesFailedMessages(BaseModel):
    event_id: str = Field(alias="eventId")
    speaker: str
    text: str
    occurred_at: Optional[datetime] = Field(alias="occurredAt")
    error: str
    failed_at: Optional[datetime] = Field(alias="failedAt")


FailedMessages.model_rebuild()
