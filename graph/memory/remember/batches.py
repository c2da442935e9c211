"""Structured remember, batched writes: one write transaction per batch, every list sent as
one UNWIND statement, the agent's embedding space checked in the same transaction."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from graph.executor import Executor, Transaction
from graph.memory.remember.prepare import FactBatch
from graph.memory.spaces import claim_space

__all__ = ["write_entities", "write_events", "write_facts", "write_relations"]


async def write_entities(
    executor: Executor,
    agent_id: str,
    space: str,
    now: datetime,
    rows: list[dict[str, Any]],
    labels: dict[str, str],
) -> int:
    """Create or touch the entities of ``rows`` (each labelled with its type's label in
    ``labels``) and register their aliases (first write wins per folded name); returns how
    many entities were created."""
    aliases = [
        {"norm": a["norm"], "text": a["text"], "key": r["key"]} for r in rows for a in r["aliases"]
    ]

    async def work(tx: Transaction) -> int:
        await claim_space(tx, agent_id, space)
        created = await tx.run(
            "write/upsert_entities", agent_id=agent_id, now=now, rows=rows, labels=labels
        )
        await tx.run("remember/upsert_aliases", agent_id=agent_id, now=now, rows=aliases)
        return sum(1 for r in created if r["created"])

    return await executor.write(work)


async def write_events(
    executor: Executor, agent_id: str, space: str, rows: list[dict[str, Any]]
) -> None:
    """Store events (messages) with their vectors."""

    async def work(tx: Transaction) -> None:
        await claim_space(tx, agent_id, space)
        await tx.run("write/create_events", agent_id=agent_id, rows=rows, embedder=None)

    await executor.write(work)


def _audits(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An applied ADD audit record per new fact that is in force (imported history is not
    news): the agent's decision history and its ``memoryChanged`` subscribers see it."""
    return [
        {
            "id": str(uuid.uuid4()),
            "event_id": None,
            "action": "ADD",
            "applied": True,
            "blocked_reason": None,
            "fact_id": r["id"],
            "target_id": None,
            "reason": "remember",
            "mode": "full",  # stored as given: applied in full
            "text": r["props"].get("text"),
        }
        for r in rows
        if r["props"].get("valid_to") is None and r["props"].get("invalidated_at") is None
    ]


async def write_facts(
    executor: Executor, agent_id: str, space: str, now: datetime, batch: FactBatch
) -> None:
    """Create the batch's new facts with their entity links (one statement), audit records and
    event links, reinforce the known ones it repeats."""

    async def work(tx: Transaction) -> None:
        if batch.new_rows:
            await claim_space(tx, agent_id, space)
            await tx.run("remember/create_facts", agent_id=agent_id, now=now, rows=batch.new_rows)
            audits = _audits(batch.new_rows)
            if audits:
                await tx.run("write/create_audits", agent_id=agent_id, now=now, rows=audits)
        if batch.provenance:
            await tx.run("write/link_events", agent_id=agent_id, rows=batch.provenance)
        if batch.reinforce:
            await tx.run("write/reinforce_facts", agent_id=agent_id, now=now, rows=batch.reinforce)

    await executor.write(work)


async def write_relations(
    executor: Executor, agent_id: str, now: datetime, rows: list[dict[str, Any]]
) -> None:
    """Create relations, or reinforce the active relation of the same type between the same
    entities."""

    async def work(tx: Transaction) -> None:
        await tx.run(
            "remember/upsert_relations", agent_id=agent_id, now=now, reinforce=0.1, rows=rows
        )

    await executor.write(work)
