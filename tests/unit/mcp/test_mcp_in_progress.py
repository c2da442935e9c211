"""A write whose idempotency key is still claimed is the typed IN_PROGRESS error,
with retry advice, over GraphQL's mapping and as an MCP tool error."""

from __future__ import annotations

from gql.errors import ErrorCode, api_error_from
from graph.errors import WriteInProgress
from tests.unit.mcp.test_mcp_errors import _client, _error_of


def test_in_progress_maps_to_its_code_with_retry_advice() -> None:
    err = api_error_from(WriteInProgress("a write with this key is in progress", 29.6))
    assert err is not None and err.code is ErrorCode.IN_PROGRESS
    assert err.as_extensions() == {"code": "IN_PROGRESS", "retryAfterSeconds": 30}


async def test_in_progress_is_a_coded_mcp_tool_error() -> None:
    err = await _error_of(_client(WriteInProgress("in progress; retry later", 5.0)))
    assert err["code"] == "IN_PROGRESS" and err["retryAfterSeconds"] == 5
