"""User-safe errors: the codes clients see, and the mapping from internal exceptions.

Resolvers raise :class:`ApiError` (or let graph-layer errors propagate); the
:class:`UserSafeErrors` schema extension turns known errors into GraphQL errors carrying
``extensions.code`` and masks everything else ("Internal error", code ``INTERNAL``) so no stack
trace or Cypher text ever reaches a client. Mutations also report errors in their payload as
:class:`UserError` values.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Iterator
from enum import Enum
from typing import Any, Protocol, TypeVar

import strawberry
from graphql.error import GraphQLError
from strawberry.extensions import SchemaExtension

from graph.errors import (
    BadInput,
    EmbedderMismatch,
    GraphUnavailable,
    NotFound,
    WriteInProgress,
)
from graph.memory.changes import SubscriberLagging

__all__ = [
    "RETRY_AFTER_S",
    "ApiError",
    "ErrorCode",
    "UserError",
    "UserSafeErrors",
    "api_error_from",
    "errors_in_payload",
    "user_error_from",
    "user_safe",
]

log = logging.getLogger("hippograph.gql")

RETRY_AFTER_S = 5


@strawberry.enum(description="Machine-readable error codes (also in `extensions.code`).")
class ErrorCode(Enum):
    BAD_INPUT = strawberry.enum_value(
        "BAD_INPUT", description="The request or one of its arguments was rejected; fix it."
    )
    NOT_FOUND = strawberry.enum_value(
        "NOT_FOUND", description="The named entity, fact, job or candidate does not exist."
    )
    FORBIDDEN = strawberry.enum_value(
        "FORBIDDEN", description="The API key may not read or write this agent."
    )
    RATE_LIMITED = strawberry.enum_value(
        "RATE_LIMITED", description="Too many requests for this API key; retry later."
    )
    UNAVAILABLE = strawberry.enum_value(
        "UNAVAILABLE", description="Neo4j (or a provider) is unreachable; retry after a delay."
    )
    IN_PROGRESS = strawberry.enum_value(
        "IN_PROGRESS",
        description="A write with this idempotency key is still running; retry after "
        "`retryAfterSeconds` (the same result comes back once it is done).",
    )
    EMBEDDER_MISMATCH = strawberry.enum_value(
        "EMBEDDER_MISMATCH",
        description="The agent's stored vectors come from another embedding model than the "
        "server's, so nothing was read or written; an operator runs `hippograph reembed "
        "--agent ID` or configures the agent's model.",
    )
    INTERNAL = strawberry.enum_value(
        "INTERNAL", description="An unexpected server error (details are logged, not returned)."
    )


class ApiError(Exception):
    """An error whose message is safe to show to the client."""

    def __init__(self, code: ErrorCode, message: str, **extensions: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extensions = extensions

    def as_extensions(self) -> dict[str, Any]:
        return {"code": self.code.value, **self.extensions}


def api_error_from(exc: BaseException) -> ApiError | None:
    """Map a known exception to a user-safe error; ``None`` for anything unexpected."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, SubscriberLagging):  # not an outage: resume from the last cursor now
        return ApiError(ErrorCode.UNAVAILABLE, str(exc), reason="lagging", retryAfterSeconds=0)
    if isinstance(exc, GraphUnavailable):
        return ApiError(
            ErrorCode.UNAVAILABLE,
            f"The memory store is unavailable; retry in {RETRY_AFTER_S} seconds.",
            retryAfterSeconds=RETRY_AFTER_S,
        )
    if isinstance(exc, WriteInProgress):
        return ApiError(
            ErrorCode.IN_PROGRESS, str(exc), retryAfterSeconds=max(1, round(exc.retry_after_s))
        )
    if isinstance(exc, EmbedderMismatch):
        return ApiError(
            ErrorCode.EMBEDDER_MISMATCH,
            str(exc),
            agentEmbedder=exc.recorded,
            serverEmbedder=exc.current,
        )
    if isinstance(exc, NotFound):
        return ApiError(ErrorCode.NOT_FOUND, str(exc) or "not found")
    if isinstance(exc, BadInput):
        return ApiError(ErrorCode.BAD_INPUT, str(exc) or "bad input")
    return None


