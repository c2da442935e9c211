"""How the page-cache warm-up groups agents into statements (``graph.page_cache.batches``)."""

from __future__ import annotations

from graph.page_cache import batches


def test_agents_are_grouped_up_to_the_item_budget_in_order() -> None:
    agents = [("a", 30), ("b", 20), ("c", 10), ("d", 45), ("e", 5)]
    assert batches(agents, 60) == [["a", "b", "c"], ["d", "e"]]


def test_an_agent_larger_than_the_budget_is_a_batch_of_its_own() -> None:
    agents = [("small", 5), ("huge", 500), ("tiny", 1)]
    assert batches(agents, 100) == [["small"], ["huge"], ["tiny"]]


def test_every_agent_is_read_exactly_once() -> None:
    agents = [(f"agent-{i}", i % 7 + 1) for i in range(100)]
    grouped = batches(agents, 12)
    assert [a for group in grouped for a in group] == [a for a, _ in agents]
    assert all(sum(dict(agents)[a] for a in g) <= 12 for g in grouped if len(g) > 1)


def test_no_agents_means_no_statements() -> None:
    assert batches([], 10) == []
