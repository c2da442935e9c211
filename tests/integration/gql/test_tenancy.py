"""Tenant A's key cannot read or write tenant B's agent through ANY field taking ``agentId``:
the operations are generated from the schema itself, so a new field is covered automatically."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    get_named_type,
)
from graphql.pyutils import Undefined

from gql.schema import schema as default_schema
from graph.admin import delete_agent
from graph.executor import Executor
from graph.providers import HashEmbedder
from server.app import create_app
from server.auth import ApiKeyStore
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import http_client, load_story, memory_for

pytestmark = pytest.mark.neo4j

SCALAR_LITERALS = {"ID": '"x"', "String": '"x"', "Int": "1", "Float": "0.5",
                   "Boolean": "false", "DateTime": '"2026-01-01T00:00:00+00:00"', "JSON": "{}"}


def _literal(type_: Any) -> str:
    inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
    if isinstance(inner, GraphQLList):
        return "[]"
    if isinstance(inner, GraphQLEnumType):
        return next(iter(inner.values))
    if isinstance(inner, GraphQLInputObjectType):
        raise AssertionError(f"required input object {inner.name}: teach the test to build it")
    assert isinstance(inner, GraphQLScalarType)
    return SCALAR_LITERALS[inner.name]


def agent_operations(agent_id: str) -> list[tuple[str, str]]:
    """(field name, operation) for every root field taking agentId, aimed at ``agent_id``."""
    gschema = default_schema._schema
    ops: list[tuple[str, str]] = []
    for kind, root in (("query", gschema.query_type), ("mutation", gschema.mutation_type)):
        assert root is not None
        for name, field in root.fields.items():
            if "agentId" not in field.args:
                continue
            args = [f'agentId: "{agent_id}"']
            for arg_name, arg in field.args.items():
                required = isinstance(arg.type, GraphQLNonNull) and arg.default_value is Undefined
                if arg_name != "agentId" and required:
                    args.append(f"{arg_name}: {_literal(arg.type)}")
            out = get_named_type(field.type)
            selection = " { __typename }" if isinstance(out, GraphQLObjectType) else ""
            ops.append((name, f"{kind} {{ {name}({', '.join(args)}){selection} }}"))
    return ops


@pytest.fixture
async def other_agent(executor: Executor) -> AsyncIterator[str]:
    agent = f"test-{uuid.uuid4().hex[:12]}"
    yield agent
    await delete_agent(executor, agent)


@pytest.fixture
async def tenant_keys(executor: Executor, agent_id: str) -> AsyncIterator[dict[str, str]]:
    tenant = f"tenant-{uuid.uuid4().hex[:8]}"
    store = ApiKeyStore(executor)
    _, key_a = await store.create(tenant, [agent_id])
    yield {"tenant": tenant, "a": key_a}
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


def test_every_agent_field_is_covered() -> None:
    names = {n for n, _ in agent_operations("x")}
    assert {"retrieve", "entity", "entities", "facts", "factHistory", "events", "neighborhood",
            "observations", "mergeCandidates", "auditLog", "jobs", "job", "write", "remember",
            "forget", "mergeEntities", "resolveMergeCandidate"} <= names


async def test_tenant_a_cannot_touch_tenant_b_through_any_field(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, other_agent: str,
    tenant_keys: dict[str, str],
) -> None:
    await load_story(executor, hash_embedder, other_agent)
    before = await executor.run_text(load_query("agent_counts"), {"agent_id": other_agent}, read=True)
    services = memory_for(executor, hash_embedder)
    app = create_app(Settings(auth_disabled=False, rate_limit_per_minute=0), memory=services)
    headers = {"Authorization": f"Bearer {tenant_keys['a']}"}
    async with http_client(app) as client:
        for name, op in agent_operations(other_agent):
            body = (await client.post("/graphql", json={"query": op}, headers=headers)).json()
            codes = [e["extensions"]["code"] for e in body.get("errors", [])]
            assert codes == ["FORBIDDEN"], (name, body)
            assert body["data"] is None or body["data"].get(name) is None, (name, body)
        # Same key on its own agent: never FORBIDDEN (other errors are fine for dummy args).
        for name, op in agent_operations(agent_id):
            body = (await client.post("/graphql", json={"query": op}, headers=headers)).json()
            codes = [e["extensions"]["code"] for e in body.get("errors", [])]
            assert "FORBIDDEN" not in codes, (name, body)
    after = await executor.run_text(load_query("agent_counts"), {"agent_id": other_agent}, read=True)
    assert after == before
