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
from strawberry.permission import PermissionExtension

from gql.mutations import Mutation
from gql.permissions import AdminAccess
from gql.queries import Query
from gql.schema import schema as default_schema
from graph.agent_deletion import delete_agent
from graph.errors import BadInput
from graph.executor import Executor
from graph.providers import HashEmbedder
from server.app import create_app
from server.auth import ApiKeyStore
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import http_client, load_story, memory_for

pytestmark = pytest.mark.neo4j

SCALAR_LITERALS = {
    "ID": '"x"',
    "String": '"x"',
    "Int": "1",
    "Float": "0.5",
    "Boolean": "false",
    "DateTime": '"2026-01-01T00:00:00+00:00"',
    "JSON": "{}",
}


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


def _admin_only() -> set[str]:
    """GraphQL names of the root fields only admin keys may use (``admin_mutation``)."""
    names = set()
    for root in (Query, Mutation):
        for f in root.__strawberry_definition__.fields:  # type: ignore[attr-defined]
            if any(
                isinstance(ext, PermissionExtension)
                and any(isinstance(p, AdminAccess) for p in ext.permissions)
                for ext in f.extensions
            ):
                head, *rest = f.python_name.split("_")
                names.add(head + "".join(w.capitalize() for w in rest))
    return names


ADMIN_ONLY = _admin_only()


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
async def tenant_keys(executor: Executor, agent_id: str) -> AsyncIterator[dict[str, str]]:
    tenant = f"tenant-{uuid.uuid4().hex[:8]}"
    store = ApiKeyStore(executor)
    _, key_a = await store.create(tenant, [agent_id])
    yield {"tenant": tenant, "a": key_a}
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


def test_every_agent_field_is_covered() -> None:
    names = {n for n, _ in agent_operations("x")}
    assert {
        "retrieve",
        "entity",
        "entities",
        "facts",
        "factHistory",
        "events",
        "neighborhood",
        "observations",
        "mergeCandidates",
        "auditLog",
        "jobs",
        "job",
        "write",
        "remember",
        "forget",
        "mergeEntities",
        "resolveMergeCandidate",
        "failedMessages",
        "retryFailedMessages",
        "eraseFact",
        "eraseEntity",
        "eraseAgent",
    } <= names
    assert {
        "eraseFact", "eraseEntity", "eraseAgent", "defineOntology", "defineTenantOntology",
        "registerWebhook", "removeWebhook", "webhooks", "webhookDeliveries",
    } == ADMIN_ONLY  # fmt: skip


async def test_tenant_a_cannot_touch_tenant_b_through_any_field(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
    other_agent: str,
    tenant_keys: dict[str, str],
) -> None:
    await load_story(executor, hash_embedder, other_agent)
    services = memory_for(executor, hash_embedder)
    app = create_app(Settings(auth_disabled=False, rate_limit_per_minute=0), memory=services)
    headers = {"Authorization": f"Bearer {tenant_keys['a']}"}
    async with http_client(app) as client:  # the app's start (schema step) is done here
        before = await executor.run_text(
            load_query("agent_counts"), {"agent_id": other_agent}, read=True
        )
        for name, op in agent_operations(other_agent):
            body = (await client.post("/graphql", json={"query": op}, headers=headers)).json()
            codes = [e["extensions"]["code"] for e in body.get("errors", [])]
            assert codes == ["FORBIDDEN"], (name, body)
            assert body["data"] is None or body["data"].get(name) is None, (name, body)
        # Same key on its own agent: never FORBIDDEN (other errors are fine for dummy args),
        # except the admin-only fields (erase), refused to every non-admin key.
        for name, op in agent_operations(agent_id):
            body = (await client.post("/graphql", json={"query": op}, headers=headers)).json()
            codes = [e["extensions"]["code"] for e in body.get("errors", [])]
            assert ("FORBIDDEN" in codes) == (name in ADMIN_ONLY), (name, body)
    after = await executor.run_text(
        load_query("agent_counts"), {"agent_id": other_agent}, read=True
    )
    assert after == before


@pytest.fixture
async def two_tenants(executor: Executor) -> AsyncIterator[dict[str, Any]]:
    """Tenant A holds an --all-agents key; tenant B a key naming its own agent."""
    store = ApiKeyStore(executor)
    a, b = f"tenant-a-{uuid.uuid4().hex[:8]}", f"tenant-b-{uuid.uuid4().hex[:8]}"
    agent_b = f"test-{uuid.uuid4().hex[:12]}"
    _, key_b = await store.create(b, [agent_b])
    _, key_a = await store.create(a, [], all_agents=True)
    new_agents: list[str] = []
    yield {
        "store": store,
        "a": a,
        "b": b,
        "agent_b": agent_b,
        "key_a": key_a,
        "key_b": key_b,
        "new_agents": new_agents,
    }
    for agent in [agent_b, *new_agents]:
        await delete_agent(executor, agent)
    for tenant in (a, b):
        await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


