"""Ontologies: the entity and relation types an agent's memory is made of.

``model`` reads an operator's document, ``builtin`` is the open ontology every agent has
without one, ``mapping`` decides which declared type an extracted type is, ``store`` keeps
versions in Neo4j and finds the one in force for an agent, ``check`` says what a change would
affect before it is applied.
"""

from graph.memory.ontology.builtin import BUILTIN
from graph.memory.ontology.model import (
    EntityType,
    Ontology,
    OntologyError,
    RelationType,
    parse_ontology,
    parse_ontology_text,
)

__all__ = [
    "BUILTIN",
    "EntityType",
    "Ontology",
    "OntologyError",
    "RelationType",
    "parse_ontology",
    "parse_ontology_text",
]
