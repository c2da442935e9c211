"""The sync client's base (ariadne-codegen copies it into the generated package): posts
each attempt of an operation and waits between them; what to send, whether to retry and what
the answer means are :mod:`hippograph_client.transport`'s."""

from __future__ import annotations

import time
from typing import Any

import httpx
from hippograph_client.transport import Answer, ClientBase, Exchange

from .base_model import UNSET


class SyncBase(ClientBase[httpx.Client]):
    """The sync client: :class:`~hippograph_client.transport.ClientBase`'s settings over an
    ``httpx.Client``."""

    http_client_type = httpx.Client

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
        call = Exchange(self.retry, query, operation_name, variables, unset=UNSET)
        while True:
            try:
                reply = self.http_client.post(
                    self.url, json=call.payload, headers=self.headers, **kwargs
                )
            except httpx.TransportError as exc:
                step: Answer | float = call.failed(exc)
            else:
                step = call.answered(reply.status_code, reply.headers, reply.text)
            if isinstance(step, Answer):
                return step
            time.sleep(step)
