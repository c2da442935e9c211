from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Health(BaseModel):
    health: "HealthHealth"


class HealthHealth(BaseModel):
    ready: bool
    neo_4_j_version: Optional[str] = Field(alias="neo4jVersion")
    llm_mode: str = Field(alias="llmMode")
    embedder: str


Health.model_rebuild()
