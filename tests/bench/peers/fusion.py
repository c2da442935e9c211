"""Pure pieces of the peers benchmark: reciprocal-rank fusion, percentiles, scaled copies."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

RRF_K = 60


def rrf(rankings: Iterable[Sequence[str]], *, k: int = RRF_K, limit: int = 20) -> list[str]:
    """Reciprocal-rank fusion: score(item) = sum over lists of 1 / (k + rank), rank from 1.

    Ties keep the order in which the items were first seen (first list first), so the result
    is deterministic.
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(dict.fromkeys(ranking), 1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores, key=lambda item: (-scores[item], order[item]))[:limit]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation between closest ranks; NaN if empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def copy_text(text: str, n: int) -> str:
    """The text of the n-th latency-only copy of a fact (n ≥ 1)."""
    return f"{text} (copy {n})"


def scaled_copies(items: Sequence[tuple[str, str]], target: int) -> list[tuple[str, str, str]]:
    """Pad ``items`` (id, text) up to ``target`` facts with suffixed copies, for latency runs.

    Returns (new id, text, id of the original) for the originals first (unchanged), then copies
    ``<id>-c<n>`` / ``"<text> (copy n)"`` round-robin over the originals until ``target``.
    """
    out = [(i, text, i) for i, text in items[:target]]
    n = 0
    while items and len(out) < target:
        n += 1
        for i, text in items:
            if len(out) >= target:
                break
            out.append((f"{i}-c{n}", copy_text(text, n), i))
    return out
