"""The read-path warm-up's pure parts (``graph.memory.read.warmup``): which agents it asks,
the embedder that answers with stored vectors, and the planner catalog's shapes it plans."""

from __future__ import annotations

import asyncio

from graph.memory.read.planner import LookupTerms, lookup_terms
from graph.memory.read.warmup import (
    CATALOG_SHAPES,
    WARMUP_AGENTS,
    StoredVectors,
    by_id_size,
    size_bucket,
    spread,
)


def test_spread_takes_the_largest_and_the_smallest_and_evenly_between() -> None:
    agents = [(f"a{i:02d}", i) for i in range(1, 11)]  # a10 is the largest, a01 the smallest
    picked = spread(agents, 4)
    assert picked[0] == "a10" and picked[-1] == "a01" and len(picked) == 4
    assert len(set(picked)) == 4


def test_spread_asks_everyone_when_there_are_few_agents() -> None:
    agents = [("b", 5), ("a", 5), ("c", 9)]
    assert spread(agents, 10) == ["c", "a", "b"]  # by size, then by id
    assert spread(agents, 1) == ["c"]
    assert spread(agents, 0) == [] and spread([], 5) == []


def test_stored_vectors_answer_each_question_with_its_facts_vector() -> None:
    embedder = StoredVectors("minilm", 2, {"Ana lives in Lisbon": [0.6, 0.8], "x": [1.0, 0.0]})
    got = asyncio.run(embedder.embed(["x", "Ana lives in Lisbon"]))
    assert got == [[1.0, 0.0], [0.6, 0.8]]


def test_size_buckets_are_powers_of_ten() -> None:
    assert [size_bucket(n) for n in (0, 1, 2, 10, 11, 100, 101)] == [0, 1, 10, 10, 100, 100, 1000]


def test_the_catalog_shapes_cover_questions_of_one_to_forty_words() -> None:
    words = [
        "where",
        "did",
        "Ana",
        "Souza",
        "say",
        "she",
        "worked",
        "at",
        "Acme",
        "in",
        "Curitiba",
        "before",
        "moving",
    ]
    planned = set()
    for grams, prefixes in CATALOG_SHAPES:
        terms = LookupTerms(
            tuple(map(str, range(grams))),
            tuple((str(i), str(i)) for i in range(grams)),
            tuple(map(str, range(prefixes))),
        ).params()
        planned.add(tuple(size_bucket(len(terms[k])) for k in ("norms", "slugs", "prefixes")))
    assert len(planned) == len(CATALOG_SHAPES) == 4  # padded to two: four shapes, not 11
    for n in range(1, 41):
        question = " ".join(words[i % len(words)] + str(i // len(words)) for i in range(n))
        terms = lookup_terms(question).params()
        shape = tuple(size_bucket(len(terms[k])) for k in ("norms", "slugs", "prefixes"))
        assert shape in planned, f"{n} words: {shape} is not planned"


def test_the_largest_agent_of_each_id_size_is_picked() -> None:
    agents = [("demo", 40), ("quickstart", 90), ("a" * 36, 500), ("b" * 20, 7), ("c", 3)]
    # ids of 2-10 characters, 11-100 and 1 are three buckets: the largest of each, largest first
    assert by_id_size(agents) == ["a" * 36, "quickstart", "c"]
    assert by_id_size([]) == []


def test_the_warm_up_agents_cover_both_usual_id_sizes() -> None:
    assert {size_bucket(len(a)) for a in WARMUP_AGENTS} == {10, 100}
