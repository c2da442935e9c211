"""The service's error codes as exceptions: every error a call can meet is a
:class:`HippographError` whose subclass names its code, so callers catch what they can handle
(``except RateLimited``) and let the rest rise."""

from __future__ import annotations

from typing import Any

__all__ = [
    "BadInput",
    "EmbedderMismatch",
    "Forbidden",
    "HippographError",
    "InProgress",
    "Internal",
    "NotFound",
    "RateLimited",
    "TransportError",
    "Unavailable",
    "error_from",
]


class HippographError(Exception):
    """An error answered by the service (or met on the way to it).

    ``code`` is the service's machine-readable code (``extensions.code``), ``extensions`` the
    rest of what it said (e.g. ``retryAfterSeconds``), ``field`` the input at fault when a
    mutation named one, ``errors`` every error of the answer and ``data`` what the answer held
    besides (a mutation's payload, partial query data)."""

    code = "INTERNAL"

    def __init__(
        self,
        message: str,
        *,
        extensions: dict[str, Any] | None = None,
        field: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        data: Any = None,
        status_code: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.extensions = extensions or {}
        self.field = field
        self.errors = errors or []
        self.data = data
        self.status_code = status_code

    @property
    def retry_after(self) -> float | None:
        """Seconds the service asked to wait before retrying, when it said."""
        value = self.extensions.get("retryAfterSeconds")
        return float(value) if isinstance(value, int | float) else None


class BadInput(HippographError):
    """The request or one of its arguments was rejected; fix it (not retried)."""

    code = "BAD_INPUT"


class NotFound(HippographError):
    """The named entity, fact, job or candidate does not exist."""

    code = "NOT_FOUND"


class Forbidden(HippographError):
    """The API key is missing, unknown, or may not use this agent."""

    code = "FORBIDDEN"


class RateLimited(HippographError):
    """Too many requests for this key (retried by the client until its attempts run out)."""

    code = "RATE_LIMITED"


class Unavailable(HippographError):
    """Neo4j or a provider is unreachable (retried when retrying cannot write twice)."""

    code = "UNAVAILABLE"


class InProgress(HippographError):
    """A write with this idempotency key is still running (retried: the same result comes
    back once it is done)."""

    code = "IN_PROGRESS"


class EmbedderMismatch(HippographError):
    """The agent's vectors come from another embedding model than the server's."""

    code = "EMBEDDER_MISMATCH"


class Internal(HippographError):
    """An unexpected server error (details are in the server's log, not here)."""

    code = "INTERNAL"


class TransportError(HippographError):
    """No usable answer: the connection failed, or the reply was not a GraphQL response."""

    code = "TRANSPORT"


_BY_CODE: dict[str, type[HippographError]] = {
    cls.code: cls
    for cls in (
        BadInput,
        NotFound,
        Forbidden,
        RateLimited,
        Unavailable,
        InProgress,
        EmbedderMismatch,
        Internal,
    )
}


def error_from(
    error: dict[str, Any],
    *,
    errors: list[dict[str, Any]] | None = None,
    data: Any = None,
    status_code: int | None = None,
) -> HippographError:
    """The exception for one GraphQL error (top-level ``{message, extensions}`` or a mutation
    payload's ``{code, message, field}``); an unknown code becomes :class:`HippographError`
    with that code."""
    extensions = dict(error.get("extensions") or {})
    code = str(error.get("code") or extensions.get("code") or "INTERNAL")
    cls = _BY_CODE.get(code, HippographError)
    exc = cls(
        str(error.get("message") or code),
        extensions=extensions,
        field=error.get("field"),
        errors=errors if errors is not None else [error],
        data=data,
        status_code=status_code,
    )
    exc.code = code
    return exc
