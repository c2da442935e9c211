"""Pure pieces of the peers benchmark: reciprocal-rank fusion, percentiles, scaled copies."""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Sequence

import numpy as np

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


# How far a copy's vector moves from its original's: cos(copy, original) = 1 / sqrt(1 + s²)
# ≈ 0.96. Not zero on purpose: thousands of IDENTICAL vectors (55 per fact at 10k) split
# Lucene's HNSW graph into islands the search cannot leave, so the index returned 31 of
# 6,575 matching rows and every signal over-fetched three extra rounds: a benchmark
# artifact no real memory has. Near-copies keep the latency run realistic and identical
# for every ranker (Graphiti is handed the same vectors).
COPY_SPREAD = 0.3


def copy_vector(vector: Sequence[float], text: str, spread: float = COPY_SPREAD) -> list[float]:
    """The vector of a latency-only copy: its original's plus a unit noise direction seeded by
    the copy's text (deterministic), scaled by ``spread``, renormalised."""
    base = np.asarray(vector, dtype=np.float64)
    rng = np.random.default_rng(zlib.crc32(text.encode("utf-8")))
    noise = rng.standard_normal(base.shape[0])
    noise *= spread * (float(np.linalg.norm(base)) or 1.0) / (float(np.linalg.norm(noise)) or 1.0)
    out = base + noise
    return [round(float(x), 6) for x in out / (float(np.linalg.norm(out)) or 1.0)]


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
