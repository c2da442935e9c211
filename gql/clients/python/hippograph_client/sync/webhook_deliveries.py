from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import WebhookDeliveryStatus, WebhookEvent


class WebhookDeliveries(BaseModel):
    webhook_deliveries: list["WebhookDeliveriesWebhookDeliveries"] = Field(
        alias="webhookDeliveries"
    )


class WebhookDeliveriesWebhookDeliveries(BaseModel):
    id: str
    webhook_id: str = Field(alias="webhookId")
    agent_id: str = Field(alias="agentId")
    event: Optional[WebhookEvent]
    status: Optional[WebhookDeliveryStatus]
    attempts: int
    max_attempts: int = Field(alias="maxAttempts")
    next_attempt_at: Optional[datetime] = Field(alias="nextAttemptAt")
    last_status_code: Optional[int] = Field(alias="lastStatusCode")
    last_error: Optional[str] = Field(alias="lastError")
    event_at: Optional[datetime] = Field(alias="eventAt")
    created_at: datetime = Field(alias="createdAt")
    delivered_at: Optional[datetime] = Field(alias="deliveredAt")


WebhookDeliveries.model_rebuild()
