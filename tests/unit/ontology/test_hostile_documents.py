"""Ontology documents built to hold the process: YAML aliases that repeat one big entity type
thousands of times, lists far over the limits, thousands of problems. Each is refused with the
typed error, and the work spent on it is bounded (counted in items walked, not in time)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from graph.errors import BadInput
from graph.memory.ontology import OntologyError, model, parse_ontology, parse_ontology_text

# Far more than any refusal needs (the largest valid document walks about 80,000 names).
WALK_LIMIT = 1_000


def alias_bomb(repeats: int = 30_000, aliases: int = 1_500) -> str:
    """One anchored entity type carrying ``aliases`` aliases, then ``repeats`` references to it
    (about 130 KB: under the size limit, yet ``repeats * aliases`` names once expanded)."""
    names = ", ".join(f"a{i}" for i in range(aliases))
    refs = ", ".join(["*t"] * repeats)
    return f"name: bomb\nentity_types: [&t {{name: t, aliases: [{names}]}}, {refs}]\n"


@pytest.fixture
def walked(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How many entity and relation items and type names the validation walked; past
    ``WALK_LIMIT`` the walk is stopped (so a document that would walk for minutes fails
    the test at once)."""
    counts = {"items": 0, "names": 0}

    def counting(kind: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            counts[kind] += 1
            assert counts[kind] <= WALK_LIMIT, f"walked more than {WALK_LIMIT} {kind}"
            return fn(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(model, "_parse_entity", counting("items", model._parse_entity))
    monkeypatch.setattr(model, "_parse_relation", counting("items", model._parse_relation))
    monkeypatch.setattr(model, "_type_name", counting("names", model._type_name))
    yield counts


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (alias_bomb(), "a list of more than"),  # 30,000 references: refused as it is read
        (alias_bomb(repeats=200, aliases=400), "aliases"),  # every list within its limit
    ],
)
def test_yaml_alias_bombs_are_refused_before_anything_is_walked(
    text: str, reason: str, walked: dict[str, int]
) -> None:
    assert len(text) < model.MAX_DOCUMENT_CHARS
    with pytest.raises(OntologyError) as refused:
        parse_ontology_text(text)
    assert isinstance(refused.value, BadInput)  # GraphQL BAD_INPUT
    assert reason in str(refused.value)
    assert walked == {"items": 0, "names": 0}


@pytest.mark.parametrize(
    "document",
    [
        "name: x\nentity_types: [&a {name: a}, *a]",
        "name: x\nrelation_types: [{name: r, source: &people [person]}, {name: s, source: *people}]",
        "name: x\nentity_types: [&l [*l]]",  # an alias of itself
        "base: &b {description: d}\nname: x\nentity_types: [{<<: *b, name: a}]",  # a merge key
    ],
)
def test_every_alias_is_refused(document: str, walked: dict[str, int]) -> None:
    with pytest.raises(OntologyError, match="alias"):
        parse_ontology_text(document)
    assert walked["items"] == 0


def test_a_list_over_its_limit_is_refused_without_walking_its_items(
    walked: dict[str, int],
) -> None:
    many = ", ".join(f"t{i}" for i in range(20_000))
    with pytest.raises(OntologyError, match=f"a list of more than {model.MAX_LIST_ITEMS} items"):
        parse_ontology_text(f"name: x\nentity_types: [{many}]")  # refused as it is read
    keys = ", ".join(f"k{i}: 1" for i in range(20_000))
    with pytest.raises(OntologyError, match=f"more than {model.MAX_MAPPING_KEYS} keys"):
        parse_ontology_text(f"name: x\nentity_types: [{{{keys}}}]")
    names = json.dumps([f"t{i}" for i in range(20_000)])
    with pytest.raises(OntologyError, match=f"entity_types: more than {model.MAX_ENTITY_TYPES}"):
        parse_ontology_text(f'{{"name": "x", "entity_types": {names}}}')  # JSON: read whole
    assert walked["items"] == 0
    with pytest.raises(OntologyError, match=f"more than {model.MAX_RELATION_TYPES}"):
        parse_ontology({"name": "x", "relation_types": [{"name": "r"}] * 20_000})
    assert walked["items"] == 0
    with pytest.raises(OntologyError, match=f"more than {model.MAX_ALIASES} names"):
        parse_ontology({"name": "x", "entity_types": [{"name": "a", "aliases": ["b"] * 20_000}]})
    assert walked["names"] == 1  # the type's own name, none of its aliases


def test_the_problems_found_are_bounded_and_end_the_walk(walked: dict[str, int]) -> None:
    bad = [{"name": f"t{i}", "aliases": ["1"] * model.MAX_ALIASES} for i in range(150)]
    with pytest.raises(OntologyError) as refused:
        parse_ontology({"name": "x", "entity_types": bad})
    assert len(refused.value.problems) <= model.MAX_PROBLEMS + 1
    assert "stopped" in refused.value.problems[-1]
    assert walked["names"] <= model.MAX_PROBLEMS + 2 * model.MAX_ALIASES


def test_a_document_at_the_limits_still_reads() -> None:
    entities = [
        {"name": f"t{i}", "aliases": [f"t{i}_{j}" for j in range(model.MAX_ALIASES)]}
        for i in range(model.MAX_ENTITY_TYPES)
    ]
    relations = [{"name": f"r{i}", "source": "t0", "target": "t1"} for i in range(100)]
    onto = parse_ontology({"name": "x", "entity_types": entities, "relation_types": relations})
    assert len(onto.entity_types) == model.MAX_ENTITY_TYPES
    assert len(onto.entity_types[-1].aliases) == model.MAX_ALIASES
