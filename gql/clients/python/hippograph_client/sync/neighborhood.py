from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Neighborhood(BaseModel):
    neighborhood: "NeighborhoodNeighborhood"


class NeighborhoodNeighborhood(BaseModel):
    center: str
    nodes: list["NeighborhoodNeighborhoodNodes"]
    edges: list["NeighborhoodNeighborhoodEdges"]


class NeighborhoodNeighborhoodNodes(BaseModel):
    id: str
    label: str
    type_: Optional[str] = Field(alias="type")
    depth: int
    importance: Optional[float]
    mentions: Optional[int]


class NeighborhoodNeighborhoodEdges(BaseModel):
    id: str
    source: str
    target: str
    label: str
    strength: Optional[float]
    valid_from: Optional[datetime] = Field(alias="validFrom")
    valid_to: Optional[datetime] = Field(alias="validTo")


Neighborhood.model_rebuild()
NeighborhoodNeighborhood.model_rebuild()
