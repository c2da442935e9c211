"""The MCP tools and resources through the SDK's own client (in-process), over the real Neo4j:
each tool reaches the same pipeline as GraphQL, tenancy holds, errors are coded tool errors."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from gql.permissions import LOCAL_ADMIN, Principal
from graph.executor import Executor
from graph.providers import HashEmbedder
from server.mcp.build import ERASE_INSTRUCTIONS, INSTRUCTIONS, Caller, build_mcp
from server.mcp.tools import TOOLS
from server.settings import Settings
from tests.integration.gql.support import memory_for

pytestmark = pytest.mark.neo4j

TOOL_NAMES = {
    "write_message",
    "remember_facts",
    "retrieve_context",
    "lookup_entity",
    "list_facts",
    "forget_fact",
    "erase_fact",
    "erase_entity",
    "ingest_document",
    "feedback",
}


@pytest.fixture
async def client_for(executor: Executor, hash_embedder: HashEmbedder) -> AsyncIterator[Any]:
    """``client_for(principal)`` → an SDK client connected in-process as that principal."""
    memory = memory_for(executor, hash_embedder)

    def make(principal: Principal, *, erase_tools: bool = False) -> Client:
        async def resolve(_ctx: Any) -> Caller:
            return Caller(memory, principal)

        return Client(build_mcp(resolve, erase_tools=erase_tools))

    yield make


def _ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def _code(result: Any) -> str:
    assert result.is_error
    body = json.loads(result.content[0].text)
    assert result.structured_content == body
    return str(body["error"]["code"])


async def test_tools_are_listed_with_typed_schemas_and_descriptions(client_for: Any) -> None:
    async with client_for(LOCAL_ADMIN, erase_tools=True) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == TOOL_NAMES == {t.name for t in TOOLS}
    for tool in tools.values():
        assert tool.description and len(tool.description) > 20
        props = tool.input_schema["properties"]
        assert "agent_id" in props
        assert all(p.get("description") for p in props.values()), tool.name
    assert tools["write_message"].input_schema["required"] == ["message", "speaker_name"]
    assert tools["retrieve_context"].input_schema["properties"]["as_of"]["anyOf"][0] == {
        "format": "date-time",
        "type": "string",
    }
    assert tools["retrieve_context"].annotations.read_only_hint is True
    assert tools["forget_fact"].annotations.destructive_hint is True
    assert tools["erase_fact"].annotations.destructive_hint is True


async def test_erase_tools_are_not_offered_to_the_model_unless_the_operator_opts_in(
    client_for: Any,
) -> None:
    """Even the operator's own scope (stdio with ``HIPPOGRAPH_MCP_AGENT``, or auth off) gets no
    erase tool by default: a model steered by text planted in a document cannot call one."""
    operator = Principal(tenant="local", agents=frozenset({"a"}), operator=True)
    for principal in (LOCAL_ADMIN, operator):
        async with client_for(principal) as c:
            listed = {t.name for t in (await c.list_tools()).tools}
            assert listed == TOOL_NAMES - {"erase_fact", "erase_entity"}
            refused = await c.call_tool("erase_entity", {"agent_id": "a", "key": "person:x"})
            assert refused.is_error
    assert "erase_fact" not in INSTRUCTIONS and "erase_fact" in ERASE_INSTRUCTIONS
    assert Settings(_env_file=None).mcp_erase_tools is False


async def test_erase_tools_need_an_admin_key_and_delete(client_for: Any, agent_id: str) -> None:
    async with client_for(
        Principal(tenant="t", agents=frozenset({agent_id})), erase_tools=True
    ) as c:
        stored = _ok(
            await c.call_tool(
                "remember_facts",
                {
                    "entities": [
                        {"name": "Clara Rezende", "type": "person"},
                        {"name": "Bruno Alves", "type": "person"},
                    ],
                    "facts": [
                        {"text": "Clara Rezende works at Vertix", "subject": "Clara Rezende"},
                        {"text": "Bruno Alves plays chess", "subject": "Bruno Alves"},
                    ],
                },
            )
        )
        clara, bruno = stored["fact_ids"]
        assert _code(await c.call_tool("erase_fact", {"fact_id": clara})) == "FORBIDDEN"
        assert (
            _code(await c.call_tool("erase_entity", {"key": "person:clara_rezende"})) == "FORBIDDEN"
        )
    async with client_for(LOCAL_ADMIN, erase_tools=True) as c:
        done = _ok(
            await c.call_tool("erase_entity", {"agent_id": agent_id, "key": "person:clara_rezende"})
        )
        assert done["erased"]["facts"] == 1 and done["erased"]["entities"] == 1
        assert (
            _code(await c.call_tool("erase_fact", {"agent_id": agent_id, "fact_id": clara}))
            == "NOT_FOUND"
        )
        done = _ok(await c.call_tool("erase_fact", {"agent_id": agent_id, "fact_id": bruno}))
        assert done["erased"]["facts"] == 1 and done["audit_id"]
        left = _ok(
            await c.call_tool("list_facts", {"agent_id": agent_id, "include_invalidated": True})
        )
        assert left["facts"] == []


async def test_remember_lookup_list_as_of_forget(client_for: Any, agent_id: str) -> None:
    async with client_for(Principal(tenant="t", agents=frozenset({agent_id}))) as c:
        stored = _ok(
            await c.call_tool(
                "remember_facts",
                {
                    "entities": [
                        {"name": "Clara Rezende", "type": "person", "aliases": ["Clarinha"]},
                        {"name": "Vertix", "type": "organization"},
                    ],
                    "facts": [
                        {
                            "text": "Clara Rezende works at Vertix",
                            "subject": "Clara Rezende",
                            "entities": ["Vertix"],
                        }
                    ],
                    "relations": [
                        {"source": "Clara Rezende", "target": "Vertix", "type": "works at"}
                    ],
                },
            )
        )  # no agent_id: the key covers exactly one agent
        assert stored["facts_added"] == 1 and stored["relations"] == 1
        fact_id = stored["fact_ids"][0]
        before = (datetime.now(UTC) - timedelta(days=1)).isoformat()

        found = _ok(await c.call_tool("lookup_entity", {"name": "clarinha"}))
        assert found["entity"]["key"] == "person:clara_rezende"
        assert [f["id"] for f in found["facts"]] == [fact_id]
        assert found["relationships"][0]["type"] == "works_at"
        assert any(h["change"] == "FACT_ADDED" for h in found["history"])

        now = _ok(await c.call_tool("list_facts", {"agent_id": agent_id}))
        assert [f["id"] for f in now["facts"]] == [fact_id] and "next_cursor" not in now
        past = _ok(await c.call_tool("list_facts", {"agent_id": agent_id, "as_of": before}))
        assert past["facts"] == []

        gone = _ok(await c.call_tool("forget_fact", {"fact_id": fact_id, "reason": "test"}))
        assert gone["fact_id"] == fact_id and isinstance(gone["invalidated_relationships"], list)
        assert _ok(await c.call_tool("list_facts", {}))["facts"] == []
        assert _code(await c.call_tool("forget_fact", {"fact_id": fact_id})) == "NOT_FOUND"
        assert _code(await c.call_tool("lookup_entity", {"key": "person:nobody"})) == "NOT_FOUND"


async def test_write_then_retrieve_with_as_of(client_for: Any, agent_id: str) -> None:
    async with client_for(LOCAL_ADMIN) as c:
        written = _ok(
            await c.call_tool(
                "write_message",
                {
                    "agent_id": agent_id,
                    "speaker_name": "Clara",
                    "message": "I work at Vertix as a data engineer.",
                },
            )
        )
        assert written["success"] and written["facts_added"]
        got = _ok(
            await c.call_tool(
                "retrieve_context", {"agent_id": agent_id, "query": "Where does Clara work?"}
            )
        )
        assert any("Vertix" in f["text"] for f in got["facts"]) and "Vertix" in got["context"]
        earlier = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
        old = _ok(
            await c.call_tool(
                "retrieve_context",
                {"agent_id": agent_id, "query": "Where does Clara work?", "as_of": earlier},
            )
        )
        assert not any("Vertix" in f["text"] for f in old["facts"])
        queued = _ok(
            await c.call_tool(
                "write_message",
                {
                    "agent_id": agent_id,
                    "speaker_name": "Clara",
                    "background": True,
                    "message": "I moved to Lisbon.",
                },
            )
        )
        assert queued["queued"] and queued["event_id"] and queued["job_id"]
        assert (
            _code(
                await c.call_tool(
                    "write_message",
                    {
                        "agent_id": agent_id,
                        "speaker_name": "Clara",
                        "message": "x",
                        "background": True,
                        "dry_run": True,
                    },
                )
            )
            == "BAD_INPUT"
        )


async def test_ingest_document_queues_a_job(
    client_for: Any, agent_id: str, executor: Executor
) -> None:
    async with client_for(LOCAL_ADMIN) as c:
        doc = _ok(
            await c.call_tool(
                "ingest_document",
                {
                    "agent_id": agent_id,
                    "text": "# Notes\n\nClara moved to Lisbon.",
                    "format": "markdown",
                },
            )
        )
        assert doc["created"] is True and doc["job_id"]
        again = _ok(
            await c.call_tool(
                "ingest_document",
                {
                    "agent_id": agent_id,
                    "text": "# Notes\n\nClara moved to Lisbon.",
                    "format": "markdown",
                },
            )
        )
        assert again["document_id"] == doc["document_id"] and again["created"] is False
        assert _code(await c.call_tool("ingest_document", {"agent_id": agent_id})) == "BAD_INPUT"
        assert (
            _code(
                await c.call_tool(
                    "ingest_document", {"agent_id": agent_id, "text": "x", "format": "pdf"}
                )
            )
            == "BAD_INPUT"
        )


async def test_tenancy_and_bad_input_are_coded_tool_errors(client_for: Any, agent_id: str) -> None:
    async with client_for(Principal(tenant="t", agents=frozenset({agent_id, "other"}))) as c:
        assert _code(await c.call_tool("retrieve_context", {"query": "x"})) == "BAD_INPUT"
        for name, args in [
            ("retrieve_context", {"query": "x"}),
            ("list_facts", {}),
            ("write_message", {"message": "hi", "speaker_name": "A"}),
            ("forget_fact", {"fact_id": "f"}),
            ("lookup_entity", {"key": "k"}),
        ]:
            res = await c.call_tool(name, {"agent_id": "someone-else", **args})
            assert _code(res) == "FORBIDDEN", name
        assert (
            _code(await c.call_tool("list_facts", {"agent_id": agent_id, "first": "many"}))
            == "BAD_INPUT"
        )
        assert (
            _code(await c.call_tool("list_facts", {"agent_id": agent_id, "first": 5000}))
            == "BAD_INPUT"
        )
        assert _code(await c.call_tool("retrieve_context", {"agent_id": agent_id})) == "BAD_INPUT"
        assert _code(await c.call_tool("lookup_entity", {"agent_id": agent_id})) == "BAD_INPUT"
        assert _code(await c.call_tool("no_such_tool", {})) == "BAD_INPUT"


async def test_resources_profile_and_entities(client_for: Any, agent_id: str) -> None:
    async with client_for(Principal(tenant="t", agents=frozenset({agent_id}))) as c:
        _ok(
            await c.call_tool(
                "remember_facts",
                {
                    "entities": [
                        {"name": "Clara", "type": "person", "importance": 0.9},
                        {"name": "Lisbon", "type": "city", "importance": 0.2},
                    ],
                    "facts": [
                        {
                            "text": "Clara lives in Lisbon",
                            "subject": "Clara",
                            "entities": ["Lisbon"],
                        }
                    ],
                },
            )
        )
        templates = {
            t.name: t.uri_template for t in (await c.list_resource_templates()).resource_templates
        }
        assert templates == {
            "agent_profile": "hippograph://agents/{agent_id}/profile",
            "agent_entities": "hippograph://agents/{agent_id}/entities",
        }
        profile = json.loads(
            (await c.read_resource(f"hippograph://agents/{agent_id}/profile")).contents[0].text
        )
        assert profile["entities"] == 2 and profile["active_facts"] == 1
        assert [e["key"] for e in profile["top_entities"]] == ["person:clara", "city:lisbon"]
        entities = json.loads(
            (await c.read_resource(f"hippograph://agents/{agent_id}/entities")).contents[0].text
        )
        assert [e["key"] for e in entities["entities"]] == ["city:lisbon", "person:clara"]
        with pytest.raises(MCPError, match="FORBIDDEN"):
            await c.read_resource("hippograph://agents/someone-else/profile")


async def test_an_all_agents_key_cannot_reach_another_tenants_agent(
    client_for: Any,
    executor: Executor,
    agent_id: str,
) -> None:
    """--all-agents means every agent of the key's tenant, over MCP as over GraphQL."""
    import uuid

    from graph.tenancy import may_access

    owner, other = f"tenant-b-{uuid.uuid4().hex[:8]}", f"tenant-a-{uuid.uuid4().hex[:8]}"
    assert await may_access(executor, owner, agent_id, named=True)  # tenant B owns the agent
    async with client_for(Principal(tenant=other, all_agents=True)) as c:
        for name, args in [
            ("list_facts", {}),
            ("retrieve_context", {"query": "x"}),
            ("write_message", {"message": "hi", "speaker_name": "A"}),
        ]:
            res = await c.call_tool(name, {"agent_id": agent_id, **args})
            assert _code(res) == "FORBIDDEN", name
    async with client_for(Principal(tenant=owner, all_agents=True)) as c:
        assert "facts" in json.dumps(_ok(await c.call_tool("list_facts", {"agent_id": agent_id})))


