"""Consolidation job: clusters of related facts become ``(:Observation)`` nodes.

Each run reads the agent's active facts, clusters them (:mod:`graph.memory.maintenance.clusters`),
words every cluster (one LLM call per *new* cluster; offline: a deterministic summary), turns
every active fact that superseded another into a "used to X, now Y" observation, and writes the
result in one transaction with ``[:DERIVED_FROM]`` links to the source facts. Observation ids are
derived from their source facts, so an unchanged cluster costs nothing on the next run, and
observations whose cluster dissolved are removed (they are derived data; facts are untouched).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor, Transaction
from graph.memory import prompts
from graph.memory.jobs.context import JobContext, JobFailed
from graph.memory.jobs.jobs_config import MaintenanceConfig
from graph.memory.maintenance.clusters import (
    FactPoint,
    cluster_facts,
    observation_id,
    pattern_text,
    used_to_now,
)
from graph.memory.spaces import claim_space, embedder_name
from graph.providers import ChatLLM, Embedder, LLMError

__all__ = ["ConsolidationResult", "consolidate_agent", "consolidate_handler", "list_observations"]

log = logging.getLogger(__name__)
_KINDS = {"pattern", "change", "preference", "habit"}


@dataclass
class ConsolidationResult:
    clusters: int = 0
    observations: int = 0
    created: int = 0
    removed: int = 0
    changes: int = 0
    llm_calls: int = 0
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class _Draft:
    id: str
    text: str
    kind: str
    fact_ids: list[str]


async def _word_cluster(
    llm: ChatLLM | None, cluster: list[FactPoint], result: ConsolidationResult
) -> list[tuple[str, str]]:
    """(text, kind) pairs for a cluster: the LLM's wording, or the offline summary."""
    if llm is not None:
        user = json.dumps(
            {"facts": [{"subject": f.subject_name, "text": prompts.clip(f.text)} for f in cluster]},
            ensure_ascii=False,
        )
        try:
            resp = await llm.complete_json("consolidate", prompts.load("consolidate"), user)
            result.llm_calls += 1
            items = (resp.data or {}).get("observations") if isinstance(resp.data, dict) else None
            if isinstance(items, list):
                out = [
                    (
                        str(i["text"]).strip()[:600],
                        str(i["kind"]) if i.get("kind") in _KINDS else "pattern",
                    )
                    for i in items[:2]
                    if isinstance(i, dict) and str(i.get("text") or "").strip()
                ]
                return out
            result.warnings.append("consolidate: unusable LLM answer; offline wording used")
        except LLMError as exc:
            result.warnings.append(f"consolidate: LLM failed ({exc}); offline wording used")
    return [(pattern_text(cluster), "pattern")]


async def _change_drafts(executor: Executor, agent_id: str, cfg: MaintenanceConfig) -> list[_Draft]:
    """One "used to …, now …" observation per superseded fact and its successor."""
    pairs = await executor.run(
        "consolidation/supersede_pairs",
        {"agent_id": agent_id, "limit": cfg.consolidate_max_observations},
        read=True,
    )
    return [
        _Draft(
            observation_id(agent_id, "change", [p["new_id"], p["old_id"]]),
            used_to_now(p["subject_name"], p["old_text"] or "", p["new_text"] or ""),
            "change",
            [p["new_id"], p["old_id"]],
        )
        for p in pairs
    ]


async def consolidate_agent(
    executor: Executor,
    embedder: Embedder,
    llm: ChatLLM | None,
    agent_id: str,
    config: MaintenanceConfig | None = None,
) -> ConsolidationResult:
    """Rebuild the agent's consolidation observations (see module docstring)."""
    cfg = config or MaintenanceConfig()
    result = ConsolidationResult()
    rows = await executor.run(
        "consolidation/active_facts",
        {"agent_id": agent_id, "limit": cfg.consolidate_max_facts},
        read=True,
    )
    facts = [
        FactPoint(
            r["id"],
            r["text"] or "",
            r["subject_key"],
            r["subject_name"],
            r["embedding"],
            float(r["importance"]),
        )
        for r in rows
        if r["embedding"]
    ]
    clusters = cluster_facts(
        facts,
        threshold=cfg.cosine(cfg.consolidate_similarity),
        min_size=cfg.consolidate_min_cluster,
    )[: cfg.consolidate_max_observations]
    result.clusters = len(clusters)
    existing = {
        r["id"]
        for r in await executor.run(
            "consolidation/observation_ids", {"agent_id": agent_id}, read=True
        )
    }
    drafts: list[_Draft] = []
    kept: set[str] = set()
    for cluster in clusters:
        ids = [f.id for f in cluster]
        # The id of the first observation of a cluster marks it as already worded.
        first_id = observation_id(agent_id, "pattern#0", ids)
        if first_id in existing:
            kept.update(observation_id(agent_id, f"pattern#{i}", ids) for i in range(2))
            continue
        for i, (text, kind) in enumerate(await _word_cluster(llm, cluster, result)):
            drafts.append(_Draft(observation_id(agent_id, f"pattern#{i}", ids), text, kind, ids))
    changes = await _change_drafts(executor, agent_id, cfg)
    drafts += changes
    result.changes = len(changes)
    vectors = await embedder.embed([d.text for d in drafts]) if drafts else []
    upserts = [
        {"id": d.id, "text": d.text, "kind": d.kind, "embedding": v, "fact_ids": d.fact_ids}
        for d, v in zip(drafts, vectors, strict=True)
    ]
    current = kept | {d.id for d in drafts}
    stale = sorted(existing - current)

    async def work(tx: Transaction) -> None:
        if upserts:
            await claim_space(tx, agent_id, embedder_name(embedder))
            await tx.run("consolidation/upsert_observations", agent_id=agent_id, rows=upserts)
        if stale:
            await tx.run("consolidation/delete_observations", agent_id=agent_id, ids=stale)

    await executor.write(work)
    result.created = sum(1 for d in drafts if d.id not in existing)
    result.removed = len(stale)
    result.observations = len(current & (existing | {d.id for d in drafts}))
    return result


async def consolidate_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``consolidate`` (subject: none — the whole agent)."""
    deps = ctx.deps
    if deps.embedder is None:
        raise JobFailed("consolidation needs an embedder")
    await ctx.progress(0.1, force=True)
    result = await consolidate_agent(
        deps.executor, deps.embedder, deps.llm, ctx.job.agent_id, deps.config.maintenance
    )
    return result.to_dict()


async def list_observations(
    executor: Executor, agent_id: str, limit: int = 50
) -> list[dict[str, Any]]:
    """The agent's observations with their source fact ids (newest first)."""
    return await executor.run(
        "consolidation/observations", {"agent_id": agent_id, "limit": limit}, read=True
    )