async def test_all_agents_key_reaches_only_agents_of_its_tenant(
    executor: Executor,
    hash_embedder: HashEmbedder,
    two_tenants: dict[str, Any],
) -> None:
    t = two_tenants
    await load_story(executor, hash_embedder, t["agent_b"])
    before = await executor.run_text(
        load_query("agent_counts"), {"agent_id": t["agent_b"]}, read=True
    )
    services = memory_for(executor, hash_embedder)
    app = create_app(Settings(auth_disabled=False, rate_limit_per_minute=0), memory=services)
    own = f"test-{uuid.uuid4().hex[:12]}"
    t["new_agents"].append(own)
    async with http_client(app) as client:
        headers = {"Authorization": f"Bearer {t['key_a']}"}
        for name, op in agent_operations(t["agent_b"]):
            body = (await client.post("/graphql", json={"query": op}, headers=headers)).json()
            codes = [e["extensions"]["code"] for e in body.get("errors", [])]
            assert codes == ["FORBIDDEN"], (name, body)
        # A new agent id is started (and claimed) by tenant A's all-agents key's first
        # mutation; reads never claim, so they come after it ...
        for name, op in sorted(agent_operations(own), key=lambda o: o[1].startswith("query")):
            body = (await client.post("/graphql", json={"query": op}, headers=headers)).json()
            codes = [e["extensions"]["code"] for e in body.get("errors", [])]
            assert ("FORBIDDEN" in codes) == (name in ADMIN_ONLY), (name, body)
        # ... and is then out of tenant B's reach, even for a key naming it.
        with pytest.raises(BadInput, match="another tenant"):
            await t["store"].create(t["b"], [own])
        body = (
            await client.post(
                "/graphql",
                json={"query": agent_operations(own)[0][1]},
                headers={"X-API-Key": t["key_b"]},
            )
        ).json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["FORBIDDEN"]
    after = await executor.run_text(
        load_query("agent_counts"), {"agent_id": t["agent_b"]}, read=True
    )
    assert after == before


async def test_the_same_agent_id_in_two_tenants_is_refused(
    executor: Executor,
    two_tenants: dict[str, Any],
) -> None:
    t = two_tenants
    with pytest.raises(BadInput, match="belongs to another tenant"):
        await t["store"].create(t["a"], [t["agent_b"]])
    with pytest.raises(BadInput):  # checked before any claim: the free agent stays free
        await t["store"].create(t["a"], ["free-" + uuid.uuid4().hex, t["agent_b"]])
    _, again = await t["store"].create(t["b"], [t["agent_b"]])  # same tenant: fine
    assert again.startswith("hg_")
    _, admin = await t["store"].create(t["a"], [t["agent_b"]], admin=True)  # operator keys
    assert admin.startswith("hg_")


async def test_memory_without_a_tenant_is_not_claimed_by_all_agents_keys(
    executor: Executor,
    hash_embedder: HashEmbedder,
    two_tenants: dict[str, Any],
    other_agent: str,
) -> None:
    """Data written by the operator's CLI (or before tenancy existed) has no tenant: an
    --all-agents key cannot take it; a key naming the agent (an operator action) claims it."""
    t = two_tenants
    await load_story(executor, hash_embedder, other_agent)
    services = memory_for(executor, hash_embedder)
    app = create_app(Settings(auth_disabled=False, rate_limit_per_minute=0), memory=services)
    query = {"query": f'{{ entities(agentId: "{other_agent}") {{ totalCount }} }}'}
    async with http_client(app) as client:
        body = (await client.post("/graphql", json=query, headers={"X-API-Key": t["key_a"]})).json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["FORBIDDEN"]
        _, named = await t["store"].create(t["b"], [other_agent])
        body = (await client.post("/graphql", json=query, headers={"X-API-Key": named})).json()
        assert body == {"data": {"entities": {"totalCount": 3}}}
        body = (await client.post("/graphql", json=query, headers={"X-API-Key": t["key_a"]})).json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["FORBIDDEN"]


async def test_reads_never_claim_and_an_unknown_agent_answers_like_a_forbidden_one(
    executor: Executor,
    hash_embedder: HashEmbedder,
    two_tenants: dict[str, Any],
) -> None:
    """An --all-agents key reading an agent id nobody uses gets exactly the answer it gets for
    another tenant's agent (so reads cannot tell which ids exist), and the id stays free."""
    t = two_tenants
    await load_story(executor, hash_embedder, t["agent_b"])
    fresh = f"test-{uuid.uuid4().hex[:12]}"
    t["new_agents"].append(fresh)
    services = memory_for(executor, hash_embedder)
    app = create_app(Settings(auth_disabled=False, rate_limit_per_minute=0), memory=services)
    headers = {"Authorization": f"Bearer {t['key_a']}"}
    reads = [(n, op) for n, op in agent_operations("AGENT") if op.startswith("query")]
    assert len(reads) > 10
    async with http_client(app) as client:
        for name, op in reads:
            foreign = await client.post(
                "/graphql", headers=headers, json={"query": op.replace("AGENT", t["agent_b"])}
            )
            unknown = await client.post(
                "/graphql", headers=headers, json={"query": op.replace("AGENT", fresh)}
            )
            assert foreign.status_code == unknown.status_code, name
            assert foreign.json() == unknown.json(), name
            assert [e["extensions"]["code"] for e in unknown.json()["errors"]] == ["FORBIDDEN"]
        owner = await executor.run("tenancy/agent_owner", {"agent_id": fresh}, read=True)
        assert owner == []  # still free: tenant B may take it
        _, key_b = await t["store"].create(t["b"], [fresh])
        body = (
            await client.post(
                "/graphql",
                headers={"X-API-Key": key_b},
                json={"query": f'{{ entities(agentId: "{fresh}") {{ totalCount }} }}'},
            )
        ).json()
        assert body == {"data": {"entities": {"totalCount": 0}}}
