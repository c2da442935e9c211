"""Agent-scoped nearest-neighbour reads of the write path: the pure choice of strategy and k, and
the over-fetch rounds and subject reads that the stages' candidate reads share.

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
from typing import Any

from graph.executor import Transaction
from graph.memory.write.config import Scan

__all__ = [
    "Round",
    "first_k",
    "index_facts",
    "index_rounds",
    "index_score",
    "next_k",
    "subject_top",
    "use_exact",
]


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


Row = dict[str, Any]


async def index_rounds(
    tx: Transaction,
    statement: str,
    rows: list[Row],
    ks: dict[int, int],
    limit: int,
    min_score: float,
    cap: int,
    **params: Any,
) -> tuple[list[Row], list[Row]]:
    """Index over-fetch rounds for ``rows`` (each with an ``index``), k per row from ``ks``,
    grown for the rows whose round was not conclusive. Returns the rows the statement gave
    for the settled rows, and the input rows that reached the cap (for the exact scan)."""
    settled: list[Row] = []
    exact: list[Row] = []
    pending = rows
    while pending:
        got = await tx.run(
            statement,
            rows=[{**r, "k": ks[r["index"]]} for r in pending],
            beam=max(ks[r["index"]] for r in pending),  # SEARCH takes one static LIMIT
            k=limit,
            min_score=min_score,
            **params,
        )
        by_index = {g["index"]: g for g in got}
        again: list[Row] = []
        for r in pending:
            g = by_index[r["index"]]
            k = next_k(
                Round(
                    ks[r["index"]], int(g["fetched"]), g["floor"], int(g["mine"]), len(g["near"])
                ),
                limit,
                min_score,
                cap,
            )
            if k is None:
                settled.append(g)
            elif k == 0:
                exact.append(r)
            else:
                ks[r["index"]] = k
                again.append(r)
        pending = again
    return settled, exact


async def subject_top(
    tx: Transaction, agent_id: str, rows: list[Row], limit: int, min_score: float, scan: Scan
) -> tuple[list[Row], list[Row]]:
    """Nearest active facts per row ``{index, subject_key, content_hash, embedding}``: rows
    of small subjects are returned for the exact scan, the others answered through the fact
    vector index (``near`` and ``same`` lists per row)."""
    keys = sorted({r["subject_key"] for r in rows})
    scope = await tx.run("write/subject_scope", agent_id=agent_id, keys=keys, max=scan.fact_max + 1)
    counted = {r["key"]: int(r["subject_facts"]) for r in scope}
    small = [r for r in rows if use_exact(counted.get(r["subject_key"], 0), scan.fact_max)]
    large = [r for r in rows if not use_exact(counted.get(r["subject_key"], 0), scan.fact_max)]
    ks = {r["index"]: first_k(limit) for r in large}
    settled, exact = await index_rounds(
        tx, "write/fact_candidates_index", large, ks, limit, min_score, scan.cap, agent_id=agent_id
    )
    return small + exact, settled


def index_facts(row: Row) -> list[Row]:
    """The candidate facts of one ``write/fact_candidates_index`` row (same hash first)."""
    seen: set[str] = set()
    out: list[Row] = []
    for f in [*row["same"], *row["near"]]:
        if f["id"] not in seen:
            seen.add(f["id"])
            out.append(f)
    return out
