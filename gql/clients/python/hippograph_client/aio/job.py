from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import JobErrorCode, JobKind, JobStatus


class Job(BaseModel):
    job: Optional["JobJob"]


class JobJob(BaseModel):
    id: str
    kind: Optional[JobKind]
    subject: Optional[str]
    status: Optional[JobStatus]
    attempts: Optional[int]
    max_attempts: Optional[int] = Field(alias="maxAttempts")
    progress: Optional[float]
    last_error: Optional[str] = Field(alias="lastError")
    last_error_code: Optional[JobErrorCode] = Field(alias="lastErrorCode")
    run_after: Optional[datetime] = Field(alias="runAfter")
    created_at: Optional[datetime] = Field(alias="createdAt")
    finished_at: Optional[datetime] = Field(alias="finishedAt")


Job.model_rebuild()
