"""Second stages over the top of the formula ranking.

``rerank``: LLM rerank through the injected ``ChatLLM``. One JSON call (prompt
``graph/memory/prompts/rerank.v1.md``) scores each fact of the pool in 0..1. Any failure —
timeout (``reranker_timeout_s``, enforced with ``asyncio.wait_for``), transport error,
unparseable answer — returns None and the caller keeps the formula order.

``EmbeddingRescorer``: offline re-scoring with a second, better embedder (e5, optional extra):
the query and the pool's facts are embedded with it (query/passage prefixes) and its cosine is
blended into each fact's semantic score (``blend_semantic``); the formula then runs again. Fact
vectors are cached in process by a keyed digest of the text (a fact's text does not change; the
cache holds no text), bounded; an erase clears it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graph.memory import prompts
from graph.memory.read.models import ScoredFact
from graph.providers.base import (
    ChatLLM,
    Embedder,
    LLMError,
    TextKeys,
    TokenUsage,
    embed_queries,
)

__all__ = [
    "EmbeddingRescorer",
    "RerankOutcome",
    "RescoreOutcome",
    "blend_semantic",
    "parse_scores",
    "rerank",
]

_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "scores": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"i": {"type": "integer"}, "score": {"type": "number"}},
                "required": ["i", "score"],
            },
        }
    },
    "required": ["scores"],
}


@dataclass
class RerankOutcome:
    """Scores by fact id (None when the rerank failed) and why."""

    scores: dict[str, float] | None
    status: str  # "ok" | "timeout" | "error" | "unparseable"
    usage: TokenUsage = field(default_factory=TokenUsage)
    detail: str = ""


def _as_score(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    if number != number:  # NaN
        return None
    return max(0.0, min(1.0, number))


def parse_scores(data: Any, size: int) -> dict[int, float] | None:
    """Accept ``{"scores": [{"i", "score"}]}``, ``{"scores": [0.1, ...]}`` or ``{"0": 0.1}``."""
    if isinstance(data, dict) and "scores" in data:
        data = data["scores"]
    out: dict[int, float] = {}
    if isinstance(data, list):
        for pos, item in enumerate(data):
            if isinstance(item, dict):
                idx = item.get("i", item.get("index", item.get("id")))
                score = _as_score(item.get("score", item.get("relevance")))
                if isinstance(idx, int) and not isinstance(idx, bool) and score is not None:
                    out[idx] = score
            else:
                score = _as_score(item)
                if score is not None:
                    out[pos] = score
    elif isinstance(data, dict):
        for key, value in data.items():
            score = _as_score(value)
            if str(key).isdigit() and score is not None:
                out[int(key)] = score
    valid = {i: s for i, s in out.items() if 0 <= i < size}
    return valid or None


async def rerank(
    llm: ChatLLM, query: str, pool: Sequence[ScoredFact], timeout_s: float
) -> RerankOutcome:
    """Ask the LLM to score every fact of ``pool`` for ``query``."""
    if not pool:
        return RerankOutcome(scores={}, status="ok")
    system = prompts.load("rerank")
    user = json.dumps(
        {
            "question": query,
            "facts": [{"i": i, "text": prompts.clip(f.text)} for i, f in enumerate(pool)],
        },
        ensure_ascii=False,
    )
    try:
        response = await asyncio.wait_for(
            llm.complete_json("rerank", system, user, schema=_SCHEMA, timeout_s=timeout_s),
            timeout=timeout_s,
        )
    except TimeoutError:
        return RerankOutcome(scores=None, status="timeout", detail=f"> {timeout_s}s")
    except LLMError as exc:
        return RerankOutcome(scores=None, status="error", detail=str(exc)[:200])
    parsed = parse_scores(response.data, len(pool))
    if parsed is None:
        return RerankOutcome(
            scores=None,
            status="unparseable",
            usage=response.usage,
            detail=(response.text or "")[:200],
        )
    return RerankOutcome(
        scores={pool[i].id: s for i, s in parsed.items()}, status="ok", usage=response.usage
    )


@dataclass
class RescoreOutcome:
    """Second-embedder cosines by fact id, how many fact texts had to be embedded (cache
    misses) and the time it took."""

    scores: dict[str, float]
    embedded: int
    ms: float


class EmbeddingRescorer:
    """Cosine of the query and each pool fact under a second embedder (``embed_queries`` for
    the query, ``embed`` for the facts). Fact vectors are kept in process by text, at most
    ``cache_size`` (oldest dropped first); ``warm`` fills the cache ahead of queries."""

    def __init__(self, embedder: Embedder, *, cache_size: int = 200_000) -> None:
        self.embedder = embedder
        self.name = embedder.name
        self.cache_size = cache_size
        self._cache: dict[bytes, np.ndarray] = {}  # by TextKeys digest: no text kept
        self._key = TextKeys()

    def clear_cache(self) -> None:
        """Drop every cached vector (an erase calls it: the vectors stood for erased text)."""
        self._cache.clear()

    async def _vectors(self, texts: Iterable[str]) -> int:
        missing = [t for t in dict.fromkeys(texts) if self._key(t) not in self._cache]
        if missing:
            for text, vec in zip(missing, await self.embedder.embed(missing), strict=True):
                self._cache[self._key(text)] = np.asarray(vec, dtype=np.float32)
            while len(self._cache) > self.cache_size:
                del self._cache[next(iter(self._cache))]
        return len(missing)

    async def warm(self, texts: Iterable[str]) -> int:
        """Embed the texts not cached yet; returns how many were embedded."""
        return await self._vectors(texts)

    async def similarities(self, query: str, pool: Sequence[ScoredFact]) -> RescoreOutcome:
        started = time.perf_counter()
        if not pool:
            return RescoreOutcome(scores={}, embedded=0, ms=0.0)
        (qvec,), embedded = await asyncio.gather(
            embed_queries(self.embedder, [query]), self._vectors(f.text for f in pool)
        )
        q = np.asarray(qvec, dtype=np.float32)
        keyed = ((f.id, self._cache.get(self._key(f.text))) for f in pool)
        scores = {fid: float(vec @ q) for fid, vec in keyed if vec is not None}
        return RescoreOutcome(
            scores=scores, embedded=embedded, ms=round((time.perf_counter() - started) * 1000.0, 2)
        )


def blend_semantic(pool: Sequence[ScoredFact], scores: Mapping[str, float], weight: float) -> int:
    """Blend second-embedder cosines into the pool's semantic scores:
    ``(1 − weight) × semantic + weight × matched``, where ``matched`` is the second cosine
    mapped onto the pool's semantic scale (same mean and spread within the pool: two models'
    cosines live on different scales, e5's are all high). Facts without a score keep theirs.
    Returns how many facts were blended. Pure; re-score afterwards."""
    have = [f for f in pool if f.id in scores]
    if weight <= 0.0 or len(have) < 2:
        return 0
    base = np.array([f.scores.semantic for f in have], dtype=np.float64)
    new = np.array([scores[f.id] for f in have], dtype=np.float64)
    spread = float(new.std())
    scale = float(base.std()) / spread if spread > 1e-9 else 0.0
    matched = base.mean() + (new - new.mean()) * scale
    for fact, value in zip(have, matched, strict=True):
        blended = (1.0 - weight) * fact.scores.semantic + weight * float(value)
        fact.scores.semantic = max(0.0, min(1.0, blended))
    return len(have)
