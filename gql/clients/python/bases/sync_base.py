"""The sync client's base (ariadne-codegen copies it into the generated package): sends each
operation with the API key, retries as :mod:`hippograph_client.transport` decides, and turns
the answer into data or a typed error."""

from __future__ import annotations

import time
from typing import Any

import httpx
from hippograph_client.transport import (
    Answer,
    RetryPolicy,
    failure_delay,
    is_idempotent,
    jsonable,
    parse_body,
    read_answer,
    retry_delay,
    transport_error,
)

from .base_model import UNSET


class SyncBase:
    """``url`` is the GraphQL endpoint (``http://127.0.0.1:8000/graphql``); ``api_key`` goes
    in ``Authorization: Bearer``; ``http_client`` replaces the default ``httpx.Client``."""

    def __init__(
        self,
        url: str = "http://127.0.0.1:8000/graphql",
        api_key: str | None = None,
        headers: dict[str, str] | None = None,
        http_client: httpx.Client | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.url = url
        self.headers = dict(headers or {})
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"
        self.http_client = http_client or httpx.Client(timeout=timeout)
        self.retry = retry or RetryPolicy()

    def __enter__(self) -> SyncBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.http_client.close()

    def execute(
        self,
        query: str,
        operation_name: str | None = None,
        variables: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Answer:
        sent = {k: jsonable(v) for k, v in (variables or {}).items() if v is not UNSET}
        payload = {"query": query, "operationName": operation_name, "variables": sent}
        idempotent = is_idempotent(query, sent)
        attempt = 1
        while True:
            try:
                reply = self.http_client.post(
                    self.url, json=payload, headers=self.headers, **kwargs
                )
            except httpx.TransportError as exc:
                connected = not isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
                delay = failure_delay(self.retry, attempt, connected, idempotent)
                if delay is None:
                    raise transport_error(exc) from exc
            else:
                answer = Answer(reply.status_code, reply.headers, parse_body(reply.text))
                delay = retry_delay(self.retry, attempt, answer, idempotent)
                if delay is None:
                    return answer
            time.sleep(delay)
            attempt += 1

    def get_data(self, response: Answer) -> dict[str, Any]:
        return read_answer(response)
