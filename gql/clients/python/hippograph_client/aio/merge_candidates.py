from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import MergeCandidateStatus


class MergeCandidates(BaseModel):
    merge_candidates: list["MergeCandidatesMergeCandidates"] = Field(
        alias="mergeCandidates"
    )


class MergeCandidatesMergeCandidates(BaseModel):
    id: str
    keep_key: str = Field(alias="keepKey")
    keep_name: Optional[str] = Field(alias="keepName")
    drop_key: str = Field(alias="dropKey")
    drop_name: Optional[str] = Field(alias="dropName")
    confidence: Optional[float]
    reason: Optional[str]
    status: Optional[MergeCandidateStatus]
    created_at: Optional[datetime] = Field(alias="createdAt")


MergeCandidates.model_rebuild()
