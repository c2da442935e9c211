"""An extraction under an operator's ontology: types mapped, inverses turned, ends typed from
the relation, what cannot be mapped dropped with a warning; the built-in one changes nothing."""

from __future__ import annotations

from pathlib import Path

from graph.memory.ontology import BUILTIN, parse_ontology_text
from graph.memory.write.extract.conform import conform
from graph.memory.write.extract.extraction import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
)

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "support-ontology.yaml"
SUPPORT = parse_ontology_text(EXAMPLE.read_text(encoding="utf-8"))


def _answer() -> Extraction:
    return Extraction(
        entities=[
            ExtractedEntity("Maria Souza", "client"),
            ExtractedEntity("X200 headset", "device"),
            ExtractedEntity("Acme", "organization"),
        ],
        facts=[ExtractedFact("Maria Souza bought an X200 headset", "Maria Souza")],
        relations=[
            ExtractedRelation("X200 headset", "Maria Souza", "owned_by"),
            ExtractedRelation("Maria Souza", "TCK-1042", "opened"),
            ExtractedRelation("Maria Souza", "Lisbon", "lives_in"),
            ExtractedRelation("Acme", "X200 headset", "owns"),
            ExtractedRelation("TCK-1042", "X200 headset", "owns"),
            ExtractedRelation("Maria Souza", "Pro plan", "upgraded_to"),
        ],
    )


def test_types_map_and_inverses_turn() -> None:
    warnings: list[str] = []
    out = conform(_answer(), SUPPORT, warnings)
    assert [(e.name, e.type) for e in out.entities] == [
        ("Maria Souza", "customer"),
        ("X200 headset", "product"),
        ("Acme", "customer"),  # it owns something: a customer (people or companies)
        ("TCK-1042", "ticket"),
        ("Pro plan", "subscription"),
    ]
    assert [(r.source, r.type, r.target) for r in out.relations] == [
        ("Maria Souza", "owns", "X200 headset"),
        ("Maria Souza", "reported", "TCK-1042"),
        ("Acme", "owns", "X200 headset"),
        ("Maria Souza", "subscribed_to", "Pro plan"),
    ]
    assert out.facts == _answer().facts


def test_every_mapping_and_drop_is_a_warning() -> None:
    warnings: list[str] = []
    conform(_answer(), SUPPORT, warnings)
    text = "\n".join(warnings)
    assert "'client' is an alias of 'customer'" in text
    assert "'owned_by' is the inverse of 'owns'" in text
    assert "relation type 'lives_in' is not in ontology 'customer-support'; dropped" in text
    assert "TCK-1042 → X200 headset: 'owns' needs a source of type customer, got 'ticket'" in text
    assert "Acme → X200 headset: 'owns': thing refined to customer" in text
    assert "entity type 'organization' is not in ontology" in text


def test_an_untyped_end_takes_the_type_its_relation_asks_for() -> None:
    ex = Extraction(relations=[ExtractedRelation("Maria", "TCK-7", "reported")])
    out = conform(ex, SUPPORT, [])
    assert {(e.name, e.type) for e in out.entities} == {("Maria", "customer"), ("TCK-7", "ticket")}


def test_the_builtin_ontology_changes_nothing() -> None:
    warnings: list[str] = []
    answer = _answer()
    assert conform(answer, BUILTIN, warnings) is answer and warnings == []
