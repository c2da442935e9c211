from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Ontology(BaseModel):
    ontology: "OntologyOntology"


class OntologyOntology(BaseModel):
    name: str
    description: str
    version: int
    scope: str
    strict: bool
    entity_types: list["OntologyOntologyEntityTypes"] = Field(alias="entityTypes")
    relation_types: list["OntologyOntologyRelationTypes"] = Field(alias="relationTypes")


class OntologyOntologyEntityTypes(BaseModel):
    name: str
    description: str
    parent: Optional[str]
    aliases: list[str]
    identifier: bool


class OntologyOntologyRelationTypes(BaseModel):
    name: str
    description: str
    source: list[str]
    target: list[str]
    single_valued: bool = Field(alias="singleValued")
    supersedes: bool
    inverse: Optional[str]
    aliases: list[str]


Ontology.model_rebuild()
OntologyOntology.model_rebuild()
