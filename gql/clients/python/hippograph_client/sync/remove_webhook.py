from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class RemoveWebhook(BaseModel):
    remove_webhook: "RemoveWebhookRemoveWebhook" = Field(alias="removeWebhook")


class RemoveWebhookRemoveWebhook(BaseModel):
    removed: Optional[str]
    deliveries: int
    errors: list["RemoveWebhookRemoveWebhookErrors"]


class RemoveWebhookRemoveWebhookErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


RemoveWebhook.model_rebuild()
RemoveWebhookRemoveWebhook.model_rebuild()
