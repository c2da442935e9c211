"""Dispatch: new memory events become queued deliveries, one per webhook that wants them.

One write transaction at a time in the whole cluster (``webhooks/dispatch_lock``): it reads
the events of every covered agent after the dispatch cursor (``webhooks/sources``; see
:mod:`graph.memory.webhooks.events` for the sources), plus those up to ``lookback_s`` behind
the cursor that have no delivery yet (a write stamps its audit records before its transaction
commits, so a slow one can appear behind a faster later one), queues a delivery per wanting
webhook (ids derived from webhook and event: reading an event twice creates one delivery),
gives each idle lane its head, and moves the cursor. Everything is in Neo4j, so an API process
killed between two dispatches loses nothing: the next dispatcher starts from the cursor.

A lane is one webhook and one agent: its deliveries go out one at a time, in the order their
events were read (``seq``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.executor import Executor, Transaction
from graph.memory.jobs.jobs_config import WebhookConfig
from graph.memory.text import join_parts
from graph.memory.webhooks.events import MemoryEvent, delivery_id, event_from_row, source_filter

__all__ = ["DISPATCH_LIMIT", "Hook", "dispatch", "lane_key", "plan_deliveries", "targets_of"]

DISPATCH_LIMIT = 500  # events read per dispatch; a full read is followed by another at once


@dataclass(frozen=True)
class Hook:
    """A webhook as the dispatcher sees it: what it wants, since when, for which agents."""

    id: str
    events: frozenset[str]
    created_at: datetime
    agents: dict[str, str | None]  # agent id -> its tenant


def lane_key(webhook_id: str, agent_id: str) -> str:
    return join_parts(webhook_id, agent_id)


def _hooks(rows: list[dict[str, Any]]) -> list[Hook]:
    hooks = []
    for row in rows:
        w = row["webhook"]
        agents = {a["agent_id"]: a.get("tenant") for a in row["agents"] if a.get("agent_id")}
        hooks.append(Hook(str(w["id"]), frozenset(w["events"] or []), w["created_at"], agents))
    return hooks


def targets_of(hooks: list[Hook], lookback_from: datetime) -> list[dict[str, Any]]:
    """Per covered agent, what ``webhooks/sources`` reads: the union of its webhooks' event
    types, from the later of their first registration and ``lookback_from``."""
    types: dict[str, set[str]] = defaultdict(set)
    first: dict[str, datetime] = {}
    for hook in hooks:
        for agent in hook.agents:
            types[agent] |= hook.events
            first[agent] = min(first.get(agent, hook.created_at), hook.created_at)
    return [
        {"agent_id": agent, "since": max(first[agent], lookback_from), **source_filter(wanted)}
        for agent, wanted in sorted(types.items())
    ]


def plan_deliveries(hooks: list[Hook], events: list[MemoryEvent], seq: int) -> list[dict[str, Any]]:
    """The delivery rows of ``events`` (in their order): one per webhook that covers the
    event's agent, wants its type and was registered before it happened; ``seq`` onwards."""
    rows: list[dict[str, Any]] = []
    for event in events:
        for hook in hooks:
            if event.agent_id not in hook.agents or event.type not in hook.events:
                continue
            if event.at < hook.created_at:
                continue
            rows.append(
                {
                    "id": delivery_id(hook.id, event),
                    "lane": lane_key(hook.id, event.agent_id),
                    "webhook_id": hook.id,
                    "agent_id": event.agent_id,
                    "tenant": hook.agents[event.agent_id],
                    "type": event.type,
                    "source": event.source,
                    "source_id": event.source_id,
                    "source_at": event.at,
                    "seq": seq + len(rows),
                    "data": json.dumps(event.data, sort_keys=True),
                    "text": event.text,
                    "entity_key": event.entity_key,
                    "merged_entity_key": event.merged_entity_key,
                    "fact_ids": [
                        str(v) for k, v in event.data.items() if k.endswith("fact_id") and v
                    ],
                }
            )
    return rows


async def dispatch(
    executor: Executor, config: WebhookConfig, *, limit: int = DISPATCH_LIMIT
) -> int:
    """Queue deliveries for the events read since the cursor; returns how many were created
    (0 too when no webhook is registered: one cheap read)."""
    hooks = _hooks(await executor.run("webhooks/targets", {}, read=True))
    if not any(h.agents for h in hooks):
        return 0
    if not await _anything_new(executor, hooks, config):
        return 0

    async def work(tx: Transaction) -> int:
        return await _dispatch(tx, hooks, config, limit)

    return await executor.write(work)


async def _anything_new(executor: Executor, hooks: list[Hook], config: WebhookConfig) -> bool:
    """Whether the sources hold an event to dispatch, read without the lock (an idle round is
    two reads, no write); the locked transaction reads again."""
    rows = await executor.run("webhooks/dispatch_cursor", {}, read=True)
    cursor_at: datetime = (rows[0]["cursor_at"] if rows else None) or min(
        h.created_at for h in hooks
    )
    cursor_id: str = (rows[0]["cursor_id"] if rows else None) or ""
    lookback_from = cursor_at - timedelta(seconds=config.lookback_s)
    found = await executor.run(
        "webhooks/sources",
        {
            "targets": targets_of(hooks, lookback_from),
            "cursor_at": cursor_at,
            "cursor_id": cursor_id,
            "limit": 1,
        },
        read=True,
    )
    return bool(found)


async def _dispatch(tx: Transaction, hooks: list[Hook], config: WebhookConfig, limit: int) -> int:
    (lock,) = await tx.run("webhooks/dispatch_lock")
    cursor_at: datetime = lock["cursor_at"] or min(h.created_at for h in hooks)
    cursor_id: str = lock["cursor_id"] or ""
    lookback_from = cursor_at - timedelta(seconds=config.lookback_s)
    rows = await tx.run(
        "webhooks/sources",
        targets=targets_of(hooks, lookback_from),
        cursor_at=cursor_at,
        cursor_id=cursor_id,
        limit=limit,
    )
    if not rows:
        return 0
    events = [e for e in (event_from_row(r) for r in rows) if e is not None]
    deliveries = plan_deliveries(hooks, events, int(lock["seq"] or 0))
    now = datetime.now(UTC)
    created = 0
    if deliveries:
        lanes = sorted({(d["lane"], d["webhook_id"], d["agent_id"]) for d in deliveries})
        await tx.run(
            "webhooks/lock_lanes",
            lanes=[{"key": k, "webhook_id": w, "agent_id": a} for k, w, a in lanes],
            now=now,
        )
        (done,) = await tx.run(
            "webhooks/create_deliveries",
            rows=deliveries,
            now=now,
            max_attempts=config.max_attempts,
        )
        created = int(done["created"])
        await tx.run("webhooks/ensure_head", lanes=[k for k, _, _ in lanes], now=now)
    last = max((cursor_at, cursor_id), (rows[-1]["at"], str(rows[-1]["id"])))
    await tx.run(
        "webhooks/dispatch_advance",
        cursor_at=last[0],
        cursor_id=last[1],
        seq=int(lock["seq"] or 0) + len(deliveries),
    )
    return created
