from datetime import datetime
from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Entities(BaseModel):
    entities: "EntitiesEntities"


class EntitiesEntities(BaseModel):
    edges: list["EntitiesEntitiesEdges"]
    page_info: "EntitiesEntitiesPageInfo" = Field(alias="pageInfo")
    total_count: Optional[int] = Field(alias="totalCount")


class EntitiesEntitiesEdges(BaseModel):
    node: "EntitiesEntitiesEdgesNode"
    cursor: str


class EntitiesEntitiesEdgesNode(BaseModel):
    key: str
    name: Optional[str]
    type_: Optional[str] = Field(alias="type")
    mentions: Optional[int]
    importance: Optional[float]
    source: Optional[str]
    created_at: Optional[datetime] = Field(alias="createdAt")
    updated_at: Optional[datetime] = Field(alias="updatedAt")
    merged_into: Optional[str] = Field(alias="mergedInto")
    profile: "EntitiesEntitiesEdgesNodeProfile"
    aliases: list[str]


class EntitiesEntitiesEdgesNodeProfile(BaseModel):
    text: Optional[str]
    summary: Optional[str]
    refreshed_at: Optional[datetime] = Field(alias="refreshedAt")


class EntitiesEntitiesPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


Entities.model_rebuild()
EntitiesEntities.model_rebuild()
EntitiesEntitiesEdges.model_rebuild()
EntitiesEntitiesEdgesNode.model_rebuild()
