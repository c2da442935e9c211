"""Write pipeline, the stages after the event: context and extraction, dedup, resolution,
reconciliation, plan and upsert (docs/architecture.md, Write pipeline).

The offline path runs resolution, reconciliation and the upsert in ONE write transaction (its
candidate reads included, through :class:`SharedTransaction`): its decisions are rules, with
no model call to wait for, so a message costs two transactions — the raw event, then this
one. The LLM path reads in their own transactions and writes in a last one: its model calls
must not hold a transaction open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from graph.executor import Executor, Transaction
from graph.memory.ontology import BUILTIN, Ontology
from graph.memory.ontology.model import prompt_view
from graph.memory.text import fold, word_ngrams
from graph.memory.write.commit.stage import account, copy_into, decide_and_commit, save_receipt
from graph.memory.write.commit.store import AlreadyExtracted, Fence, WriteConflict
from graph.memory.write.config import WriteConfig
from graph.memory.write.extract.conform import fit_resolved
from graph.memory.write.extract.context import load_context
from graph.memory.write.extract.extraction import known_context, semantic_dedup
from graph.memory.write.extract.stage import (
    Prepared,
    conform_prepared,
    extract_with_llm,
    prepare,
)
from graph.memory.write.llm import LLMSession
from graph.memory.write.models import WriteResult
from graph.memory.write.reconcile.assemble import assemble
from graph.memory.write.reconcile.decisions import FactDecision
from graph.memory.write.reconcile.items import FactItem, RelationItem
from graph.memory.write.resolve.stage import Resolved, resolve_mentions
from graph.memory.write.shared_tx import SharedTransaction
from graph.memory.write.trace import WriteRun
from graph.providers import ChatLLM, Embedder

__all__ = ["CONFLICT_RETRIES", "WriteCall", "run_stages"]

# Decide-again rounds when the commit's re-check finds a concurrent write (WriteConflict).
CONFLICT_RETRIES = 3


@dataclass
class WriteCall:
    """One ``write`` as the stages after its event see it: the message, the settings of the
    call and its per-call state (trace, result)."""

    agent_id: str
    text: str
    speaker: str
    recent: list[str]
    occurred: datetime
    now: datetime
    message_vec: list[float]
    cfg: WriteConfig
    run: WriteRun
    result: WriteResult
    persist: bool
    key: str | None
    dry_run: bool
    fence: Fence | None
    token: str
    # The embedding model the commit records for the agent (spaces/claim); None when the
    # event's transaction of this call already claimed it.
    space: str | None
    # The agent's ontology: the extraction is conformed to it (extract/conform).
    ontology: Ontology = BUILTIN


async def run_stages(
    executor: Executor,
    embedder: Embedder,
    llm: ChatLLM | None,
    call: WriteCall,
    early: asyncio.Task[Prepared] | None,
    release: Callable[[], Awaitable[None]],
) -> None:
    """Everything after the event. ``early``: the offline extraction, started before the
    event was logged; ``release``: drops the call's idempotency claim (nothing extracted)."""
    run, cfg = call.run, call.cfg
    session = LLMSession(llm) if llm is not None else None
    if session is not None and call.ontology.scope != "builtin":
        session.ontology = prompt_view(call.ontology)
    if session is None:
        # The context (known names and facts) only informs the LLM's extraction.
        assert early is not None
        prep = await early
    else:
        informed = cfg.enable_informed_extraction
        alias_rows, ctx_facts = await load_context(
            executor,
            call.agent_id,
            [*word_ngrams(call.text)[:500], fold(call.speaker)],
            call.message_vec,
            cfg.informed_extraction_topk if informed else 0,
            cfg.scan,
            cfg.context_min_similarity,
        )
        known = known_context(alias_rows, ctx_facts, cfg.informed_extraction_context_budget_tokens)
        run.step(
            "context",
            aliases=len(alias_rows),
            profiles=len(known.profiles),
            known_facts=len(known.facts),
        )
        raw = await extract_with_llm(
            call.text,
            call.speaker,
            call.recent,
            call.occurred,
            known,
            cfg,
            session,
            run,
            call.result,
        )
        run.warnings += session.warnings
        session.warnings = []
        if raw is None:
            # Nothing extracted (LLM down or unusable answer): not a stored answer for the
            # key — a retry runs again — and the event stays pending for the orphan sweep.
            account(session, call.result)
            if call.key and not call.dry_run:
                await release()
            return
        prep = await prepare(raw, call.speaker, embedder)
    prep = await conform_prepared(prep, call.ontology, call.speaker, embedder, run.warnings)
    ex = prep.ex
    run.step(
        "extraction",
        entities=len(ex.entities),
        facts=len(ex.facts),
        relations=len(ex.relations),
        path="llm" if session else "offline",
    )
    run.step("embedding", texts=len(prep.texts))
    if session is None:
        await _offline_commit(executor, embedder, call, prep)
    else:
        await _llm_commit(executor, embedder, call, prep, session)


@dataclass
class _Stage:
    """What resolution hands to reconciliation: every fact item and the live ones."""

    items: list[FactItem]
    live: list[FactItem]
    relations: list[RelationItem]
    resolved: Resolved


