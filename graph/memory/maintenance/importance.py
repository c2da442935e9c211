"""Importance re-scoring and decay jobs.

Re-scoring keeps each fact's original score as ``importance_base`` and raises ``importance``
with use: retrieval frequency, recency of the last retrieval, reinforcement (the fact was
confirmed again) and the centrality of its subject entity (PageRank with GDS, degree without).
A fact nobody uses keeps its base score; stale facts (past ``valid_until``) are halved.
Decay flags active temporal facts past ``valid_until`` as ``stale = true``; nothing is deleted.
"""

from __future__ import annotations

import math
import uuid
from typing import Any

from graph.executor import Executor
from graph.memory.jobs.context import JobContext
from graph.memory.jobs.jobs_config import MaintenanceConfig

__all__ = ["decay_agent", "decay_handler", "importance_handler", "rescore", "rescore_agent"]

_PAGE = 2_000


def rescore(
    base: float,
    retrieval_count: int,
    days_since_retrieved: float | None,
    reinforcement_count: int,
    *,
    entity_score: float | None = None,
    stale: bool = False,
    config: MaintenanceConfig | None = None,
) -> float:
    """New importance of one fact, in [0, 1] (pure).

    Args:
        base: the fact's original importance.
        retrieval_count: times it was returned by retrieval.
        days_since_retrieved: age of the last retrieval in days (None: never retrieved).
        reinforcement_count: times it was stated (1 = once).
        entity_score: centrality of its subject entity in [0, 1] (None: unknown).
        stale: past ``valid_until``.
        config: weights and half-life.
    """
    cfg = config or MaintenanceConfig()
    w_freq, w_recent, w_reinf, w_entity = cfg.importance_weights
    base = min(1.0, max(0.0, base))
    freq = 1.0 - math.exp(-max(0, retrieval_count) / 5.0)
    recent = (
        0.0
        if days_since_retrieved is None
        else 0.5 ** (max(0.0, days_since_retrieved) / cfg.recency_half_life_days)
    )
    reinf = 1.0 - math.exp(-max(0, reinforcement_count - 1) / 3.0)
    centrality = min(1.0, max(0.0, entity_score or 0.0))
    signal = w_freq * freq + w_recent * recent + w_reinf * reinf + w_entity * centrality
    score = base + (1.0 - base) * cfg.importance_max_boost * min(1.0, signal)
    if stale:
        score *= cfg.stale_factor
    return round(min(1.0, max(0.0, score)), 4)


async def rescore_agent(
    executor: Executor,
    agent_id: str,
    config: MaintenanceConfig | None = None,
    *,
    use_gds: bool | None = None,
) -> dict[str, Any]:
    """Refresh entity centrality, then every active fact's importance (paged UNWIND writes)."""
    cfg = config or MaintenanceConfig()
    if use_gds is None:
        use_gds = bool(
            (await executor.run("consolidation/gds_available", read=True))[0]["available"]
        )
    centrality = "degree"
    if use_gds:
        try:
            await executor.run(
                "consolidation/gds_pagerank",
                {
                    "agent_id": agent_id,
                    "graph_name": f"hippograph_pr_{uuid.uuid4().hex[:12]}",
                },
            )
            centrality = "pagerank"
        except Exception:  # GDS present but unusable (memory, version): degree still works
            use_gds = False
    if not use_gds:
        await executor.run("consolidation/entity_degree", {"agent_id": agent_id})
    after, updated = "", 0
    while True:
        rows = await executor.run(
            "consolidation/importance_inputs",
            {"agent_id": agent_id, "after_id": after, "limit": _PAGE},
            read=True,
        )
        if not rows:
            break
        scored = [
            {
                "id": r["id"],
                "importance": rescore(
                    float(r["base"]),
                    int(r["retrieval_count"]),
                    r["days_since_retrieved"],
                    int(r["reinforcement_count"]),
                    entity_score=r["entity_score"],
                    stale=bool(r["stale"]),
                    config=cfg,
                ),
            }
            for r in rows
        ]
        out = await executor.run(
            "consolidation/set_importance", {"agent_id": agent_id, "rows": scored}
        )
        updated += int(out[0]["updated"]) if out else 0
        after = rows[-1]["id"]
        if len(rows) < _PAGE:
            break
    return {"facts_rescored": updated, "centrality": centrality}


async def decay_agent(executor: Executor, agent_id: str) -> dict[str, int]:
    """Flag (and un-flag) stale temporal facts of one agent."""
    rows = await executor.run("consolidation/flag_stale", {"agent_id": agent_id})
    row = rows[0] if rows else {}
    return {"flagged": int(row.get("flagged") or 0), "unflagged": int(row.get("unflagged") or 0)}


async def importance_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``importance``."""
    return await rescore_agent(ctx.deps.executor, ctx.job.agent_id, ctx.deps.config.maintenance)


async def decay_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``decay``: stale flags first, then importance (stale facts rank lower)."""
    flags = await decay_agent(ctx.deps.executor, ctx.job.agent_id)
    if flags["flagged"] or flags["unflagged"]:
        flags.update(
            await rescore_agent(ctx.deps.executor, ctx.job.agent_id, ctx.deps.config.maintenance)
        )
    return dict(flags)
