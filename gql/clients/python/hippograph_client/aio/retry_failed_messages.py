from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class RetryFailedMessages(BaseModel):
    retry_failed_messages: "RetryFailedMessagesRetryFailedMessages" = Field(
        alias="retryFailedMessages"
    )


class RetryFailedMessagesRetryFailedMessages(BaseModel):
    job_ids: list[str] = Field(alias="jobIds")
    errors: list["RetryFailedMessagesRetryFailedMessagesErrors"]


class RetryFailedMessagesRetryFailedMessagesErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


RetryFailedMessages.model_rebuild()
RetryFailedMessagesRetryFailedMessages.model_rebuild()