@strawberry.type(description="A problem with one mutation, safe to show to an end user.")
class UserError:
    code: ErrorCode = strawberry.field(description="Machine-readable error code.")
    message: str = strawberry.field(description="Human-readable explanation.")
    field: str | None = strawberry.field(
        default=None, description="The input field at fault, when there is one."
    )


def user_error_from(exc: Exception, field: str | None = None) -> UserError:
    """A payload error for a mutation; unexpected exceptions are logged and masked."""
    known = api_error_from(exc)
    if known is None:
        log.exception("internal error in mutation", exc_info=exc)
        return UserError(code=ErrorCode.INTERNAL, message="Internal error.", field=field)
    return UserError(code=known.code, message=known.message, field=field)


class HasErrors(Protocol):
    errors: list[UserError]


P = TypeVar("P", bound=HasErrors)


def errors_in_payload(
    payload: Callable[..., P],
) -> Callable[[Callable[..., Awaitable[P]]], Callable[..., Awaitable[P]]]:
    """Mutation resolvers return ``payload(errors=[...])`` for any exception they raise:
    bad input, missing nodes and an unreachable Neo4j get their code, anything else is logged
    and reported as ``INTERNAL`` (never a traceback). Every other payload field defaults to
    its "nothing happened" value."""

    def decorate(resolver: Callable[..., Awaitable[P]]) -> Callable[..., Awaitable[P]]:
        @functools.wraps(resolver)
        async def wrapped(*args: Any, **kwargs: Any) -> P:
            try:
                return await resolver(*args, **kwargs)
            except Exception as exc:
                return payload(errors=[user_error_from(exc)])

        return wrapped

    return decorate


def _coded(error: GraphQLError) -> GraphQLError | None:
    """The error with a code, or None when it must be masked."""
    original = error.original_error
    if original is None:
        # Parse and validation errors (depth, aliases, cost, unknown fields): about the document.
        ext = dict(error.extensions or {})
        ext.setdefault("code", ErrorCode.BAD_INPUT.value)
        return GraphQLError(
            error.message, error.nodes, error.source, error.positions, error.path, None, ext
        )
    if isinstance(original, GraphQLError) and error.path is None:
        # Raised while coercing variables (e.g. an enum value that does not exist): the
        # request is wrong, not the server.
        ext = dict(original.extensions or {})
        ext.setdefault("code", ErrorCode.BAD_INPUT.value)
        return GraphQLError(
            original.message, error.nodes, error.source, error.positions, None, None, ext
        )
    if isinstance(original, GraphQLError) and (original.extensions or {}).get("code"):
        return GraphQLError(
            original.message,
            error.nodes,
            error.source,
            error.positions,
            error.path,
            None,
            original.extensions,
        )
    known = api_error_from(original)
    if known is not None:
        return GraphQLError(
            known.message,
            error.nodes,
            error.source,
            error.positions,
            error.path,
            None,
            known.as_extensions(),
        )
    return None


INTERNAL_MESSAGE = "Internal error."


def user_safe(error: GraphQLError) -> GraphQLError:
    """The error a client may see: coded when we raised it on purpose, otherwise logged here
    with its traceback and replaced by ``Internal error.`` with code ``INTERNAL``."""
    coded = _coded(error)
    if coded is not None:
        return coded
    log.error("internal error at %s", error.path, exc_info=error.original_error)
    return GraphQLError(
        INTERNAL_MESSAGE,
        error.nodes,
        error.source,
        error.positions,
        error.path,
        None,
        {"code": ErrorCode.INTERNAL.value},
    )


class UserSafeErrors(SchemaExtension):
    """Every error of an operation's result through :func:`user_safe`, on strawberry's public
    ``on_operation`` hook (after parsing, validation and execution, before the response), and
    of each result a subscription streams (``on_stream_result``, before it is sent)."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None and result.errors:
            result.errors = [user_safe(error) for error in result.errors]

    def on_stream_result(self, result: Any) -> Iterator[None]:
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = [user_safe(error) for error in errors]
        yield
