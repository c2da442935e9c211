from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class MergeEntities(BaseModel):
    merge_entities: "MergeEntitiesMergeEntities" = Field(alias="mergeEntities")


class MergeEntitiesMergeEntities(BaseModel):
    merge: Optional["MergeEntitiesMergeEntitiesMerge"]
    errors: list["MergeEntitiesMergeEntitiesErrors"]


class MergeEntitiesMergeEntitiesMerge(BaseModel):
    keep_key: str = Field(alias="keepKey")
    drop_key: str = Field(alias="dropKey")
    aliases_moved: int = Field(alias="aliasesMoved")
    links_moved: int = Field(alias="linksMoved")
    facts_resubjected: int = Field(alias="factsResubjected")
    relationships_moved: int = Field(alias="relationshipsMoved")
    relationships_closed: int = Field(alias="relationshipsClosed")


class MergeEntitiesMergeEntitiesErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


MergeEntities.model_rebuild()
MergeEntitiesMergeEntities.model_rebuild()
