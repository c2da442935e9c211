from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode, WriteAction, WriteMode


class Write(BaseModel):
    write: "WriteWrite"


class WriteWrite(BaseModel):
    outcome: Optional["WriteWriteOutcome"]
    queued: Optional["WriteWriteQueued"]
    errors: list["WriteWriteErrors"]


class WriteWriteOutcome(BaseModel):
    success: bool
    error: Optional[str]
    event_id: Optional[str] = Field(alias="eventId")
    facts_added: list["WriteWriteOutcomeFactsAdded"] = Field(alias="factsAdded")
    facts_updated: list["WriteWriteOutcomeFactsUpdated"] = Field(alias="factsUpdated")
    facts_unchanged: list["WriteWriteOutcomeFactsUnchanged"] = Field(
        alias="factsUnchanged"
    )
    facts_deleted: list["WriteWriteOutcomeFactsDeleted"] = Field(alias="factsDeleted")
    entities: list[str]
    warnings: list[str]
    llm_calls: int = Field(alias="llmCalls")
    tokens_used: int = Field(alias="tokensUsed")
    mode: WriteMode
    dry_run: bool = Field(alias="dryRun")
    duration_ms: float = Field(alias="durationMs")


class WriteWriteOutcomeFactsAdded(BaseModel):
    id: str
    text: str
    subject_key: str = Field(alias="subjectKey")
    action: WriteAction
    target_id: Optional[str] = Field(alias="targetId")
    reason: Optional[str]
    review_needed: bool = Field(alias="reviewNeeded")


class WriteWriteOutcomeFactsUpdated(BaseModel):
    id: str
    text: str
    subject_key: str = Field(alias="subjectKey")
    action: WriteAction
    target_id: Optional[str] = Field(alias="targetId")
    reason: Optional[str]
    review_needed: bool = Field(alias="reviewNeeded")


class WriteWriteOutcomeFactsUnchanged(BaseModel):
    id: str
    text: str
    subject_key: str = Field(alias="subjectKey")
    action: WriteAction
    target_id: Optional[str] = Field(alias="targetId")
    reason: Optional[str]
    review_needed: bool = Field(alias="reviewNeeded")


class WriteWriteOutcomeFactsDeleted(BaseModel):
    id: str
    text: str
    subject_key: str = Field(alias="subjectKey")
    action: WriteAction
    target_id: Optional[str] = Field(alias="targetId")
    reason: Optional[str]
    review_needed: bool = Field(alias="reviewNeeded")


class WriteWriteQueued(BaseModel):
    event_id: Optional[str] = Field(alias="eventId")
    job_id: Optional[str] = Field(alias="jobId")
    created: bool
    warnings: list[str]


class WriteWriteErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


Write.model_rebuild()
WriteWrite.model_rebuild()
WriteWriteOutcome.model_rebuild()
