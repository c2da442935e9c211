from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class DefineOntology(BaseModel):
    define_ontology: "DefineOntologyDefineOntology" = Field(alias="defineOntology")


class DefineOntologyDefineOntology(BaseModel):
    ontology: Optional["DefineOntologyDefineOntologyOntology"]
    version: int
    changed: bool
    changes: list[str]
    findings: list["DefineOntologyDefineOntologyFindings"]
    agents_counted: int = Field(alias="agentsCounted")
    errors: list["DefineOntologyDefineOntologyErrors"]


class DefineOntologyDefineOntologyOntology(BaseModel):
    name: str
    description: str
    version: int
    scope: str
    strict: bool
    entity_types: list["DefineOntologyDefineOntologyOntologyEntityTypes"] = Field(
        alias="entityTypes"
    )
    relation_types: list["DefineOntologyDefineOntologyOntologyRelationTypes"] = Field(
        alias="relationTypes"
    )


class DefineOntologyDefineOntologyOntologyEntityTypes(BaseModel):
    name: str
    description: str
    parent: Optional[str]
    aliases: list[str]
    identifier: bool


class DefineOntologyDefineOntologyOntologyRelationTypes(BaseModel):
    name: str
    description: str
    source: list[str]
    target: list[str]
    single_valued: bool = Field(alias="singleValued")
    supersedes: bool
    inverse: Optional[str]
    aliases: list[str]


class DefineOntologyDefineOntologyFindings(BaseModel):
    kind: str
    type_: str = Field(alias="type")
    count: int
    detail: str
    examples: list[str]


class DefineOntologyDefineOntologyErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


DefineOntology.model_rebuild()
DefineOntologyDefineOntology.model_rebuild()
DefineOntologyDefineOntologyOntology.model_rebuild()
