from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Observations(BaseModel):
    observations: list["ObservationsObservations"]


class ObservationsObservations(BaseModel):
    id: str
    text: str
    kind: Optional[str]
    created_at: Optional[datetime] = Field(alias="createdAt")
    updated_at: Optional[datetime] = Field(alias="updatedAt")
    fact_ids: list[str] = Field(alias="factIds")


Observations.model_rebuild()
