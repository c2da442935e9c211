"""Thin Neo4j I/O of the write pipeline: a few batched reads, then ONE write transaction.

Round trips per message (full mode): 1 event log (+ idempotency claim in the same transaction),
1 context read (aliases + pre-retrieval), 1 entity-candidate read, 1 fact-candidate read,
1 write transaction → 5. Every statement takes UNWIND batches. The nearest-neighbour reads
cost the same whatever the agent's size (``overfetch``: exact scan of small sets, vector index
over-fetch of large ones, inside the same read transactions).

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
from graph.memory.spaces import claim_space
from graph.memory.write.config import Scan
from graph.memory.write.overfetch import Round, first_k, index_score, next_k, use_exact

__all__ = [
    "AlreadyExtracted",
    "CommitOutcome",
    "CommitPlan",
    "EventClaim",
    "Fence",
    "Scan",
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
        if embedder is not None:
            await claim_space(tx, agent_id, embedder)
        await tx.run("write/create_events", agent_id=agent_id, rows=[event])
        return EventClaim(event["id"], taken_over=taken_over)

    if event is None and receipt is None:
        return EventClaim(None)
    return await executor.write(work)


async def _overfetch(
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


async def _subject_top(
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
    settled, exact = await _overfetch(
        tx, "write/fact_candidates_index", large, ks, limit, min_score, scan.cap, agent_id=agent_id
    )
    return small + exact, settled


def _index_facts(row: Row) -> list[Row]:
    """The candidate facts of one ``write/fact_candidates_index`` row (same hash first)."""
    seen: set[str] = set()
    out: list[Row] = []
    for f in [*row["same"], *row["near"]]:
        if f["id"] not in seen:
            seen.add(f["id"])
            out.append(f)
    return out


async def load_context(
    executor: Executor,
    agent_id: str,
    norms: list[str],
    embedding: list[float],
    k: int,
    scan: Scan = Scan(),
    min_similarity: float = 0.2,
) -> tuple[list[Row], list[Row]]:
    """Context stage: alias matches for the message's n-grams, then, for every matched entity,
    its top-K active facts nearest to the message (the informed extraction's context and
    reconciliation candidates) — one read transaction. Large subjects go through the fact
    vector index (facts below ``min_similarity`` to the message are then left out)."""

    async def work(tx: Transaction) -> tuple[list[Row], list[Row]]:
        aliases = await tx.run("write/match_aliases", agent_id=agent_id, norms=norms)
        keys = sorted({r["key"] for r in aliases})
        if not keys or k <= 0:
            return aliases, []
        rows = [
            {"index": i, "subject_key": key, "content_hash": "", "embedding": embedding}
            for i, key in enumerate(keys)
        ]
        small, settled = await _subject_top(
            tx, agent_id, rows, k, index_score(min_similarity), scan
        )
        facts = (
            await tx.run(
                "write/context_facts",
                agent_id=agent_id,
                keys=[r["subject_key"] for r in small],
                embedding=embedding,
                k=k,
            )
            if small
            else []
        )
        for row in settled:
            facts += [{"key": keys[row["index"]], **f} for f in row["near"]]
        return aliases, facts

    return await executor.read(work)


async def load_entity_candidates(
    executor: Executor,
    agent_id: str,
    norms: list[str],
    keys: list[str],
    rows: list[Row],
    k: int,
    min_similarity: float,
    scan: Scan = Scan(),
) -> tuple[list[Row], list[Row], list[Row]]:
    """Resolution stage inputs: alias matches, exact keys, nearest entities — one read
    transaction. Nearest entities by exact scan for small agents, through the entity vector
    index for large ones (``overfetch``); rows ``{index, key, name, type, similarity}``."""

    async def work(tx: Transaction) -> tuple[list[Row], list[Row], list[Row]]:
        aliases = await tx.run("write/match_aliases", agent_id=agent_id, norms=norms)
        found = await tx.run("write/match_keys", agent_id=agent_id, keys=keys)
        if not rows:
            return aliases, found, []
        scope = (await tx.run("write/entity_scope", agent_id=agent_id, max=scan.entity_max + 1))[0]
        exact = rows
        near: list[Row] = []
        if not use_exact(int(scope["agent_entities"]), scan.entity_max):
            settled, exact = await _overfetch(
                tx,
                "write/nearest_entities_index",
                rows,
                {r["index"]: first_k(k) for r in rows},
                k,
                index_score(min_similarity),
                scan.cap,
                agent_id=agent_id,
            )
            near = [
                {"index": g["index"], **hit} for g in settled for hit in [*g["near"], *g["prefix"]]
            ]
        if exact:
            near += await tx.run(
                "write/nearest_entities",
                agent_id=agent_id,
                rows=exact,
                k=k,
                min_similarity=min_similarity,
            )
        return aliases, found, near

    return await executor.read(work)


async def load_fact_candidates(
    executor: Executor,
    agent_id: str,
    rows: list[Row],
    k: int,
    source_keys: list[str],
    types: list[str],
    min_similarity: float = 0.5,
    scan: Scan = Scan(),
) -> tuple[list[Row], list[Row]]:
    """Reconcile stage inputs: same-subject candidates and active single-valued relations.
    Subjects with many facts go through the fact vector index (candidates below
    ``min_similarity`` are then left out: they cannot change a decision's threshold)."""

    async def work(tx: Transaction) -> tuple[list[Row], list[Row]]:
        small, settled = (
            await _subject_top(tx, agent_id, rows, k, index_score(min_similarity), scan)
            if rows
            else ([], [])
        )
        cands = (
            await tx.run("write/fact_candidates", agent_id=agent_id, rows=small, k=k)
            if small
            else []
        )
        for row in settled:
            cands += [{"index": row["index"], **f} for f in _index_facts(row)]
        rels = (
            await tx.run("write/active_relations", agent_id=agent_id, keys=source_keys, types=types)
            if source_keys
            else []
        )
        return cands, rels

    return await executor.read(work)


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
    p = plan
    common = {"agent_id": agent_id}
    targets = sorted(set(p.close_fact_ids) | {r["id"] for r in p.reinforce})
    hashes = sorted({r["props"]["content_hash"] for r in p.new_facts})
    closing = set(p.close_fact_ids)

    async def work(tx: Transaction) -> CommitOutcome:
        out = CommitOutcome()
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
            claimed = await tx.run(
                "write/claim_extraction", **common, event_id=p.event_id, now=p.now
            )
            if claimed and claimed[0]["already"]:
                raise AlreadyExtracted(p.event_id)
        if p.entities:  # sorted keys: also the subject locks, taken in one order
            await tx.run("write/upsert_entities", **common, now=p.now, rows=p.entities)
        if targets:
            await tx.run("write/lock_facts", **common, ids=targets)
        if hashes or targets:
            check = (await tx.run("write/recheck_facts", **common, hashes=hashes, ids=targets))[0]
            dup = [r for r in check["active_by_hash"] if r["id"] not in closing]
            if dup or check["inactive"]:
                raise WriteConflict(
                    f"{len(dup)} fact(s) already active, "
                    f"{len(check['inactive'])} target(s) no longer active"
                )
        if p.aliases:
            await tx.run("write/upsert_aliases", **common, now=p.now, rows=p.aliases)
        if p.close_fact_ids:
            closed = await tx.run(
                "invalidation/close_facts", **common, ids=p.close_fact_ids, now=p.now
            )
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
        if p.about:
            await tx.run("write/link_about", **common, rows=p.about)
        if p.provenance:
            await tx.run("write/link_events", **common, rows=p.provenance)
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

    for attempt in range(retries + 1):
        try:
            return await executor.write(work)
        except TransientError:
            if attempt >= retries:
                raise
            await asyncio.sleep(0.05 * (2**attempt))
    raise AssertionError("unreachable")
