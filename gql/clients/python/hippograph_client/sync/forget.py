from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class Forget(BaseModel):
    forget: "ForgetForget"


class ForgetForget(BaseModel):
    fact_id: Optional[str] = Field(alias="factId")
    invalidated_relationships: list[str] = Field(alias="invalidatedRelationships")
    errors: list["ForgetForgetErrors"]


class ForgetForgetErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


Forget.model_rebuild()
ForgetForget.model_rebuild()
