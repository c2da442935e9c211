from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class EraseAgent(BaseModel):
    erase_agent: "EraseAgentEraseAgent" = Field(alias="eraseAgent")


class EraseAgentEraseAgent(BaseModel):
    summary: Optional["EraseAgentEraseAgentSummary"]
    errors: list["EraseAgentEraseAgentErrors"]


class EraseAgentEraseAgentSummary(BaseModel):
    scope: str
    facts: int
    events: int
    documents: int
    entities: int
    relations_deleted: int = Field(alias="relationsDeleted")
    relations_updated: int = Field(alias="relationsUpdated")
    observations: int
    audits_scrubbed: int = Field(alias="auditsScrubbed")
    receipts: int
    jobs: int
    job_contexts: int = Field(alias="jobContexts")
    profiles_cleared: int = Field(alias="profilesCleared")
    nodes: int
    keys_revoked: int = Field(alias="keysRevoked")
    audit_id: Optional[str] = Field(alias="auditId")


class EraseAgentEraseAgentErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


EraseAgent.model_rebuild()
EraseAgentEraseAgent.model_rebuild()
