from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class RunJob(BaseModel):
    run_job: "RunJobRunJob" = Field(alias="runJob")


class RunJobRunJob(BaseModel):
    job_id: Optional[str] = Field(alias="jobId")
    created: bool
    errors: list["RunJobRunJobErrors"]


class RunJobRunJobErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


RunJob.model_rebuild()
RunJobRunJob.model_rebuild()
