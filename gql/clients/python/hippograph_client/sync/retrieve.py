from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ContextTier, FactKind, Ranker, RetrievalSignal, RetrievalStrategy


class Retrieve(BaseModel):
    retrieve: "RetrieveRetrieve"


class RetrieveRetrieve(BaseModel):
    context: str
    context_tokens: int = Field(alias="contextTokens")
    facts: list["RetrieveRetrieveFacts"]
    events: list["RetrieveRetrieveEvents"]
    observations: list["RetrieveRetrieveObservations"]
    plan: "RetrieveRetrievePlan"
    total_candidates: int = Field(alias="totalCandidates")
    duration_ms: float = Field(alias="durationMs")
    retrieve_id: str = Field(alias="retrieveId")


class RetrieveRetrieveFacts(BaseModel):
    id: str
    text: str
    subject_key: Optional[str] = Field(alias="subjectKey")
    kind: Optional[FactKind]
    confidence: float
    created_at: Optional[datetime] = Field(alias="createdAt")
    valid_from: Optional[datetime] = Field(alias="validFrom")
    sources: list[RetrievalSignal]
    hops: Optional[int]
    tier: Optional[ContextTier]
    score: float
    scores: "RetrieveRetrieveFactsScores"
    hop_path: Optional[list["RetrieveRetrieveFactsHopPath"]] = Field(alias="hopPath")


class RetrieveRetrieveFactsScores(BaseModel):
    semantic: float
    keyword: float
    graph: float
    recency: float
    importance: float
    reranker: Optional[float]
    formula: float
    final: float
    ranker: Ranker
    explanation: Optional["RetrieveRetrieveFactsScoresExplanation"]


class RetrieveRetrieveFactsScoresExplanation(BaseModel):
    model: str
    version: int
    raw: float
    bias: float


class RetrieveRetrieveFactsHopPath(BaseModel):
    key: str
    name: Optional[str]
    via: Optional[str]
    forward: bool


class RetrieveRetrieveEvents(BaseModel):
    id: str
    text: str
    speaker: Optional[str]
    occurred_at: Optional[datetime] = Field(alias="occurredAt")
    score: float
    superseded: bool


class RetrieveRetrieveObservations(BaseModel):
    id: str
    text: str
    kind: Optional[str]


class RetrieveRetrievePlan(BaseModel):
    strategy: RetrievalStrategy
    reason: str
    entities: list[str]
    keywords: list[str]


Retrieve.model_rebuild()
RetrieveRetrieve.model_rebuild()
RetrieveRetrieveFacts.model_rebuild()
RetrieveRetrieveFactsScores.model_rebuild()
