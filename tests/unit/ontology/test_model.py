"""Reading an operator's ontology document: names, references, typed refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.memory.ontology import BUILTIN, OntologyError, parse_ontology, parse_ontology_text

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "support-ontology.yaml"


def test_the_worked_example_reads() -> None:
    onto = parse_ontology_text(EXAMPLE.read_text(encoding="utf-8"))
    assert onto.name == "customer-support" and onto.strict
    assert [t.name for t in onto.entity_types][:2] == ["person", "customer"]
    assert onto.single_valued() == ("subscribed_to",)
    assert [t.name for t in onto.entity_types if t.identifier] == ["ticket"]
    assert list(onto.ancestors("subscription")) == ["subscription", "product", "thing"]
    assert onto.is_a("customer", "person") and not onto.is_a("person", "customer")


def test_names_become_snake_case_and_json_reads_too() -> None:
    onto = parse_ontology_text(
        '{"name": "x", "entity_types": ["Support Agent"], '
        '"relation_types": [{"name": "Works On", "source": "support agent"}]}'
    )
    assert onto.entity_types[0].name == "support_agent"
    assert onto.relation_types[0].name == "works_on"
    assert onto.relation_types[0].source == ("support_agent",)


def test_a_document_round_trips_and_its_digest_ignores_nothing() -> None:
    onto = parse_ontology_text(EXAMPLE.read_text(encoding="utf-8"))
    again = parse_ontology(onto.document())
    assert again == onto and again.digest() == onto.digest()
    changed = parse_ontology({**onto.document(), "strict": False})
    assert changed.digest() != onto.digest()


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ("[1, 2]", "must be a mapping"),
        ("name: x\nentity_types: [{name: a, colour: red}]", "unknown key 'colour'"),
        ("name: x\nentity_types: [{name: a, parent: b}]", "parent 'b' is not declared"),
        (
            "name: x\nentity_types: [{name: a, parent: b}, {name: b, parent: a}]",
            "its parents form a circle",
        ),
        ("name: x\nrelation_types: [{name: r, source: nobody}]", "source type 'nobody'"),
        (
            "name: x\nrelation_types: [{name: r, supersedes: false}]",
            "supersedes applies to single-valued types only",
        ),
        ("name: x\nrelation_types: [{name: r, single_valued: 'yes'}]", "must be true or false"),
        ("name: x\nentity_types: [{name: a, identifier: 1}]", "identifier: must be true or false"),
        ("name: x\nrelation_types: [{name: '123'}]", "not usable as a type name"),
        (
            "name: x\nrelation_types: [{name: r, aliases: [s]}, {name: s}]",
            "'s' is used by 'r' and 's'",
        ),
        (
            "name: x\nrelation_types: [{name: r, inverse: s}, {name: s, inverse: t}, {name: t}]",
            "whose inverse is not 'r'",
        ),
        ("entity_types: []", "name: required"),
        ("name: x\nentity_types: {a: 1}", "entity_types: must be a list"),
        ("name: [unclosed", "not valid YAML"),
    ],
)
def test_bad_documents_are_refused_with_the_problem(document: str, problem: str) -> None:
    with pytest.raises(OntologyError) as caught:
        parse_ontology_text(document)
    assert problem in str(caught.value)
    assert caught.value.problems


def test_every_problem_is_listed_at_once() -> None:
    with pytest.raises(OntologyError) as caught:
        parse_ontology_text("name: x\nentity_types: [{name: a, parent: b, x: 1}]")
    assert len(caught.value.problems) == 2


def test_huge_documents_are_refused_before_parsing() -> None:
    with pytest.raises(OntologyError, match="longer than"):
        parse_ontology_text("name: x\n" + "#" * 300_000)


def test_paired_inverses_may_name_each_other() -> None:
    onto = parse_ontology_text(
        "name: x\nrelation_types: [{name: parent_of, inverse: child_of}, "
        "{name: child_of, inverse: parent_of}]"
    )
    assert {r.name for r in onto.relation_types} == {"parent_of", "child_of"}


def test_the_builtin_ontology_is_open_and_keeps_the_single_valued_relations() -> None:
    assert not BUILTIN.strict and BUILTIN.version == 0
    assert "lives_in" in BUILTIN.single_valued() and "works_at" in BUILTIN.single_valued()
