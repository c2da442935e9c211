"""The read-path warm-up's pure parts (``graph.memory.read.warmup``): which agents it asks,
and the embedder that answers with stored vectors."""

from __future__ import annotations

import asyncio

from graph.memory.read.warmup import StoredVectors, spread


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
