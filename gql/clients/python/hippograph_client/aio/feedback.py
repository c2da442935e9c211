from typing import Optional

from .base_model import BaseModel
from .enums import ErrorCode


class Feedback(BaseModel):
    feedback: "FeedbackFeedback"


class FeedbackFeedback(BaseModel):
    recorded: bool
    labels: int
    rebuilt: bool
    errors: list["FeedbackFeedbackErrors"]


class FeedbackFeedbackErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


Feedback.model_rebuild()
FeedbackFeedback.model_rebuild()
