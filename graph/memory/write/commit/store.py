"""Neo4j writes of the write pipeline: the raw-first event log, then ONE write transaction.

Transactions per message: the event log (+ idempotency claim and the embedding model check in
the same transaction), then, on the LLM path, the context read (``extract/context``), the
entity-candidate and fact-candidate reads (``resolve/candidates``, ``reconcile/candidates``)
and the write transaction → 5; the offline path runs its reads inside its write transaction
(``sequence``) → 2. Every statement takes UNWIND batches.

Concurrency: the write transaction first locks what its decisions were made on —
the job (fencing token, for job-run writes), the event (one extraction per message), the
subject entities (sorted) and the facts it closes or reinforces (sorted) — then re-checks
them in a separate statement (which reads the state committed by whoever held the locks
before). Stale decisions raise :class:`WriteConflict` and the pipeline decides again.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from neo4j.exceptions import TransientError

from graph.errors import FencedOut, GraphError
from graph.executor import Executor, Transaction
from graph.memory.spaces import check_space, claim_space

__all__ = [
    "AlreadyExtracted",
    "CommitOutcome",
    "CommitPlan",
    "EventClaim",
    "Fence",
    "WriteConflict",
    "commit",
    "log_event",
]

Row = dict[str, Any]


class WriteConflict(GraphError):
    """The commit's re-check under locks found that a concurrent write changed what the
    decisions were based on (an identical fact is now active, or a target fact was closed)."""


class AlreadyExtracted(GraphError):
    """The event's extraction was already committed by another run; nothing was written."""


@dataclass(frozen=True)
class Fence:
    """The lease a job-run write must still hold when it commits (checked in its transaction)."""

    job_id: str
    owner: str
    token: int | None


@dataclass
class EventClaim:
    """Outcome of the raw-first event log (and the idempotency claim that shares it)."""

    event_id: str | None
    stored_result: str | None = None
    in_progress: bool = False
    taken_over: bool = False  # the key's earlier claim had expired (its writer died)
    space_claimed: bool = False  # the agent's embedding model was checked in this transaction
    # The agent's ontology rows (ontology/in_force), read in the event's transaction so the
    # stages after it need no read of their own; None when no event was stored.
    ontology_rows: list[Row] | None = None


async def log_event(
    executor: Executor,
    agent_id: str,
    event: Row | None,
    receipt: tuple[str, str] | None,
    now: datetime,
    pending_ttl_s: float = 600.0,
    embedder: str | None = None,
) -> EventClaim:
    """Claim the idempotency key (when given) and store the raw event, one transaction.

    Args:
        event: ``{"id", "props", "pending"}`` for ``write/create_events``, or None
            (shadow/dry-run).
        receipt: ``(key, token)`` when the call carries an idempotency key.
        pending_ttl_s: a pending claim older than this is taken over (its writer died).
        embedder: the model of the event's vector; an agent recorded with another model is
            refused (:class:`graph.errors.EmbedderMismatch`) before anything is stored.
    """

    async def work(tx: Transaction) -> EventClaim:
        taken_over = False
        if receipt is not None:
            await tx.run(
                "write/lock_receipt", agent_id=agent_id, key=receipt[0], now=now, token=receipt[1]
            )
            rows = await tx.run(
                "write/claim_receipt",
                agent_id=agent_id,
                key=receipt[0],
                now=now,
                token=receipt[1],
                ttl_ms=max(1, int(pending_ttl_s * 1000)),
            )
            taken_over = bool(rows[0]["taken_over"])
            if not rows[0]["claimed"]:
                stored = rows[0]["result"]
                return EventClaim(None, stored, in_progress=stored is None)
        if event is None:
            return EventClaim(None)
        # The model check shares the event's statement (spaces/claim inside it): a refused
        # model raises here and the transaction, event included, rolls back.
        rows = await tx.run(
            "write/create_events", agent_id=agent_id, rows=[event], embedder=embedder
        )
        if embedder is not None:
            check_space(agent_id, rows[0]["embedder"], embedder)
        ontology = await tx.run("ontology/in_force", agent_id=agent_id)
        return EventClaim(
            event["id"],
            taken_over=taken_over,
            space_claimed=embedder is not None,
            ontology_rows=ontology,
        )

    if event is None and receipt is None:
        return EventClaim(None)
    return await executor.write(work)


@dataclass
class CommitPlan:
    """Every row of one message's write transaction (validated before it starts)."""

    now: datetime
    event_id: str | None = None
    entities: list[Row] = field(default_factory=list)
    aliases: list[Row] = field(default_factory=list)
    close_fact_ids: list[str] = field(default_factory=list)
    close_relation_ids: list[str] = field(default_factory=list)
    new_facts: list[Row] = field(default_factory=list)
    about: list[Row] = field(default_factory=list)
    provenance: list[Row] = field(default_factory=list)
    supersedes: list[Row] = field(default_factory=list)
    causes: list[Row] = field(default_factory=list)
    reinforce: list[Row] = field(default_factory=list)
    relations: list[Row] = field(default_factory=list)
    audits: list[Row] = field(default_factory=list)
    emotion: Row | None = None
    receipt: tuple[str, str] | None = None  # (key, result JSON)
    fence: Fence | None = None  # job-run writes: the lease that must still be held
    embedder: str | None = None  # the model of the plan's vectors (checked: graph/memory/spaces)
    labels: dict[str, str] = field(default_factory=dict)  # entity type → label (ontology)


