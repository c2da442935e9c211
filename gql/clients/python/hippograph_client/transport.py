"""What the clients decide, apart from any I/O: what a call sends and what each attempt's
outcome means (:class:`Exchange`), whether to retry and after how long (:func:`retry_delay`,
:func:`failure_delay`), and what the answer means (:func:`read_answer`: the data, or the typed
error to raise). The async and sync bases (:class:`ClientBase`) only send and sleep.

Retrying never writes twice: an answer refused before the operation ran (HTTP 429 / 503, or a
``RATE_LIMITED`` error) is retried for any operation; ``UNAVAILABLE`` and ``IN_PROGRESS`` met
while a mutation ran are retried only when the mutation carries an ``idempotencyKey`` (the
service then answers the first result instead of writing again). Whether an operation is a
mutation is read from the parsed document (:func:`operation_type`), never from its first word:
a document may begin with a comment or a fragment."""

from __future__ import annotations

import email.utils
import json
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

import httpx
from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from hippograph_client.errors import HippographError, TransportError, error_from

__all__ = [
    "NO_RETRY",
    "Answer",
    "ClientBase",
    "Exchange",
    "RetryPolicy",
    "failure_delay",
    "is_idempotent",
    "jsonable",
    "operation_type",
    "parse_body",
    "read_answer",
    "retry_delay",
    "transport_error",
]

REFUSED_BEFORE_RUNNING = {429, 503}
RETRY_ALWAYS = {"RATE_LIMITED"}
RETRY_IF_IDEMPOTENT = {"UNAVAILABLE", "IN_PROGRESS"}


@dataclass(frozen=True)
class RetryPolicy:
    """How hard the client tries: ``attempts`` calls at most; between them the delay the
    service asked for (``Retry-After`` / ``retryAfterSeconds``) or else exponential backoff
    from ``backoff`` seconds with jitter, never longer than ``max_delay``."""

    attempts: int = 5
    backoff: float = 0.5
    max_delay: float = 30.0

    def backoff_delay(self, attempt: int) -> float:
        """Attempt 1 waits about ``backoff``, each next one twice as long (±25 %)."""
        delay = self.backoff * 2 ** (attempt - 1)
        return min(self.max_delay, delay * random.uniform(0.75, 1.25))


NO_RETRY = RetryPolicy(attempts=1)


@dataclass(frozen=True)
class Answer:
    """One HTTP answer as the decisions need it."""

    status_code: int
    headers: Mapping[str, str]
    body: Any  # the parsed JSON, or None when it was not JSON


@lru_cache(maxsize=256)
def operation_type(query: str, operation_name: str | None = None) -> OperationType | None:
    """The type of the operation ``query`` runs: the one named ``operation_name``, else its only
    operation; with several and no name, a mutation if any of them is one (it may be the one
    that runs). None when the document cannot be read or has no such operation (the service
    refuses it, but nothing here assumes it is safe to send again)."""
    try:
        document = parse(query, no_location=True)
    except GraphQLError:
        return None
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if operation_name is not None:
        operations = [o for o in operations if o.name and o.name.value == operation_name]
    if not operations:
        return None
    if any(o.operation is OperationType.MUTATION for o in operations):
        return OperationType.MUTATION
    return operations[0].operation


def is_idempotent(
    query: str, variables: Mapping[str, Any] | None, operation_name: str | None = None
) -> bool:
    """A query, or a mutation sent with an idempotency key (a document that cannot be read
    counts as a mutation)."""
    if operation_type(query, operation_name) in (OperationType.QUERY, OperationType.SUBSCRIPTION):
        return True
    return bool((variables or {}).get("idempotencyKey"))


def _errors(body: Any) -> list[dict[str, Any]]:
    """Top-level errors, then the errors of every mutation payload (``{..., errors: [...]}``)."""
    if not isinstance(body, dict):
        return []
    found = [e for e in body.get("errors") or [] if isinstance(e, dict)]
    for value in (body.get("data") or {}).values():
        if isinstance(value, dict) and isinstance(value.get("errors"), list):
            found += [e for e in value["errors"] if isinstance(e, dict)]
    return found


def _code(error: dict[str, Any]) -> str:
    return str(error.get("code") or (error.get("extensions") or {}).get("code") or "")


def _asked_delay(answer: Answer, errors: list[dict[str, Any]]) -> float | None:
    """The wait the service asked for: the ``Retry-After`` header (seconds or an HTTP date),
    else an error's ``retryAfterSeconds``."""
    header = {k.lower(): v for k, v in answer.headers.items()}.get("retry-after")
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(header)
            return max(0.0, parsed.timestamp() - time.time())
    for error in errors:
        value = (error.get("extensions") or {}).get("retryAfterSeconds")
        if isinstance(value, int | float):
            return max(0.0, float(value))
    return None


