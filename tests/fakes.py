"""Real fakes for tests (no MagicMock): a scripted OpenAI-compatible endpoint served through the
real ``openai`` client via ``httpx.MockTransport``, and a recording executor."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, LiteralString, TypeVar

import httpx
import openai

from graph.executor import Executor, Transaction
from graph.providers import OpenAIChat

Reply = str | dict[str, Any] | Exception | Callable[[dict[str, Any]], Any]


def chat_completion(
    completion_id: str, model: str, content: str, prompt_tokens: int, completion_tokens: int
) -> dict[str, Any]:
    """An OpenAI ``chat.completion`` response body: one choice, the assistant's ``content``."""
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


@dataclass
class ScriptedLLM:
    """Answers chat-completion requests from a script.

    ``replies`` is consumed in order (a dict is sent as JSON content, a str as raw content, an
    exception such as ``httpx.ReadTimeout`` is raised by the transport, a callable receives the
    request body and returns one of those). ``by_stage`` maps a keyword found in the system
    prompt to its own queue, so concurrent stages can be scripted independently. Every request
    body is kept in ``requests``.
    """

    replies: list[Reply] = field(default_factory=list)
    by_stage: dict[str, list[Reply]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 100
    completion_tokens: int = 50

    def _next(self, body: dict[str, Any]) -> Reply:
        system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
        for key, queue in self.by_stage.items():
            if key in system and queue:
                return queue.pop(0)
        if not self.replies:
            raise AssertionError(f"ScriptedLLM ran out of replies; system prompt: {system[:200]}")
        return self.replies.pop(0)

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        reply = self._next(body)
        if callable(reply) and not isinstance(reply, Exception):
            reply = reply(body)
        if isinstance(reply, Exception):
            raise reply
        content = reply if isinstance(reply, str) else json.dumps(reply)
        return httpx.Response(
            200,
            json=chat_completion(
                f"chatcmpl-{len(self.requests)}",
                body.get("model", "scripted"),
                content,
                self.prompt_tokens,
                self.completion_tokens,
            ),
        )

    def client(self) -> openai.AsyncOpenAI:
        transport = httpx.MockTransport(self.handler)
        return openai.AsyncOpenAI(
            api_key="test",
            base_url="http://scripted.invalid/v1",
            max_retries=0,
            http_client=httpx.AsyncClient(transport=transport),
        )

    def chat(self, *, timeout_s: float = 5.0, max_retries: int = 0) -> OpenAIChat:
        return OpenAIChat(
            self.client(),
            lambda stage: f"scripted-{stage}",
            timeout_s=timeout_s,
            max_retries=max_retries,
            base_delay_s=0.01,
        )

    @property
    def calls(self) -> int:
        return len(self.requests)


T = TypeVar("T")


class WrappedExecutor:
    """An :class:`Executor` that forwards to another one and counts round trips; tests
    subclass it to observe or disturb calls (the executor protocol is wrapped, not
    subclassed)."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.round_trips = 0

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.round_trips += 1
        return await self.inner.run(name, params, read=read)

    async def run_text(
        self, query: LiteralString, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.round_trips += 1
        return await self.inner.run_text(query, params, read=read)

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.round_trips += 1
        return await self.inner.write(work)

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.round_trips += 1
        return await self.inner.read(work)

    async def ping(self) -> bool:
        return await self.inner.ping()

    async def close(self) -> None:  # the wrapped executor belongs to whoever made it
        return None


class RecordingExecutor(WrappedExecutor):
    """An executor over the real driver that records every statement name and round trip:
    ``names`` the statements run on their own, ``statements`` those and every statement of
    the units of work (transactions), in order."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.names: list[str] = []
        self.statements: list[str] = []

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.names.append(name)
        self.statements.append(name)
        return await super().run(name, params, read=read)

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await super().write(self._recorded(work))

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        return await super().read(self._recorded(work))

    def _recorded(
        self, work: Callable[[Transaction], Awaitable[T]]
    ) -> Callable[[Transaction], Awaitable[T]]:
        async def recorded(tx: Transaction) -> T:
            start = len(tx.statements)
            try:
                return await work(tx)
            finally:
                self.statements += tx.statements[start:]

        return recorded

    def reset(self) -> None:
        self.names.clear()
        self.statements.clear()
        self.round_trips = 0


class AccessRecorder(WrappedExecutor):
    """Records (statement, access mode) of every call."""

    def __init__(self, inner: Executor) -> None:
        super().__init__(inner)
        self.calls: list[tuple[str, str]] = []

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.calls.append((name, "read" if read else "write"))
        return await super().run(name, params, read=read)

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.calls.append(("<unit of work>", "write"))
        return await super().write(work)

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.calls.append(("<unit of work>", "read"))
        return await super().read(work)
