from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode, RememberSection


class Remember(BaseModel):
    remember: "RememberRemember"


class RememberRemember(BaseModel):
    summary: Optional["RememberRememberSummary"]
    errors: list["RememberRememberErrors"]


class RememberRememberSummary(BaseModel):
    entities_created: int = Field(alias="entitiesCreated")
    facts_added: int = Field(alias="factsAdded")
    facts_unchanged: int = Field(alias="factsUnchanged")
    relations: int
    fact_ids: list[str] = Field(alias="factIds")
    warnings: list[str]
    complete: bool
    error: Optional[str]
    refused: list["RememberRememberSummaryRefused"]


class RememberRememberSummaryRefused(BaseModel):
    section: RememberSection
    index: Optional[int]
    key: Optional[str]
    reason: str


class RememberRememberErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


Remember.model_rebuild()
RememberRemember.model_rebuild()
RememberRememberSummary.model_rebuild()