def retry_delay(
    policy: RetryPolicy, attempt: int, answer: Answer, idempotent: bool
) -> float | None:
    """Seconds to wait before attempt ``attempt + 1``, or None to stop here."""
    if attempt >= policy.attempts:
        return None
    errors = _errors(answer.body)
    codes = {_code(e) for e in errors}
    refused = answer.status_code in REFUSED_BEFORE_RUNNING or bool(codes & RETRY_ALWAYS)
    if not refused and not (idempotent and codes & RETRY_IF_IDEMPOTENT):
        return None
    asked = _asked_delay(answer, errors)
    if asked is None:
        return policy.backoff_delay(attempt)
    return min(policy.max_delay, asked)


def read_answer(answer: Answer) -> dict[str, Any]:
    """The answer's ``data``; raises the typed error of its first error (top-level, else a
    mutation payload's), or :class:`TransportError` when it is no GraphQL answer."""
    body = answer.body
    if not isinstance(body, dict) or ("data" not in body and "errors" not in body):
        raise TransportError(
            f"HTTP {answer.status_code}: not a GraphQL answer", status_code=answer.status_code
        )
    errors = _errors(body)
    if errors:
        raise error_from(
            errors[0], errors=errors, data=body.get("data"), status_code=answer.status_code
        )
    if not 200 <= answer.status_code < 300 or body.get("data") is None:
        raise TransportError(
            f"HTTP {answer.status_code} without data", status_code=answer.status_code
        )
    data: dict[str, Any] = body["data"]
    return data


def transport_error(exc: Exception) -> HippographError:
    """A connection failure as the client's error type."""
    return TransportError(f"{type(exc).__name__}: {exc}")


def failure_delay(
    policy: RetryPolicy, attempt: int, connected: bool, idempotent: bool
) -> float | None:
    """Seconds to wait after a connection failure, or None to give up: a request that never
    reached the service (``connected`` False) is retried for any operation, one that may have
    reached it only when it is idempotent."""
    if attempt >= policy.attempts or (connected and not idempotent):
        return None
    return policy.backoff_delay(attempt)


def parse_body(text: str) -> Any:
    """The JSON of an answer, or None."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def jsonable(value: Any) -> Any:
    """A variable's JSON form: input objects by their GraphQL names (fields never set left
    out), datetimes in ISO 8601."""
    if isinstance(value, BaseModel):
        return value.model_dump(by_alias=True, exclude_unset=True, mode="json")
    if isinstance(value, list):
        return [jsonable(item) for item in value]
    return to_jsonable_python(value)


class Exchange:
    """One operation's attempts without the I/O: :attr:`payload` is what each attempt posts;
    :meth:`answered` and :meth:`failed` take an attempt's outcome and give the final
    :class:`Answer` or the seconds to wait before the next attempt (``failed`` raises the
    :class:`TransportError` when there is none). Variables equal to ``unset`` are left out."""

    def __init__(
        self,
        policy: RetryPolicy,
        query: str,
        operation_name: str | None,
        variables: Mapping[str, Any] | None,
        unset: Any = None,
    ) -> None:
        sent = {k: jsonable(v) for k, v in (variables or {}).items() if v is not unset}
        self.payload = {"query": query, "operationName": operation_name, "variables": sent}
        self.policy = policy
        self.idempotent = is_idempotent(query, sent, operation_name)
        self.attempt = 1

    def answered(self, status_code: int, headers: Mapping[str, str], text: str) -> Answer | float:
        answer = Answer(status_code, headers, parse_body(text))
        delay = retry_delay(self.policy, self.attempt, answer, self.idempotent)
        self.attempt += 1
        return answer if delay is None else delay

    def failed(self, exc: httpx.TransportError) -> float:
        connected = not isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
        delay = failure_delay(self.policy, self.attempt, connected, self.idempotent)
        if delay is None:
            raise transport_error(exc) from exc
        self.attempt += 1
        return delay


HttpClient = TypeVar("HttpClient", httpx.Client, httpx.AsyncClient)


class ClientBase(Generic[HttpClient]):
    """What both bases hold: ``url`` is the GraphQL endpoint
    (``http://127.0.0.1:8000/graphql``); ``api_key`` goes in ``Authorization: Bearer``;
    ``http_client`` replaces the default httpx client; ``retry`` is the :class:`RetryPolicy`."""

    http_client_type: type[HttpClient]

    def __init__(
        self,
        url: str = "http://127.0.0.1:8000/graphql",
        api_key: str | None = None,
        headers: dict[str, str] | None = None,
        http_client: HttpClient | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.url = url
        self.headers = dict(headers or {})
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        self.http_client: HttpClient = http_client or self.http_client_type(timeout=timeout)
        self.retry = retry or RetryPolicy()

    def get_data(self, response: Answer) -> dict[str, Any]:
        return read_answer(response)
