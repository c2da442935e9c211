"""``agents``: the agents an API key may read, with counts — named agents (even empty ones),
every agent of the key's tenant for an --all-agents key, every agent for an admin key."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from gql.permissions import LOCAL_ADMIN, Principal
from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.providers import HashEmbedder
from graph.tenancy import claim_agents
from tests.integration.gql.support import gql, load_story, memory_for

pytestmark = pytest.mark.neo4j

QUERY = "{ agents { agentId facts entities relations events } }"


async def _agents(
    executor: Executor, embedder: HashEmbedder, principal: Principal
) -> dict[str, dict[str, Any]]:
    result = await gql(memory_for(executor, embedder), QUERY, principal=principal)
    assert result.errors is None, result.errors
    return {a["agentId"]: a for a in result.data["agents"]}


async def test_agents_follow_the_key_scope(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    await load_story(executor, hash_embedder, agent_id)
    empty, tenant = f"test-{uuid.uuid4().hex[:12]}", f"tenant-{uuid.uuid4().hex[:8]}"
    try:
        named = await _agents(
            executor, hash_embedder, Principal(tenant=tenant, agents=frozenset({agent_id, empty}))
        )
        assert set(named) == {agent_id, empty}
        story = named[agent_id]
        assert story["facts"] >= 2 and story["entities"] >= 3 and story["relations"] >= 1
        assert named[empty] == {
            "agentId": empty,
            "facts": 0,
            "entities": 0,
            "relations": 0,
            "events": 0,
        }
        assert agent_id in await _agents(executor, hash_embedder, LOCAL_ADMIN)

        await claim_agents(executor, tenant, [agent_id])
        mine = await _agents(executor, hash_embedder, Principal(tenant=tenant, all_agents=True))
        assert set(mine) == {agent_id}  # nothing of other tenants or unowned data
        other = Principal(tenant="someone-else", agents=frozenset({agent_id}))
        assert await _agents(executor, hash_embedder, other) == {}
    finally:
        await delete_agent(executor, empty)
