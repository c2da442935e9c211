"""LLM rerank of the top of the formula ranking through the injected ``ChatLLM``.

One JSON call (prompt ``graph/memory/prompts/rerank.v1.md``) scores each fact of the pool in
0..1. Any failure — timeout (``reranker_timeout_s``, enforced with ``asyncio.wait_for``),
transport error, unparseable answer — returns None and the caller keeps the formula order.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graph.memory import prompts
from graph.memory.read.models import ScoredFact
from graph.providers.base import ChatLLM, LLMError, TokenUsage

__all__ = ["RerankOutcome", "parse_scores", "rerank"]

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


async def rerank(llm: ChatLLM, query: str, pool: Sequence[ScoredFact],
                 timeout_s: float) -> RerankOutcome:
    """Ask the LLM to score every fact of ``pool`` for ``query``."""
    if not pool:
        return RerankOutcome(scores={}, status="ok")
    system = prompts.load("rerank")
    user = json.dumps(
        {"question": query, "facts": [{"i": i, "text": f.text} for i, f in enumerate(pool)]},
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
        return RerankOutcome(scores=None, status="unparseable", usage=response.usage,
                             detail=(response.text or "")[:200])
    return RerankOutcome(scores={pool[i].id: s for i, s in parsed.items()}, status="ok",
                         usage=response.usage)
