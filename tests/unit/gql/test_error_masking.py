"""Errors leave the API coded: errors raised on purpose keep their code, anything else is logged
with its traceback and masked as ``Internal error.`` / ``INTERNAL``."""

from __future__ import annotations

import logging

import pytest
from graphql.error import GraphQLError
from strawberry.extensions import SchemaExtension

from gql.errors import UserSafeErrors, user_safe
from graph.errors import BadInput
from graph.memory.changes import SubscriberLagging


def test_an_unexpected_exception_is_logged_and_masked(caplog: pytest.LogCaptureFixture) -> None:
    error = GraphQLError(
        "boom", path=["retrieve"], original_error=RuntimeError("password=secret MATCH (n)")
    )
    with caplog.at_level(logging.ERROR, logger="hippograph.gql"):
        safe = user_safe(error)
    assert safe.formatted == {
        "message": "Internal error.",
        "path": ["retrieve"],
        "extensions": {"code": "INTERNAL"},
    }
    assert any(r.exc_info and "secret" in str(r.exc_info[1]) for r in caplog.records)


def test_errors_raised_on_purpose_keep_their_code() -> None:
    bad = user_safe(GraphQLError("x", path=["write"], original_error=BadInput("agentId is empty")))
    assert bad.message == "agentId is empty" and bad.extensions == {"code": "BAD_INPUT"}
    refused = user_safe(GraphQLError("Cannot query field 'nope' on type 'Query'."))
    assert refused.extensions == {"code": "BAD_INPUT"}


def test_masking_uses_the_public_extension_hook() -> None:
    assert issubclass(UserSafeErrors, SchemaExtension)
    assert "on_operation" in vars(UserSafeErrors)
    assert not any(
        name.startswith("_") and not name.startswith("__") for name in vars(UserSafeErrors)
    )


def test_a_lagging_subscriber_is_told_to_resume_not_that_the_store_is_down() -> None:
    lagging = SubscriberLagging("This subscriber fell behind; subscribe again with `since`.")
    error = user_safe(GraphQLError("x", path=["memoryChanged"], original_error=lagging))
    assert error.message.startswith("This subscriber fell behind")
    assert error.extensions == {"code": "UNAVAILABLE", "reason": "lagging", "retryAfterSeconds": 0}
    assert "on_stream_result" in vars(UserSafeErrors)  # streamed results are masked too
