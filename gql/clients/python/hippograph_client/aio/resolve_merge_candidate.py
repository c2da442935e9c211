from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode, MergeCandidateStatus


class ResolveMergeCandidate(BaseModel):
    resolve_merge_candidate: "ResolveMergeCandidateResolveMergeCandidate" = Field(
        alias="resolveMergeCandidate"
    )


class ResolveMergeCandidateResolveMergeCandidate(BaseModel):
    status: Optional[MergeCandidateStatus]
    merge: Optional["ResolveMergeCandidateResolveMergeCandidateMerge"]
    errors: list["ResolveMergeCandidateResolveMergeCandidateErrors"]


class ResolveMergeCandidateResolveMergeCandidateMerge(BaseModel):
    keep_key: str = Field(alias="keepKey")
    drop_key: str = Field(alias="dropKey")
    aliases_moved: int = Field(alias="aliasesMoved")
    links_moved: int = Field(alias="linksMoved")
    facts_resubjected: int = Field(alias="factsResubjected")
    relationships_moved: int = Field(alias="relationshipsMoved")
    relationships_closed: int = Field(alias="relationshipsClosed")


class ResolveMergeCandidateResolveMergeCandidateErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


ResolveMergeCandidate.model_rebuild()
ResolveMergeCandidateResolveMergeCandidate.model_rebuild()
