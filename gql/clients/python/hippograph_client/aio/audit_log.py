from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import WriteAction, WriteMode


class AuditLog(BaseModel):
    audit_log: list["AuditLogAuditLog"] = Field(alias="auditLog")


class AuditLogAuditLog(BaseModel):
    id: str
    created_at: Optional[datetime] = Field(alias="createdAt")
    action: Optional[WriteAction]
    applied: Optional[bool]
    blocked_reason: Optional[str] = Field(alias="blockedReason")
    event_id: Optional[str] = Field(alias="eventId")
    fact_id: Optional[str] = Field(alias="factId")
    target_id: Optional[str] = Field(alias="targetId")
    reason: Optional[str]
    mode: Optional[WriteMode]


AuditLog.model_rebuild()
