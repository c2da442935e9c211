"""`neighborhood(hops: 1)` walks one hop, not three and then filters, and three hops around hubs
cost their edges, not every path (PROFILE rows, not timings)."""

from __future__ import annotations

from typing import Any

import pytest

from graph.executor import Executor
from graph.memory import browse
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredRelation
from graph.providers import Embedder
from tests.integration.read.test_bfs_bounds import _profile

pytestmark = pytest.mark.neo4j


def _expand_rows(plan: Any) -> int:
    own = int(plan.get("rows", 0)) if "VarLengthExpand" in plan["operatorType"] else 0
    return own + sum(_expand_rows(c) for c in plan.get("children", []))


async def test_one_hop_expands_one_hop(
    executor: Executor, agent_id: str, hash_embedder: Embedder
) -> None:
    inner = [f"Inner {i}" for i in range(5)]
    outer = [f"Outer {i} {j}" for i in range(5) for j in range(5)]
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity(n, "person") for n in ["Centre", *inner, *outer]],
        relations=[StructuredRelation("Centre", n, "knows") for n in inner]
        + [
            StructuredRelation(f"Inner {i}", f"Outer {i} {j}", "knows")
            for i in range(5)
            for j in range(5)
        ],
    )
    one = await browse.neighborhood(executor, agent_id, "person:centre", hops=1)
    two = await browse.neighborhood(executor, agent_id, "person:centre", hops=2)
    assert len(one.nodes) == 1 + 5 and len(two.nodes) == 1 + 5 + 25
    params = {
        "agent_id": agent_id,
        "key": "person:centre",
        "hops": 1,
        "as_of": None,
        "max_nodes": 100,
        "types": None,
    }
    _, plan = await _profile(executor, "browse/neighborhood_nodes", params)
    assert _expand_rows(plan) <= 5  # the five one-hop paths (three hops read 5 + 25 + 5 + …)


def _all_expand_rows(plan: Any) -> int:
    """Rows produced by every expand operator of a plan (var-length or one hop)."""
    own = int(plan.get("rows", 0)) if "Expand" in plan["operatorType"] else 0
    return own + sum(_all_expand_rows(c) for c in plan.get("children", []))


async def test_three_hops_around_hubs_cost_edges_not_paths(
    executor: Executor, agent_id: str, hash_embedder: Embedder
) -> None:
    # Two hubs sharing 40 neighbours: 80 edges, but 40 x 39 three-hop paths from one hub.
    shared = [f"Shared {i}" for i in range(40)]
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity(n, "person") for n in ["Hub A", "Hub B", *shared]],
        relations=[StructuredRelation("Hub A", n, "knows") for n in shared]
        + [StructuredRelation(n, "Hub B", "knows") for n in shared],
    )
    found = await browse.neighborhood(executor, agent_id, "person:hub_a", hops=3, max_nodes=500)
    depths = {n.key: n.depth for n in found.nodes}
    assert depths["person:hub_a"] == 0 and depths["person:hub_b"] == 2
    assert len(depths) == 42 and {depths[f"person:shared_{i}"] for i in range(40)} == {1}
    assert found.nodes[0].key == "person:hub_a"
    first = await browse.neighborhood(executor, agent_id, "person:hub_a", hops=3, max_nodes=5)
    assert [n.depth for n in first.nodes] == [0, 1, 1, 1, 1]  # the centre, then the nearest
    params = {
        "agent_id": agent_id,
        "key": "person:hub_a",
        "hops": 3,
        "as_of": None,
        "max_nodes": 500,
        "types": None,
    }
    _, plan = await _profile(executor, "browse/neighborhood_nodes", params)
    # Breadth first, each level expanding the entities it reached once: a few times the 80
    # edges (the paths through the hubs number 40 + 40 + 1,560).
    assert _all_expand_rows(plan) <= 4 * 80
