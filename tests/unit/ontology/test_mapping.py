"""Which declared type an extracted type is: names, inverses, aliases, stems, spelling, ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.memory.ontology import BUILTIN, parse_ontology_text
from graph.memory.ontology.mapping import fit_ends, map_entity_type, map_relation_type, stem

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "support-ontology.yaml"
SUPPORT = parse_ontology_text(EXAMPLE.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("raw", "expected", "turned"),
    [
        ("owns", "owns", False),
        ("owned", "owns", False),  # the offline extractor's simple past: same stem
        ("owned_by", "owns", True),  # the declared inverse: stored turned around
        ("bought", "owns", False),  # an alias (the editable table)
        ("opened", "reported", False),
        ("subscribed_to", "subscribed_to", False),
        ("subscribes_to", "subscribed_to", False),
        ("reportd", "reported", False),  # a misspelling
        ("lives_in", None, False),  # not in this domain: dropped
        ("purchase_price", None, False),
    ],
)
def test_relation_types_map_onto_the_declared_ones(
    raw: str, expected: str | None, turned: bool
) -> None:
    decision = map_relation_type(SUPPORT, raw)
    assert decision.type == expected and decision.turned is turned
    assert bool(decision.reason) is (raw != expected)


def test_a_dropped_relation_says_why() -> None:
    assert "not in ontology 'customer-support'" in map_relation_type(SUPPORT, "lives_in").reason


@pytest.mark.parametrize(
    ("raw", "name", "expected"),
    [
        ("customer", "Maria Souza", "customer"),
        ("client", "Maria Souza", "customer"),  # an alias
        ("thing", "the Pro plan", "subscription"),  # a word of its name names a type
        ("thing", "ticket TCK-1042", "ticket"),
        ("organization", "Acme Ltd", "thing"),  # not in this domain: the root
        ("thing", "Acme Ltd", "thing"),
        ("tickets", "TCK-7", "ticket"),  # the same stem
    ],
)
def test_entity_types_map_onto_the_declared_ones(raw: str, name: str, expected: str) -> None:
    assert map_entity_type(SUPPORT, raw, name).type == expected


def test_the_open_builtin_ontology_keeps_every_type() -> None:
    assert map_relation_type(BUILTIN, "played_for").type == "played_for"
    assert map_entity_type(BUILTIN, "spaceship", "Enterprise").type == "spaceship"
    assert map_entity_type(BUILTIN, "thing", "the Pro plan").type == "thing"


def test_ends_fit_by_ancestry_and_untyped_ends_are_refined() -> None:
    assert fit_ends(SUPPORT, "owns", "customer", "subscription").ok  # a plan is a product
    person = fit_ends(SUPPORT, "owns", "person", "product")
    assert person.ok and person.source == "customer" and "refined" in person.reason
    assert fit_ends(SUPPORT, "owns", "thing", "thing").source == "customer"
    wrong = fit_ends(SUPPORT, "owns", "ticket", "product")
    assert not wrong.ok and "needs a source of type customer" in wrong.reason
    assert fit_ends(SUPPORT, "undeclared", "a", "b").ok


def test_stems_meet_the_forms_of_a_verb() -> None:
    assert stem("owned") == stem("owns") == stem("own")
    assert stem("bought") == stem("buy")
    assert stem("subscribed_to") == stem("subscribes_to")
    assert stem("reported") == stem("reports")
    assert stem("stopped") == stem("stops")
