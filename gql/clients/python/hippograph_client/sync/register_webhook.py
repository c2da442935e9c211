from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode, WebhookEvent, WebhookScope


class RegisterWebhook(BaseModel):
    register_webhook: "RegisterWebhookRegisterWebhook" = Field(alias="registerWebhook")


class RegisterWebhookRegisterWebhook(BaseModel):
    webhook: Optional["RegisterWebhookRegisterWebhookWebhook"]
    secret: Optional[str]
    errors: list["RegisterWebhookRegisterWebhookErrors"]


class RegisterWebhookRegisterWebhookWebhook(BaseModel):
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


class RegisterWebhookRegisterWebhookErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


RegisterWebhook.model_rebuild()
RegisterWebhookRegisterWebhook.model_rebuild()
