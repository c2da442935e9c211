"""`neighborhood(hops: 1)` walks one hop, not three and then filters (PROFILE rows, not
timings): a centre with 5 neighbours that have 5 neighbours each."""

from __future__ import annotations

from typing import Any

import pytest

from graph.executor import Executor
from graph.memory import browse
from graph.memory.write import StructuredEntity, StructuredRelation
from graph.memory.write.remember import remember
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
    }
    _, plan = await _profile(executor, "browse/neighborhood_nodes", params)
    assert _expand_rows(plan) <= 5  # the five one-hop paths (three hops read 5 + 25 + 5 + …)
