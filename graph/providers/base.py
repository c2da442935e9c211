"""Provider protocols and the small value types they exchange."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "ChatLLM",
    "Embedder",
    "LLMError",
    "LLMResponse",
    "TextKeys",
    "TokenUsage",
    "embed_queries",
    "read_options",
    "similarity_floor",
]


class TextKeys:
    """Keys of an in-process cache by text that hold no text: a BLAKE2b digest of the text
    under a random key drawn per cache (so neither the text nor a guess of it can be read from
    the cache's keys). An erase clears the caches of the process that runs it."""

    def __init__(self) -> None:
        self._secret = secrets.token_bytes(32)

    def __call__(self, text: str) -> bytes:
        data = text.encode("utf-8", "surrogatepass")
        return hashlib.blake2b(data, key=self._secret, digest_size=16).digest()


class LLMError(Exception):
    """The LLM call failed (timeout, transport, refusal, unusable output) after retries."""

    job_error_code = "LLM_UNAVAILABLE"  # a failed job's ``last_error_code``


@dataclass
class TokenUsage:
    input: int = 0
    output: int = 0
    calls: int = 0

    @property
    def total(self) -> int:
        return self.input + self.output

    def add(self, other: TokenUsage) -> None:
        self.input += other.input
        self.output += other.output
        self.calls += other.calls


@dataclass(frozen=True)
class LLMResponse:
    """One chat completion: the raw text, its parsed JSON (None when it was not JSON), usage."""

    text: str
    data: Any
    usage: TokenUsage
    model: str


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors of a fixed dimension."""

    name: str
    dimensions: int

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, same order."""
        ...


async def embed_queries(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Vectors for search queries: the embedder's ``embed_query`` when it has one (models
    trained with query/passage prefixes, e.g. e5), else ``embed``."""
    embed_query = getattr(embedder, "embed_query", None)
    if embed_query is not None:
        vectors: list[list[float]] = await embed_query(texts)
        return vectors
    return await embedder.embed(texts)


def similarity_floor(embedder: Embedder) -> float:
    """The cosine the embedder gives unrelated texts (``similarity_floor`` when it declares
    one, else 0): similarities are read above it (``ranking.calibrate``, the write
    thresholds' ``WriteConfig.on_scale``)."""
    return float(getattr(embedder, "similarity_floor", 0.0))


def read_options(embedder: object) -> dict[str, float]:
    """The retrieve options an embedder's scale sets (an instance or its class): the floor its
    questions meet unrelated text at (``query_floor``, else ``similarity_floor``) and its
    cross-lingual cosine gap (``language_gap``)."""
    floor = float(getattr(embedder, "similarity_floor", 0.0))
    return {
        "semantic_floor": float(getattr(embedder, "query_floor", floor)),
        "language_gap": float(getattr(embedder, "language_gap", 0.0)),
    }


@runtime_checkable
class ChatLLM(Protocol):
    """An OpenAI-compatible chat model used for structured (JSON) calls, one per stage."""

    name: str

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        *,
        schema: dict[str, Any] | None = None,
        timeout_s: float | None = None,
    ) -> LLMResponse:
        """Ask for a JSON answer. ``data`` is the parsed object or None when unparseable.

        Raises:
            LLMError: transport failure or timeout after the configured retries.
        """
        ...