@dataclass
class CommitOutcome:
    relations: list[Row] = field(default_factory=list)
    closed_facts: list[str] = field(default_factory=list)
    cascaded: list[Row] = field(default_factory=list)
    reinforced: dict[str, int] = field(default_factory=dict)


async def commit(
    executor: Executor, agent_id: str, plan: CommitPlan, retries: int = 2
) -> CommitOutcome:
    """Upsert stage: the ONE write transaction of a message. The managed transaction is retried
    by the driver on transient errors (deadlocks included); everything is MERGE-on-id, so a
    rerun cannot duplicate. A transient error that escapes the driver is retried here.

    Raises:
        FencedOut: ``plan.fence`` is set and that lease is no longer the job's current one.
        AlreadyExtracted: the event's extraction was committed by another run.
        WriteConflict: a concurrent write changed the facts the decisions were made on.
    """

    async def work(tx: Transaction) -> CommitOutcome:
        await _lock_and_check(tx, agent_id, plan)
        return await _write_rows(tx, agent_id, plan)

    for attempt in range(retries + 1):
        try:
            return await executor.write(work)
        except TransientError:
            if attempt >= retries:
                raise
            await asyncio.sleep(0.05 * (2**attempt))
    raise AssertionError("unreachable")


async def _lock_and_check(tx: Transaction, agent_id: str, p: CommitPlan) -> None:
    """The commit's first statements: the job's fence, the agent's embedding model, the
    event's extraction claim, then the locks on what the decisions were made on (subject
    entities, then target facts, each in sorted order) and their re-check.

    Raises:
        FencedOut: ``p.fence`` is set and that lease is no longer the job's current one.
        AlreadyExtracted: the event's extraction was committed by another run.
        WriteConflict: a concurrent write changed the facts the decisions were made on.
    """
    common = {"agent_id": agent_id}
    targets = sorted(set(p.close_fact_ids) | {r["id"] for r in p.reinforce})
    hashes = sorted({r["props"]["content_hash"] for r in p.new_facts})
    if p.fence is not None:
        await tx.run("jobs/lock_job", id=p.fence.job_id)
        if not await tx.run(
            "jobs/fence", id=p.fence.job_id, owner=p.fence.owner, token=p.fence.token
        ):
            raise FencedOut(f"job {p.fence.job_id}: lease lost before the commit")
    if p.embedder is not None and (p.new_facts or p.entities):
        await claim_space(tx, agent_id, p.embedder)
    if p.event_id:
        await tx.run("write/lock_event", **common, event_id=p.event_id)
        claimed = await tx.run("write/claim_extraction", **common, event_id=p.event_id, now=p.now)
        if claimed and claimed[0]["already"]:
            raise AlreadyExtracted(p.event_id)
    if p.entities:  # sorted keys: also the subject locks, taken in one order
        await tx.run("write/upsert_entities", **common, now=p.now, rows=p.entities, labels=p.labels)
    if targets:
        await tx.run("write/lock_facts", **common, ids=targets)
    if hashes or targets:
        check = (await tx.run("write/recheck_facts", **common, hashes=hashes, ids=targets))[0]
        closing = set(p.close_fact_ids)
        dup = [r for r in check["active_by_hash"] if r["id"] not in closing]
        if dup or check["inactive"]:
            raise WriteConflict(
                f"{len(dup)} fact(s) already active, "
                f"{len(check['inactive'])} target(s) no longer active"
            )


async def _write_rows(tx: Transaction, agent_id: str, p: CommitPlan) -> CommitOutcome:
    """The commit's writes, under the locks: aliases, closed facts (and the relationships
    they evidenced), new facts and their links, reinforcements, relations, the event's
    emotion, the audit records and the idempotency receipt."""
    common = {"agent_id": agent_id}
    out = CommitOutcome()
    if p.aliases:
        await tx.run("write/upsert_aliases", **common, now=p.now, rows=p.aliases)
    if p.close_fact_ids:
        closed = await tx.run("invalidation/close_facts", **common, ids=p.close_fact_ids, now=p.now)
        out.closed_facts = [r["id"] for r in closed]
        out.cascaded = await tx.run(
            "invalidation/cascade_relationships", **common, fact_ids=p.close_fact_ids, now=p.now
        )
    if p.close_relation_ids:
        await tx.run(
            "invalidation/close_relationships", **common, ids=p.close_relation_ids, now=p.now
        )
    if p.new_facts:
        await tx.run("write/create_facts", **common, rows=p.new_facts)
    if p.about or p.provenance:
        await tx.run("write/link_facts", **common, about=p.about, provenance=p.provenance)
    if p.supersedes:
        await tx.run("write/link_supersedes", **common, rows=p.supersedes)
    if p.causes:
        await tx.run("write/link_causes", **common, rows=p.causes)
    if p.reinforce:
        rows = await tx.run("write/reinforce_facts", **common, now=p.now, rows=p.reinforce)
        out.reinforced = {r["id"]: r["reinforcement_count"] for r in rows}
    if p.relations:
        out.relations = await tx.run(
            "write/upsert_relations", **common, now=p.now, reinforce=0.1, rows=p.relations
        )
    if p.emotion and p.event_id:
        await tx.run("write/set_event_emotion", **common, event_id=p.event_id, **p.emotion)
    if p.audits:
        await tx.run("write/create_audits", **common, now=p.now, rows=p.audits)
    if p.receipt:
        await tx.run(
            "write/save_receipt",
            **common,
            key=p.receipt[0],
            result=p.receipt[1],
            now=p.now,
            overwrite=True,
        )
    return out
