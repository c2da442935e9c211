from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import WebhookEvent, WebhookScope


class Webhooks(BaseModel):
    webhooks: list["WebhooksWebhooks"]


class WebhooksWebhooks(BaseModel):
    id: str
    scope: WebhookScope
    tenant: Optional[str]
    agent_id: Optional[str] = Field(alias="agentId")
    url: str
    events: list[WebhookEvent]
    description: Optional[str]
    created_at: datetime = Field(alias="createdAt")
    secret_hint: str = Field(alias="secretHint")
    pending: int
    delivered: int
    dead: int


Webhooks.model_rebuild()
