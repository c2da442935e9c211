"""Per-call ``configOverrides`` only narrow the operator's bounds, driven through
GraphQL over the real pipelines and Neo4j."""

from __future__ import annotations

from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.facade import Memory
from graph.providers import HashEmbedder
from server.settings import Settings
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

WRITE = """mutation($a: ID!, $o: JSON) { write(agentId: $a, speakerName: "Marina",
  message: "My card is 4111 1111 1111 1111 and I moved to Lisbon.", configOverrides: $o) {
  outcome { success mode } errors { code message } } }"""
EVENTS = "query($a: ID!) { events(agentId: $a) { edges { node { text } } } }"


async def _write(memory: Memory, agent_id: str, overrides: dict[str, Any]) -> dict[str, Any]:
    res = await gql(memory, WRITE, {"a": agent_id, "o": overrides})
    assert res.errors is None, res.errors
    payload: dict[str, Any] = res.data["write"]
    return payload


async def test_pii_mode_off_is_refused_and_nothing_stored(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    memory = memory_for(executor, hash_embedder)
    payload = await _write(memory, agent_id, {"pii_mode": "off"})
    assert payload["outcome"] is None
    assert payload["errors"][0]["code"] == "BAD_INPUT"
    assert "pii_mode" in payload["errors"][0]["message"]
    events = await gql(memory, EVENTS, {"a": agent_id})
    assert events.data["events"]["edges"] == []


async def test_mode_override_may_only_be_stricter(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    full = memory_for(executor, hash_embedder)
    shadow = await _write(full, agent_id, {"mode": "shadow"})
    assert shadow["errors"] == [] and shadow["outcome"]["mode"] == "SHADOW"
    controlled = memory_for(executor, hash_embedder, settings=Settings(write_mode="controlled"))
    refused = await _write(controlled, agent_id, {"mode": "full"})
    assert refused["outcome"] is None and refused["errors"][0]["code"] == "BAD_INPUT"
