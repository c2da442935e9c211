"""The deterministic planner: greeting skip, aggregation, broad, entity resolution."""

from __future__ import annotations

import pytest

from graph.memory.read import planner
from graph.memory.read.planner import CatalogRow, agent_lucene


@pytest.mark.parametrize(
    "query",
    [
        "hi",
        "Hi!",
        "hello there",
        "bom dia",
        "Bom dia!!",
        "obrigado",
        "Obrigada :)",
        "oi",
        "boa noite",
        "thanks",
        "thank you",
        "ok",
        "tchau",
        "valeu",
        "Olá",
        "   ",
    ],
)
def test_greetings_and_small_talk_skip(query: str) -> None:
    plan = planner.casual_plan(query)
    assert plan is not None and plan.skip


@pytest.mark.parametrize(
    "query",
    [
        "Onde o Marcos Tavares mora?",
        "hi, where does Ana live?",
        "bom dia, qual o meu projeto?",
        "thanks for telling me about Porto Alegre",
        "who are my friends",
    ],
)
def test_real_questions_do_not_skip(query: str) -> None:
    assert planner.casual_plan(query) is None


def test_lookup_terms_fold_accents_and_skip_stopword_edges() -> None:
    terms = planner.lookup_terms("Onde o Marcão Tavares mora?")
    assert "marcao tavares" in terms.norms
    assert "o marcao" not in terms.norms  # starts with a stopword
    assert ("marcao_tavares", "marcao tavares") in terms.slugs
    assert "marcao" in terms.prefixes


def _rows() -> list[CatalogRow]:
    return [
        CatalogRow("person:marcos_tavares", "Marcos Tavares", "person", "slug", "marcos tavares"),
        CatalogRow("person:marcos_silva", "Marcos Silva", "person", "prefix", "marcos"),
        CatalogRow("person:marcos_tavares", "Marcos Tavares", "person", "prefix", "marcos"),
    ]


def test_marcos_tavares_resolves_deterministically() -> None:
    query = "Onde o Marcos Tavares mora?"
    first = planner.build_plan(query, ["person", "place"], _rows())
    again = planner.build_plan(query, ["place", "person"], list(reversed(_rows())))
    assert [e.key for e in first.entities] == ["person:marcos_tavares"]
    assert first == again
    assert first.strategy == "multi_signal" and first.reason == "deterministic"
    assert first.similarity_query == query
    assert first.keywords == ("marcos", "tavares", "mora")


def test_ambiguous_first_name_prefix_is_dropped() -> None:
    rows = [
        CatalogRow("person:ana_lima", "Ana Lima", "person", "prefix", "ana"),
        CatalogRow("person:ana_souza", "Ana Souza", "person", "prefix", "ana"),
    ]
    assert planner.build_plan("where does Ana live", ["person"], rows).entities == ()
    unique = planner.build_plan("where does Ana live", ["person"], rows[:1])
    assert [e.key for e in unique.entities] == ["person:ana_lima"]


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        ((12, 1), ["person:ana_lima"]),  # a misspelt copy with one fact: Ana is Ana Lima
        ((1, 12), ["person:ana_souza"]),
        ((3, 1), ["person:ana_lima"]),  # exactly PREFIX_DOMINANCE times
        ((5, 2), []),  # comparable: still ambiguous
        ((0, 0), []),
    ],
)
def test_a_shared_prefix_goes_to_the_entity_with_clearly_the_most_facts(
    facts: tuple[int, int], expected: list[str]
) -> None:
    rows = [
        CatalogRow("person:ana_lima", "Ana Lima", "person", "prefix", "ana", facts[0]),
        CatalogRow("person:ana_souza", "Ana Souza", "person", "prefix", "ana", facts[1]),
    ]
    plan = planner.build_plan("where does Ana live", ["person"], rows)
    assert [e.key for e in plan.entities] == expected


@pytest.mark.parametrize(
    ("query", "types", "expected"),
    [
        ("who are my friends?", ["person", "project"], ("person",)),
        ("list my projects", ["person", "project"], ("project",)),
        ("quais são meus projetos?", ["project"], ("project",)),
        ("list my projects", ["person"], ()),  # type absent for this agent → no aggregation
        ("list my recipes", ["recipe"], ("recipe",)),
    ],
)
def test_aggregation_only_for_existing_types(
    query: str, types: list[str], expected: tuple[str, ...]
) -> None:
    plan = planner.build_plan(query, types, [])
    assert plan.pattern_types == expected
    assert plan.reason == ("aggregation" if expected else "deterministic")


@pytest.mark.parametrize(
    "query",
    [
        "tell me everything about Vertix",
        "What do you know about Clara?",
        "me conta tudo sobre a Vertix",
        "o que você sabe sobre o Bruno?",
    ],
)
def test_broad_queries(query: str) -> None:
    plan = planner.build_plan(query, [], [])
    assert plan.broad_query and plan.reason == "broad"


def test_expansion_adds_neighbours_once_in_order() -> None:
    plan = planner.build_plan("Onde o Marcos Tavares mora?", ["person"], _rows()[:1])
    neighbours = [
        {"key": "place:porto_alegre", "name": "Porto Alegre", "type": "place", "strength": 0.8},
        {"key": "person:carolina", "name": "Carolina", "type": "person", "strength": 1.0},
        {"key": "person:marcos_tavares", "name": "Marcos", "type": "person", "strength": 1.0},
    ]
    expanded = planner.expand_plan(plan, neighbours)
    assert [e.key for e in expanded.entities] == [
        "person:marcos_tavares",
        "person:carolina",
        "place:porto_alegre",
    ]
    assert [e.named for e in expanded.entities] == [True, False, False]
    assert expanded.seed_entities()[0] == {"key": "person:marcos_tavares", "named": True}


def test_lucene_query_escapes_syntax() -> None:
    q = planner.lucene_query(["c++", "são", "a:b"], prefix=0)
    assert q == "c\\+\\+ OR c OR são OR sao OR a\\:b OR a OR b"
    assert planner.lucene_query([]) == ""


def test_lucene_query_cuts_each_word_to_its_first_five_characters() -> None:
    q = planner.lucene_query(["Precipitação", "Lisboa", "mora", "a+b:cdef"])
    assert q == "preci OR lisbo OR mora OR a\\+b\\:c"
    assert planner.lucene_query(["Precipitação"], prefix=0) == "Precipitação OR precipitacao"


def test_agent_lucene_limits_the_words_to_terms_and_the_agent_by_a_zero_weight_phrase() -> None:
    assert (
        agent_lucene("kafka OR migration", "team-a:bot_7")
        == 'terms:(kafka OR migration) AND agent_id:"team-a:bot_7"^0'
    )
    # quotes and backslashes of an id cannot end the phrase early
    assert agent_lucene("x", 'a"b\\c') == 'terms:(x) AND agent_id:"a\\"b\\\\c"^0'
    assert agent_lucene("", "team-a") == ""  # keyword signal off stays off
    assert agent_lucene("x", "---") == "terms:(x)"  # no token to match: the words alone
