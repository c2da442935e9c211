"""Commit stage of the write pipeline: the facts reconciled (``reconcile.stage``), the plan and
the one write transaction; the LLM usage account and the idempotency receipt of a write."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from graph.executor import Executor, Transaction
from graph.memory.write.commit.plan import PlanOutput, build_plan
from graph.memory.write.commit.store import Fence, commit
from graph.memory.write.config import WriteConfig
from graph.memory.write.extract.extraction import Extraction
from graph.memory.write.llm import LLMSession
from graph.memory.write.models import TokenCounts, WriteResult
from graph.memory.write.reconcile.items import (
    FactItem,
    RelationItem,
)
from graph.memory.write.reconcile.stage import reconcile_facts
from graph.memory.write.trace import WriteRun

__all__ = ["account", "copy_into", "decide_and_commit", "record_plan", "save_receipt"]


async def decide_and_commit(
    executor: Executor,
    agent_id: str,
    items: list[FactItem],
    live: list[FactItem],
    relations: list[RelationItem],
    resolved: Any,
    ex: Extraction,
    cfg: WriteConfig,
    session: LLMSession | None,
    run: WriteRun,
    result: WriteResult,
    persist: bool,
    key: str | None,
    dry_run: bool,
    now: datetime,
    occurred: datetime,
    speaker: str,
    fence: Fence | None,
    embedder: str | None = None,
    retries: int | None = None,
) -> None:
    """Reconcile, plan, upsert: candidates, decisions, plan and the one write transaction.
    ``embedder``: the model to record for the agent in it (None: already claimed);
    ``retries``: of the write transaction on a transient error (default
    ``cfg.write_retries``; 0 when ``executor`` shares a transaction its owner retries).

    Raises:
        WriteConflict: the commit's re-check found a concurrent write (decide again).
    """
    close_rels = await reconcile_facts(
        executor, agent_id, items, live, relations, ex, cfg, session, run
    )
    out = build_plan(
        items=items,
        relations=relations,
        entities=resolved.entities,
        close_relations=close_rels,
        mode=cfg.mode,
        frozen=cfg.mutations_frozen,
        event_id=result.event_id,
        speaker=speaker,
        now=now,
        occurred=occurred,
        causal=ex.causal,
        relation_strength=cfg.relation_strength,
    )
    if ex.emotion and persist:
        out.plan.emotion = ex.emotion
    if cfg.ontology_version:  # the operator's ontology these facts were extracted under
        for row in out.plan.new_facts:
            row["props"]["ontology_version"] = cfg.ontology_version
    record_plan(out, result, run, cfg)
    account(session, result)
    if dry_run:
        run.step("dry_run", would_write=len(out.plan.new_facts))
        return
    if not persist:  # shadow mode: the decisions are audited, nothing else is written
        shadow = out.plan.__class__(now=now, audits=out.plan.audits)
        out.plan = shadow
    out.plan.fence = fence
    out.plan.embedder = embedder
    out.plan.labels = dict(cfg.entity_labels)
    if key:
        result.warnings = run.warnings
        result.duration_ms = run.ms()
        out.plan.receipt = (key, json.dumps(result.to_dict(), default=str))
    res = await commit(
        executor, agent_id, out.plan, cfg.write_retries if retries is None else retries
    )
    for change in result.facts_unchanged:
        change.reason = f"{change.reason} (reinforcement_count={res.reinforced.get(change.id)})"
    run.step(
        "upsert",
        facts=len(out.plan.new_facts),
        closed=len(res.closed_facts),
        cascaded=len(res.cascaded),
        relations=len(res.relations),
    )


def record_plan(out: PlanOutput, result: WriteResult, run: WriteRun, cfg: WriteConfig) -> None:
    """The plan's result lists and warnings into the write's result and trace."""
    result.facts_added, result.facts_updated = out.added, out.updated
    result.facts_unchanged, result.facts_deleted = out.unchanged, out.deleted
    result.relations = out.relations
    run.warnings += out.warnings
    if out.blocked:
        run.warnings.append(
            f"{out.blocked} decision(s) not applied (mode={cfg.mode}, "
            f"frozen={cfg.mutations_frozen}, or low confidence)"
        )


def account(session: LLMSession | None, result: WriteResult) -> None:
    if session is None:
        return
    u = session.usage
    result.tokens_used = TokenCounts(u.input, u.output, u.total)
    result.llm_calls = session.calls


async def save_receipt(
    executor: Executor, agent_id: str, key: str, result: WriteResult, now: datetime
) -> WriteResult:
    """Store ``result`` as the key's answer unless one is already stored (then that one
    is returned: the first call that completed answers every retry)."""
    payload = json.dumps(result.to_dict(), default=str)

    async def work(tx: Transaction) -> str:
        await tx.run("write/lock_receipt", agent_id=agent_id, key=key, now=now, token="")
        rows = await tx.run(
            "write/save_receipt",
            agent_id=agent_id,
            key=key,
            result=payload,
            now=now,
            overwrite=False,
        )
        return str(rows[0]["result"])

    stored = await executor.write(work)
    return result if stored == payload else WriteResult.from_dict(json.loads(stored))


def copy_into(target: WriteResult, source: WriteResult) -> None:
    """Make ``target`` the same answer as ``source`` (every field)."""
    for name in WriteResult.__dataclass_fields__:
        setattr(target, name, getattr(source, name))