async def test_a_huge_remember_facts_call_is_refused_whole(
    client_for: Any, executor: Executor, agent_id: str
) -> None:
    """40,000 facts over MCP: refused as BAD_INPUT like the GraphQL mutation (1,000 per list),
    nothing stored; 1,000 are accepted."""
    huge = [{"text": f"Fact number {i} about Ana", "subject": "Ana"} for i in range(40_000)]
    async with client_for(LOCAL_ADMIN) as c:
        refused = await c.call_tool("remember_facts", {"agent_id": agent_id, "facts": huge})
        assert _code(refused) == "BAD_INPUT"
        rows = await executor.run(
            "write/subject_facts", {"agent_id": agent_id, "subject_key": "thing:ana"}, read=True
        )
        assert rows == []
        ok = _ok(await c.call_tool("remember_facts", {"agent_id": agent_id, "facts": huge[:1_000]}))
        assert ok["facts_added"] == 1_000


async def test_read_tools_never_claim_an_agent_id(
    client_for: Any, executor: Executor, agent_id: str
) -> None:
    """An --all-agents key reading an id nobody owns gets the answer it gets for another
    tenant's agent (FORBIDDEN), and the id stays free; its first write claims it."""
    import uuid

    from graph.agent_deletion import delete_agent
    from graph.tenancy import may_access

    owner, tenant = f"tenant-b-{uuid.uuid4().hex[:8]}", f"tenant-a-{uuid.uuid4().hex[:8]}"
    assert await may_access(executor, owner, agent_id, named=True)
    fresh = f"test-{uuid.uuid4().hex[:12]}"
    reads = [
        ("list_facts", {}),
        ("retrieve_context", {"query": "x"}),
        ("lookup_entity", {"name": "Ana"}),
    ]
    try:
        async with client_for(Principal(tenant=tenant, all_agents=True)) as c:
            for name, args in reads:
                foreign = await c.call_tool(name, {"agent_id": agent_id, **args})
                unknown = await c.call_tool(name, {"agent_id": fresh, **args})
                assert foreign.content == unknown.content, name
                assert _code(unknown) == "FORBIDDEN", name
            for uri in ("hippograph://agents/{}/profile", "hippograph://agents/{}/entities"):
                with pytest.raises(MCPError, match="FORBIDDEN"):
                    await c.read_resource(uri.format(fresh))
            assert await executor.run("tenancy/agent_owner", {"agent_id": fresh}, read=True) == []
            _ok(
                await c.call_tool(
                    "remember_facts",
                    {
                        "agent_id": fresh,
                        "facts": [{"text": "Ana lives in Porto", "subject": "Ana"}],
                    },
                )
            )
            assert "Porto" in json.dumps(_ok(await c.call_tool("list_facts", {"agent_id": fresh})))
    finally:
        await delete_agent(executor, fresh)


async def test_a_reranked_retrieve_context_costs_the_rerank_price(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
) -> None:
    """As over GraphQL: with an LLM configured, retrieve_context takes ``rerank_rate_cost``
    requests of the key's budget (the HTTP middleware takes the first)."""
    from server.limits import RateLimiter
    from tests.fakes import ScriptedLLM

    memory = memory_for(executor, hash_embedder, llm=ScriptedLLM().chat())
    limiter = RateLimiter(per_minute=8)

    async def resolve(_ctx: Any) -> Caller:
        wait = limiter.take("key")  # what AuthMiddleware does for every request
        return Caller(
            memory,
            LOCAL_ADMIN,
            rate_wait_s=wait,
            rate_take=lambda cost: limiter.take("key", cost),
            rerank_cost=5,
        )

    async with Client(build_mcp(resolve)) as c:
        args = {"agent_id": agent_id, "query": "where does Ana live?"}
        _ok(await c.call_tool("retrieve_context", args))  # 5 of 8
        assert _code(await c.call_tool("retrieve_context", args)) == "RATE_LIMITED"
        _ok(await c.call_tool("list_facts", {"agent_id": agent_id}))  # 1 more is left
