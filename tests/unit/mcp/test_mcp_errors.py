"""MCP error mapping and tenancy decisions, without Neo4j: every failure is a coded tool error
and nothing of an unexpected exception reaches the client."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from mcp import Client

from gql.errors import ApiError, ErrorCode
from gql.permissions import LOCAL_ADMIN, Principal
from graph.errors import BadInput, GraphUnavailable, NotFound
from graph.memory.facade import Memory
from graph.memory.write.pipeline import WritePipeline
from server.mcp.build import Caller, agent_for, build_mcp
from server.mcp.plain import plain


class RaisingRetriever:
    models = None  # the facade gives it the tenants' ranking models

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    async def retrieve(self, *args: Any, **kwargs: Any) -> Any:
        raise self.exc


def _client(exc: Exception, principal: Principal = LOCAL_ADMIN, wait: float = 0.0) -> Client:
    writer = WritePipeline(None, None, None)  # type: ignore[arg-type]  # holds the PII policy
    memory = Memory(
        executor=None,
        embedder=None,
        llm=None,
        writer=writer,  # type: ignore[arg-type]
        retriever=RaisingRetriever(exc),
        queue=None,
        jobs=SimpleNamespace(webhooks=None),
    )  # type: ignore[arg-type]

    async def resolve(_ctx: Any) -> Caller:
        return Caller(memory, principal, wait)

    return Client(build_mcp(resolve))


async def _error_of(client: Client, args: dict[str, Any] | None = None) -> dict[str, Any]:
    async with client as c:
        res = await c.call_tool("retrieve_context", args or {"agent_id": "a", "query": "q"})
    assert res.is_error
    return dict(json.loads(res.content[0].text)["error"])


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (BadInput("query is empty"), "BAD_INPUT"),
        (NotFound("no such thing"), "NOT_FOUND"),
        (GraphUnavailable("bolt refused"), "UNAVAILABLE"),
        (ApiError(ErrorCode.FORBIDDEN, "no"), "FORBIDDEN"),
    ],
)
async def test_known_errors_keep_their_graphql_codes(exc: Exception, code: str) -> None:
    assert (await _error_of(_client(exc)))["code"] == code


async def test_unexpected_errors_are_masked() -> None:
    err = await _error_of(_client(RuntimeError("MATCH (n) secret cypher at line 3")))
    assert err == {"code": "INTERNAL", "message": "Internal error."}


async def test_rate_limited_caller_gets_retry_advice() -> None:
    err = await _error_of(_client(RuntimeError("never reached"), wait=2.2))
    assert err["code"] == "RATE_LIMITED" and err["retryAfterSeconds"] == 3


def test_agent_for_defaults_to_the_only_agent_and_guards_the_rest() -> None:
    one = Principal(tenant="t", agents=frozenset({"a"}))
    assert agent_for(one, None) == "a" and agent_for(one, "a") == "a"
    with pytest.raises(ApiError) as forbidden:
        agent_for(one, "b")
    assert forbidden.value.code is ErrorCode.FORBIDDEN
    with pytest.raises(ApiError) as missing:
        agent_for(Principal(tenant="t", agents=frozenset({"a", "b"})), None)
    assert missing.value.code is ErrorCode.BAD_INPUT
    with pytest.raises(ApiError):
        agent_for(LOCAL_ADMIN, None)  # every agent: which one is not guessed
    assert agent_for(LOCAL_ADMIN, "z") == "z"


def test_plain_drops_nones_and_serialises_datetimes() -> None:
    from datetime import UTC, datetime

    got = plain({"a": None, "b": [{"c": None, "d": datetime(2026, 1, 2, tzinfo=UTC)}]})
    assert got == {"b": [{"d": "2026-01-02T00:00:00Z"}]}
