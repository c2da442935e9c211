"""Explicit memory edits: ``forget`` (soft delete) and ``merge_entities``. Each is one write
transaction with an audit record; nothing is physically deleted."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput, NotFound
from graph.executor import Executor, Transaction
from graph.memory.text import content_hash
from graph.memory.write.guard import stored_label

__all__ = ["ForgetResult", "MergeResult", "forget", "merge_entities"]


@dataclass
class ForgetResult:
    fact_id: str
    invalidated_relationships: list[str] = field(default_factory=list)


@dataclass
class MergeResult:
    keep_key: str
    drop_key: str
    aliases_moved: int = 0
    links_moved: int = 0
    facts_resubjected: int = 0
    relationships_moved: int = 0
    relationships_closed: int = 0


def _audit(agent_id: str, action: str, now: datetime, **fields: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "event_id": None,
        "action": action,
        "applied": True,
        "blocked_reason": None,
        "fact_id": None,
        "target_id": None,
        "reason": None,
        "mode": "full",
        "text": None,
    }
    row.update(fields)
    return row


async def forget(
    executor: Executor,
    agent_id: str,
    fact_id: str,
    reason: str | None = None,
    *,
    pii_mode: str = "redact",
) -> ForgetResult:
    """Soft-delete one fact: ``valid_to``/``invalidated_at`` set, relationships it evidences
    closed by cascade, an audit record written (its ``reason`` under the operator's
    ``pii_mode``, at most 1,000 characters).

    Raises:
        NotFound: the fact does not exist for this agent or is already closed.
        BadInput: the reason is too long; PIIRejected: reject mode and it holds PII.
    """
    reason = stored_label(reason, pii_mode, "reason")
    now = datetime.now(UTC)

    async def work(tx: Transaction) -> ForgetResult:
        closed = await tx.run("invalidation/close_facts", agent_id=agent_id, ids=[fact_id], now=now)
        if not closed:
            raise NotFound(f"no active fact {fact_id!r} for this agent")
        rels = await tx.run(
            "invalidation/cascade_relationships", agent_id=agent_id, fact_ids=[fact_id], now=now
        )
        await tx.run(
            "write/create_audits",
            agent_id=agent_id,
            now=now,
            rows=[
                _audit(
                    agent_id,
                    "FORGET",
                    now,
                    fact_id=fact_id,
                    target_id=fact_id,
                    reason=reason or "forget requested",
                )
            ],
        )
        return ForgetResult(fact_id, [r["id"] for r in rels])

    return await executor.write(work)


async def _refuse_merged(tx: Transaction, agent_id: str, keys: list[str]) -> None:
    """Refuse to merge an entity that was already merged (it would move nothing twice).

    Raises:
        BadInput: one of ``keys`` has ``merged_into`` set.
    """
    state = {
        r["key"]: r["merged_into"]
        for r in await tx.run("write/merge_state", agent_id=agent_id, keys=keys)
    }
    for key in keys:
        if state.get(key):
            raise BadInput(f"entity {key!r} was already merged into {state[key]!r}")


async def merge_entities(
    executor: Executor,
    agent_id: str,
    keep_key: str,
    drop_key: str,
    reason: str | None = None,
    *,
    pii_mode: str = "redact",
) -> MergeResult:
    """Merge ``drop_key`` into ``keep_key``: aliases, fact links, fact subjects and
    relationships move to the survivor; the dropped entity stays with ``merged_into`` set
    (history is kept); a MERGE audit record is written.

    ``reason`` is stored in the audit record under the operator's ``pii_mode``.

    Raises:
        BadInput: both keys are the same, either entity was already merged, or the reason is
            over 1,000 characters.
        NotFound: either entity does not exist for this agent.
        PIIRejected: reject mode and the reason holds PII.
    """
    reason = stored_label(reason, pii_mode, "reason")
    if keep_key == drop_key:
        raise BadInput("cannot merge an entity into itself")
    now = datetime.now(UTC)
    facts = await executor.run(
        "write/subject_facts", {"agent_id": agent_id, "subject_key": drop_key}, read=True
    )
    hashes = [
        {"id": f["id"], "content_hash": content_hash(agent_id, keep_key, f["normalized"] or "")}
        for f in facts
    ]

    async def work(tx: Transaction) -> MergeResult:
        await _refuse_merged(tx, agent_id, [keep_key, drop_key])
        rows = await tx.run(
            "write/merge_entities",
            agent_id=agent_id,
            keep_key=keep_key,
            drop_key=drop_key,
            now=now,
            hashes=hashes,
        )
        if not rows:
            raise NotFound(f"entities {keep_key!r} and {drop_key!r} must both exist")
        rels = await tx.run(
            "write/merge_relationships",
            agent_id=agent_id,
            keep_key=keep_key,
            drop_key=drop_key,
            now=now,
        )
        audit = _audit(
            agent_id,
            "MERGE",
            now,
            target_id=keep_key,
            fact_id=None,
            reason=reason or f"merged {drop_key} into {keep_key}",
            text=drop_key,
        )
        await tx.run("write/create_audits", agent_id=agent_id, now=now, rows=[audit])
        return MergeResult(
            keep_key,
            drop_key,
            rows[0]["aliases"],
            rows[0]["about"],
            rows[0]["facts"],
            rels[0]["moved"],
            rels[0]["closed"],
        )

    return await executor.write(work)
