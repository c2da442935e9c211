"""Agent-scoped nearest-neighbour reads of the write path (pure decisions, no I/O).

Entity resolution (nearest entities of a name) and reconciliation (nearest active facts of a
subject) must stay fast however much the agent knows. Two strategies, chosen per read:

* **exact scan** — ``vector.similarity.cosine`` over the agent's entities (or the subject's
  facts), found through a range index. Exact, and cheapest while the set is small; its cost
  grows with the set: ~0.025 ms per item and name on 2 shared cores (1,000 entities × 8 names:
  ~190 ms, 24k db hits).
* **index over-fetch** — the global vector index's top-k, this agent's (subject's) rows kept.
  A round costs ~3–5 ms per name at k ≤ 1,024 whatever the agent's size; k starts small and
  grows (×4 at least, more when the first round shows the agent holds a small share of the
  index) for the names whose round was not conclusive, up to a cap, after which those names
  fall back to the exact scan. The choice itself reads at most ``scan_max + 1`` index entries.

A round is conclusive for a name when it holds ``limit`` rows of the agent, when the index had
fewer than k vectors (nothing left), or when the lowest global score is already below the
similarity threshold (no better row of the agent can be further down). The crossover sizes
(``WriteConfig.entity_scan_max``, ``fact_scan_max``) were measured by
``python -m tests.bench.bench_write --growth``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Round", "first_k", "index_score", "next_k", "use_exact"]


def index_score(cosine: float) -> float:
    """A raw-cosine threshold on the vector index's scale, ``(1 + cos) / 2``."""
    return (1.0 + cosine) / 2.0


def use_exact(counted: int, scan_max: int) -> bool:
    """Exact scan when the set (counted up to a bound above ``scan_max``) is small enough."""
    return counted <= scan_max


def first_k(limit: int, floor: int = 64) -> int:
    """First over-fetch size: the agent's share of the index is not known (counting a large
    agent would cost what the index saves), so a small round first; ``next_k`` then sizes
    the next round from the share the first one saw."""
    return max(limit * 4, floor)


@dataclass(frozen=True)
class Round:
    """What one over-fetch round returned for one row: k asked, global hits, lowest global
    score, the set's hits at any score (``mine``) and above the threshold (``hits``)."""

    k: int
    fetched: int
    floor: float | None
    mine: int
    hits: int


def next_k(r: Round, limit: int, min_score: float, cap: int) -> int | None:
    """None when the round was conclusive; else the next k (at least ×4, enough for
    ``limit`` rows at the share of the set this round saw, with 50 % slack), or 0 when the
    cap was reached (the caller falls back to the exact scan for this row)."""
    if r.hits >= limit or r.fetched < r.k or r.floor is None or r.floor < min_score:
        return None
    if r.k >= cap:
        return 0
    share = max(r.mine, 1) / max(r.fetched, 1)
    return min(cap, max(r.k * 4, math.ceil(limit / share * 1.5)))
