"""Chat LLM over the ``openai`` SDK: any OpenAI-compatible endpoint, JSON output, timeouts,
retries with exponential backoff, token accounting, and output hardening (``<think>`` blocks
and code fences stripped before parsing)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable
from typing import Any

from graph.providers.base import LLMError, LLMResponse, TokenUsage

__all__ = ["OpenAIChat", "parse_json_text"]

# Tags found by one linear scan and paired in Python: ``<think>.*?</think>`` would rescan the
# rest of the text from every unclosed ``<think>``.
_THINK_TAG = re.compile(r"</?think>", re.IGNORECASE)


def _drop_think(text: str) -> str:
    """``text`` without its ``<think>…</think>`` blocks (an unclosed block is kept)."""
    out: list[str] = []
    keep_from = 0
    open_at: int | None = None
    for tag in _THINK_TAG.finditer(text):
        if tag.group().startswith("</"):
            if open_at is not None:
                out.append(text[keep_from:open_at])
                keep_from, open_at = tag.end(), None
        elif open_at is None:
            open_at = tag.start()
    out.append(text[keep_from:])
    return "".join(out)


def _drop_fence(text: str) -> str:
    """A Markdown code fence (```json … ```) around the answer removed."""
    text = text.strip()
    if text.startswith("```"):
        text = text[3:]
        if text[:4].lower() == "json":
            text = text[4:]
    if text.endswith("```"):
        text = text[:-3]
    return text


def parse_json_text(text: str) -> Any:
    """Parse a model's JSON answer leniently; None when there is no JSON object in it."""
    cleaned = _drop_fence(_drop_think(text or "")).strip()
    if not cleaned:
        return None
    try:
        return json.loads(cleaned)
    except json.JSONDecodeError:
        pass
    start, end = cleaned.find("{"), cleaned.rfind("}")
    if 0 <= start < end:
        try:
            return json.loads(cleaned[start : end + 1])
        except json.JSONDecodeError:
            return None
    return None


class OpenAIChat:
    """``ChatLLM`` backed by ``openai.AsyncOpenAI`` (injected, so tests pass a client whose
    transport is an ``httpx.MockTransport``)."""

    def __init__(
        self,
        client: Any,
        model_for: Callable[[str], str],
        *,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        base_delay_s: float = 0.5,
    ) -> None:
        self._client = client
        self._model_for = model_for
        self._timeout = timeout_s
        self._retries = max_retries
        self._base_delay = base_delay_s
        self.name = model_for("extraction")

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        *,
        schema: dict[str, Any] | None = None,
        timeout_s: float | None = None,
    ) -> LLMResponse:
        import openai

        model = self._model_for(stage)
        response_format: dict[str, Any] = {"type": "json_object"}
        if schema is not None:
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": stage, "schema": schema, "strict": False},
            }
        timeout = timeout_s or self._timeout
        last: Exception | None = None
        for attempt in range(self._retries + 1):
            try:
                resp = await asyncio.wait_for(
                    self._client.chat.completions.create(
                        model=model,
                        messages=[
                            {"role": "system", "content": system},
                            {"role": "user", "content": user},
                        ],
                        response_format=response_format,
                        temperature=0,
                        timeout=timeout,
                    ),
                    timeout=timeout + 1.0,
                )
            except (
                TimeoutError,
                openai.APITimeoutError,
                openai.APIConnectionError,
                openai.RateLimitError,
                openai.InternalServerError,
            ) as exc:
                last = exc
                if attempt < self._retries:
                    delay = self._base_delay * (2**attempt)
                    await asyncio.sleep(delay + random.uniform(0, delay / 2))
                continue
            except openai.APIError as exc:  # 4xx: retrying will not help
                raise LLMError(f"{stage}: {type(exc).__name__}: {exc}") from exc
            text = (resp.choices[0].message.content or "") if resp.choices else ""
            usage = TokenUsage(calls=1)
            if resp.usage is not None:
                usage.input = int(resp.usage.prompt_tokens or 0)
                usage.output = int(resp.usage.completion_tokens or 0)
            return LLMResponse(text=text, data=parse_json_text(text), usage=usage, model=model)
        raise LLMError(f"{stage}: no answer after {self._retries + 1} attempts: {last!r}")
