from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import FactKind, RelationshipDirection


class FactHistory(BaseModel):
    fact_history: list["FactHistoryFactHistory"] = Field(alias="factHistory")


class FactHistoryFactHistory(BaseModel):
    id: str
    text: str
    subject_key: Optional[str] = Field(alias="subjectKey")
    kind: Optional[FactKind]
    confidence: Optional[float]
    importance: Optional[float]
    importance_category: Optional[str] = Field(alias="importanceCategory")
    temporal_class: Optional[str] = Field(alias="temporalClass")
    categories: list[str]
    language: Optional[str]
    speaker: Optional[str]
    valid_from: Optional[datetime] = Field(alias="validFrom")
    valid_to: Optional[datetime] = Field(alias="validTo")
    valid_until: Optional[datetime] = Field(alias="validUntil")
    invalidated_at: Optional[datetime] = Field(alias="invalidatedAt")
    created_at: Optional[datetime] = Field(alias="createdAt")
    last_confirmed_at: Optional[datetime] = Field(alias="lastConfirmedAt")
    reinforcement_count: Optional[int] = Field(alias="reinforcementCount")
    review_needed: bool = Field(alias="reviewNeeded")
    primary: Optional[bool]
    supersedes: list[str]
    active: bool
    evidence: list["FactHistoryFactHistoryEvidence"]
    cascades: list["FactHistoryFactHistoryCascades"]


class FactHistoryFactHistoryEvidence(BaseModel):
    id: str
    text: str
    speaker: Optional[str]
    occurred_at: Optional[datetime] = Field(alias="occurredAt")
    ingested_at: Optional[datetime] = Field(alias="ingestedAt")
    thread_id: Optional[str] = Field(alias="threadId")
    source: Optional[str]
    emotion: Optional[str]
    intensity: Optional[float]


class FactHistoryFactHistoryCascades(BaseModel):
    id: Optional[str]
    type_: str = Field(alias="type")
    source_key: str = Field(alias="sourceKey")
    source_name: Optional[str] = Field(alias="sourceName")
    target_key: str = Field(alias="targetKey")
    target_name: Optional[str] = Field(alias="targetName")
    direction: RelationshipDirection
    other_key: str = Field(alias="otherKey")
    other_name: Optional[str] = Field(alias="otherName")
    strength: Optional[float]
    mentions: Optional[int]
    confidence: Optional[float]
    valid_from: Optional[datetime] = Field(alias="validFrom")
    valid_to: Optional[datetime] = Field(alias="validTo")
    invalidated_at: Optional[datetime] = Field(alias="invalidatedAt")
    evidence_fact_id: Optional[str] = Field(alias="evidenceFactId")
    created_at: Optional[datetime] = Field(alias="createdAt")
    active: bool


FactHistory.model_rebuild()
FactHistoryFactHistory.model_rebuild()
