"""``agentPage``: the agents a key may read, a page at a time, ordered by id, found by a part of
their id; only the page's agents are counted; a key naming agents pages through those only."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from gql.permissions import LOCAL_ADMIN, Principal
from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredFact
from graph.providers import HashEmbedder
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

PAGE = """query($search: String, $first: Int!, $after: String) {
  agentPage(search: $search, first: $first, after: $after) {
    totalCount hasNextPage endCursor items { agentId facts entities }
  }
}"""


@pytest.fixture
async def agents(executor: Executor, hash_embedder: HashEmbedder) -> AsyncIterator[list[str]]:
    tag = f"page-{uuid.uuid4().hex[:8]}"
    names = [f"{tag}-{i}" for i in range(5)]
    for i, name in enumerate(names):
        facts = [
            StructuredFact(text=f"Ana Souza likes number {n}", subject="Ana Souza")
            for n in range(i)
        ]
        await remember(executor, hash_embedder, name, facts=facts or [
            StructuredFact(text="Ana Souza exists", subject="Ana Souza")
        ])  # fmt: skip
    yield names
    for name in names:
        await delete_agent(executor, name)


async def test_pages_through_the_agents_found_by_a_part_of_their_id(
    executor: Executor, hash_embedder: HashEmbedder, agents: list[str]
) -> None:
    memory = memory_for(executor, hash_embedder)
    tag = agents[0].rsplit("-", 1)[0]
    seen: list[dict[str, Any]] = []
    after = None
    pages = 0
    while True:
        out = await gql(
            memory, PAGE, {"search": tag.upper(), "first": 2, "after": after}, principal=LOCAL_ADMIN
        )
        assert out.errors is None, out.errors
        page = out.data["agentPage"]
        assert page["totalCount"] == 5 and len(page["items"]) <= 2
        seen += page["items"]
        pages += 1
        if not page["hasNextPage"]:
            break
        after = page["endCursor"]
    assert pages == 3 and [a["agentId"] for a in seen] == agents
    assert [a["facts"] for a in seen] == [1, 1, 2, 3, 4] and all(a["entities"] == 1 for a in seen)


async def test_a_key_naming_agents_pages_through_those_only(
    executor: Executor, hash_embedder: HashEmbedder, agents: list[str]
) -> None:
    memory = memory_for(executor, hash_embedder)
    key = Principal(tenant=None, agents=frozenset(agents[1:3]))
    out = await gql(memory, PAGE, {"search": None, "first": 25, "after": None}, principal=key)
    page = out.data["agentPage"]
    assert [a["agentId"] for a in page["items"]] == agents[1:3] and page["totalCount"] == 2
    refused = await gql(memory, PAGE, {"search": None, "first": 500, "after": None})
    assert refused.errors and refused.errors[0].extensions["code"] == "BAD_INPUT"