async def _resolve(
    executor: Executor,
    embedder: Embedder,
    call: WriteCall,
    prep: Prepared,
    session: LLMSession | None,
) -> _Stage:
    """Dedup, resolution and the fact and relation items (low-confidence facts blocked)."""
    run, cfg, ex = call.run, call.cfg, prep.ex
    fact_vecs = prep.vecs[: len(ex.facts)]
    name_vecs = dict(
        zip(
            [m.surface for m in prep.ments] + [call.speaker],
            prep.vecs[len(ex.facts) :],
            strict=True,
        )
    )
    keep = semantic_dedup(fact_vecs, cfg.semantic_dedup_threshold)
    if len(keep) < len(ex.facts):
        run.warnings.append(f"{len(ex.facts) - len(keep)} near-duplicate fact(s) removed")
    resolved = await resolve_mentions(
        executor,
        call.agent_id,
        prep.ments,
        call.speaker,
        name_vecs,
        cfg,
        session,
        call.text,
        profiles=ex.profiles,
        shown=ex.known_entities if ex.known_ids is not None else None,
    )
    call.result.entities_resolved = resolved.report
    run.step("resolution", entities=len(resolved.entities))
    asm = assemble(
        call.agent_id,
        ex,
        [ex.facts[i] for i in keep],
        [fact_vecs[i] for i in keep],
        resolved,
        call.speaker,
        cfg.mirror_fact_confidence,
        offline=session is None,
    )
    for item in asm.items:
        if item.fact.gloss:
            item.gloss_embedding = prep.glosses.get(item.fact.gloss)
    if asm.mirrors:
        vecs = await embedder.embed([m.text for m in asm.mirrors])
        for item, vec in zip(asm.mirrors, vecs, strict=True):
            item.embedding = vec
    items = asm.items + asm.mirrors
    types = {key: info.type for key, info in resolved.entities.items()}
    relations = fit_resolved(asm.relations, types, call.ontology, run.warnings)
    for item in items:
        if item.fact.confidence < cfg.min_fact_confidence_for_write:
            item.decision = FactDecision("ADD", reason="below min_fact_confidence_for_write")
            item.blocked = "low_confidence"
    live = [i for i in items if i.blocked is None]
    return _Stage(items, live, relations, resolved)


async def _decide_and_commit(
    executor: Executor,
    call: WriteCall,
    prep: Prepared,
    stage: _Stage,
    session: LLMSession | None,
    retries: int,
    embedder_name: str | None,
) -> None:
    await decide_and_commit(
        executor,
        call.agent_id,
        stage.items,
        stage.live,
        stage.relations,
        stage.resolved,
        prep.ex,
        call.cfg,
        session,
        call.run,
        call.result,
        call.persist,
        call.key,
        call.dry_run,
        call.now,
        call.occurred,
        call.speaker,
        call.fence,
        embedder_name,
        retries=retries,
    )


async def _offline_commit(
    executor: Executor, embedder: Embedder, call: WriteCall, prep: Prepared
) -> None:
    """Resolution, reconciliation and the upsert in one transaction (a read one for a dry
    run). A retried transaction (the driver's, or a decide-again round after a concurrent
    write) runs the stages again from the extraction, on fresh reads."""
    run = call.run
    for attempt in range(CONFLICT_RETRIES + 1):

        async def unit(
            tx: Transaction, warnings: int = len(run.warnings), steps: int = len(run.trace or [])
        ) -> None:
            # A rerun (the driver retries a transient error) starts from the same trace.
            del run.warnings[warnings:]
            if run.trace is not None:
                del run.trace[steps:]
            shared = SharedTransaction(tx, executor)
            stage = await _resolve(shared, embedder, call, prep, None)
            await _decide_and_commit(shared, call, prep, stage, None, 0, call.space)

        try:
            await (executor.read if call.dry_run else executor.write)(unit)
            run.step("commit")
            return
        except WriteConflict as exc:
            if attempt >= CONFLICT_RETRIES:
                raise
            run.step("conflict", attempt=attempt + 1, reason=str(exc))
        except AlreadyExtracted:
            await _already_extracted(executor, call)
            return


async def _llm_commit(
    executor: Executor,
    embedder: Embedder,
    call: WriteCall,
    prep: Prepared,
    session: LLMSession,
) -> None:
    """Resolution (its reads, maybe a model call), then reconciliation and the upsert, decided
    again on fresh reads when a concurrent write committed first."""
    run = call.run
    stage = await _resolve(executor, embedder, call, prep, session)
    for attempt in range(CONFLICT_RETRIES + 1):
        try:
            await _decide_and_commit(
                executor, call, prep, stage, session, call.cfg.write_retries, call.space
            )
            return
        except WriteConflict as exc:
            # A concurrent write committed first: decide again on fresh reads.
            if attempt >= CONFLICT_RETRIES:
                raise
            run.step("conflict", attempt=attempt + 1, reason=str(exc))
            # The informed answer's UPDATE/DELETE/NONE targets were read before the other
            # write: stale now. Decide like the blind path (thresholds + reconcile call).
            prep.ex.known_ids = None
            for item in stage.live:
                item.candidates, item.decision, item.blocked = [], None, None
        except AlreadyExtracted:
            await _already_extracted(executor, call)
            return


async def _already_extracted(executor: Executor, call: WriteCall) -> None:
    """Another run (retry, job or orphan sweep) committed this message's facts."""
    run, result = call.run, call.result
    run.warnings.append(
        "this message was already extracted by another run; nothing new was written"
    )
    result.facts_added, result.facts_updated = [], []
    result.facts_unchanged, result.facts_deleted = [], []
    result.relations = []
    if call.key:
        result.warnings = run.warnings
        result.duration_ms = run.ms()
        stored = await save_receipt(executor, call.agent_id, call.key, result, call.now)
        if stored is not result:  # the first call's answer, as for any retry
            copy_into(result, stored)
            run.warnings = stored.warnings
