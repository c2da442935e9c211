from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class EraseFact(BaseModel):
    erase_fact: "EraseFactEraseFact" = Field(alias="eraseFact")


class EraseFactEraseFact(BaseModel):
    summary: Optional["EraseFactEraseFactSummary"]
    errors: list["EraseFactEraseFactErrors"]


class EraseFactEraseFactSummary(BaseModel):
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


class EraseFactEraseFactErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


EraseFact.model_rebuild()
EraseFactEraseFact.model_rebuild()
