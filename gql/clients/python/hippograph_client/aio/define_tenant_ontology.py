from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import ErrorCode


class DefineTenantOntology(BaseModel):
    define_tenant_ontology: "DefineTenantOntologyDefineTenantOntology" = Field(
        alias="defineTenantOntology"
    )


class DefineTenantOntologyDefineTenantOntology(BaseModel):
    ontology: Optional["DefineTenantOntologyDefineTenantOntologyOntology"]
    version: int
    changed: bool
    changes: list[str]
    findings: list["DefineTenantOntologyDefineTenantOntologyFindings"]
    agents_counted: int = Field(alias="agentsCounted")
    errors: list["DefineTenantOntologyDefineTenantOntologyErrors"]


class DefineTenantOntologyDefineTenantOntologyOntology(BaseModel):
    name: str
    description: str
    version: int
    scope: str
    strict: bool
    entity_types: list[
        "DefineTenantOntologyDefineTenantOntologyOntologyEntityTypes"
    ] = Field(alias="entityTypes")
    relation_types: list[
        "DefineTenantOntologyDefineTenantOntologyOntologyRelationTypes"
    ] = Field(alias="relationTypes")


class DefineTenantOntologyDefineTenantOntologyOntologyEntityTypes(BaseModel):
    name: str
    description: str
    parent: Optional[str]
    aliases: list[str]
    identifier: bool


class DefineTenantOntologyDefineTenantOntologyOntologyRelationTypes(BaseModel):
    name: str
    description: str
    source: list[str]
    target: list[str]
    single_valued: bool = Field(alias="singleValued")
    supersedes: bool
    inverse: Optional[str]
    aliases: list[str]


class DefineTenantOntologyDefineTenantOntologyFindings(BaseModel):
    kind: str
    type_: str = Field(alias="type")
    count: int
    detail: str
    examples: list[str]


class DefineTenantOntologyDefineTenantOntologyErrors(BaseModel):
    code: ErrorCode
    message: str
    field: Optional[str]


DefineTenantOntology.model_rebuild()
DefineTenantOntologyDefineTenantOntology.model_rebuild()
DefineTenantOntologyDefineTenantOntologyOntology.model_rebuild()
