"""The built-in ontology: what every agent without an operator's ontology uses.

It is open (``strict=False``): the extraction's types are kept as they come, so an agent
behaves exactly as it did before ontologies existed. What it declares is what the rest of the
pipeline already relied on: the entity types the extractors give, and the relation types a
subject holds one of (a new target supersedes the old one: someone lives in one place).
"""

from __future__ import annotations

from graph.memory.ontology.model import EntityType, Ontology, RelationType

__all__ = ["BUILTIN", "SINGLE_VALUED_RELATIONS"]

# A subject holds at most one active target for these: a new value supersedes the old one.
SINGLE_VALUED_RELATIONS: tuple[str, ...] = (
    "lives_in",
    "works_at",
    "spouse_of",
    "married_to",
    "employed_by",
    "based_in",
    "born_in",
    "ceo_of",
    "reports_to",
    "located_in",
    "dating",
)

_ENTITY_TYPES = (
    EntityType("person", "A human being, named or addressed."),
    EntityType("organization", "A company, institution, team or group acting as one."),
    EntityType("place", "A city, country, address, venue or region."),
    EntityType("product", "A thing made or sold: a device, a plan, an app, a book."),
    EntityType("event", "Something that happens at a time: a meeting, a trip, a party."),
    EntityType("concept", "An idea, topic, skill or field."),
    EntityType("pet", "An animal someone keeps."),
    EntityType("date", "A day, month, year or time."),
)

BUILTIN = Ontology(
    name="built-in",
    description="Open vocabulary: the extraction's types are kept as they come.",
    entity_types=_ENTITY_TYPES,
    relation_types=tuple(
        RelationType(name, single_valued=True) for name in SINGLE_VALUED_RELATIONS
    ),
    strict=False,
    scope="builtin",
)
