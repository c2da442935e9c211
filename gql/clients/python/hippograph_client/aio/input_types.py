from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import FactKind, Ranker


class EntityInput(BaseModel):
    """An entity given directly (no extraction)."""

    name: str
    "Display name."
    type_: str = Field(alias="type", default="thing")
    "Lowercase type (person, city...)."
    aliases: list[str] = Field(default_factory=lambda: [])
    "Other names."
    key: Optional[str] = None
    "Key; default `type:slug(name)`."
    importance: float = 0.5
    "Importance, 0..1."


class FactInput(BaseModel):
    """A fact given directly. Names, aliases or keys refer to entities."""

    text: str
    "The fact as a sentence."
    subject: str
    "Entity it is about (name, alias or key)."
    entities: list[str] = Field(default_factory=lambda: [])
    "Other entities it mentions."
    kind: FactKind = FactKind.FACT
    "Fact kind."
    confidence: float = 0.9
    "Confidence, 0..1."
    importance: float = 0.5
    "Importance, 0..1."
    valid_from: Optional[datetime] = Field(alias="validFrom", default=None)
    "When it became true."
    valid_to: Optional[datetime] = Field(alias="validTo", default=None)
    "When it ended."
    categories: list[str] = Field(default_factory=lambda: [])
    "Topics."


class RelationInput(BaseModel):
    """A relationship between two entities (names, aliases or keys)."""

    source: str
    "Source entity."
    target: str
    "Target entity."
    type_: str = Field(alias="type")
    "Relationship type; normalised to snake_case."
    strength: float = 0.8
    "Strength, 0..1."
    valid_from: Optional[datetime] = Field(alias="validFrom", default=None)
    "When it began."


class RetrieveBoost(BaseModel):
    """Types whose facts `retrieve` lifts: a matching fact's final score is multiplied by 1.5 before the cut; the other facts stay. Unknown types lift nothing."""

    entity_types: Optional[list[str]] = Field(alias="entityTypes", default=None)
    "Facts about an entity of these types, or of their subtypes in the agent's ontology."
    relation_types: Optional[list[str]] = Field(alias="relationTypes", default=None)
    "Facts that state a relationship of these types (the relationship names the fact as its evidence)."


class RetrieveOptions(BaseModel):
    """Per-call overrides of the retrieval settings (all optional)."""

    topk_facts: Optional[int] = Field(alias="topkFacts", default=None)
    "Facts to return (1..500)."
    topk_events: Optional[int] = Field(alias="topkEvents", default=None)
    "Conversation snippets to return (0..200)."
    max_hops: Optional[int] = Field(alias="maxHops", default=None)
    "Graph traversal depth from named entities (0..2)."
    min_score: Optional[float] = Field(alias="minScore", default=None)
    "Drop facts scoring below this."
    enable_reranker: Optional[bool] = Field(alias="enableReranker", default=None)
    "Use the LLM reranker when an LLM is configured."
    ranker: Optional[Ranker] = None
    "How to order the candidates (default `LEARNED`; `FORMULA`: the hand formula)."
