"""The memory events a webhook can ask for, read from what the database already records, and
the JSON body each delivery carries. Pure: rows in, values out.

Sources (``cypher/webhooks/sources``), per agent:

* the applied decisions of the audit trail (``Audit`` nodes, the ``memoryChanged`` source):
  ``fact.added`` (ADD), ``fact.updated`` (UPDATE), ``fact.invalidated`` (DELETE: a
  contradiction or retraction), ``fact.forgotten`` (FORGET), ``entity.merged`` (MERGE) and
  ``memory.erased`` (ERASE of a fact or a subject; an agent's erase removes its webhooks and
  deliveries with it);
* finished jobs: ``job.done`` and ``job.failed`` (dead after its last attempt);
* messages whose extraction committed no decision at all: ``write.nothing_extracted``.

A fact's text travels only on ``fact.added`` / ``fact.updated`` (already redacted by the write
pipeline), and only while no erase scrubbed it; a message's text never does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graph.memory.text import join_parts

__all__ = [
    "AUDIT_EVENTS",
    "EVENT_TYPES",
    "JOB_EVENTS",
    "NOTHING_EXTRACTED",
    "MemoryEvent",
    "delivery_body",
    "delivery_id",
    "event_from_row",
    "source_filter",
]

AUDIT_EVENTS: dict[str, str] = {
    "ADD": "fact.added",
    "UPDATE": "fact.updated",
    "DELETE": "fact.invalidated",
    "FORGET": "fact.forgotten",
    "MERGE": "entity.merged",
    "ERASE": "memory.erased",
}
JOB_EVENTS: dict[str, str] = {"done": "job.done", "dead": "job.failed"}
NOTHING_EXTRACTED = "write.nothing_extracted"
EVENT_TYPES: tuple[str, ...] = (
    *AUDIT_EVENTS.values(),
    *JOB_EVENTS.values(),
    NOTHING_EXTRACTED,
)
_ERROR_CHARS = 500


@dataclass(frozen=True)
class MemoryEvent:
    """One thing that happened to an agent's memory, as a webhook delivers it."""

    source: str  # audit | job | event
    source_id: str  # the Audit, Job or Event node's id
    type: str  # one of EVENT_TYPES
    agent_id: str
    at: datetime
    data: dict[str, Any] = field(default_factory=dict)  # ids, kinds, codes: no user text
    text: str | None = None  # a fact's text (fact.added / fact.updated)
    entity_key: str | None = None  # entity.merged: the entity kept
    merged_entity_key: str | None = None  # entity.merged: the entity merged into it


def _str(value: object) -> str | None:
    return str(value) if value not in (None, "") else None


def _audit_event(row: dict[str, Any], agent_id: str, at: datetime) -> MemoryEvent | None:
    kind = AUDIT_EVENTS.get(str(row.get("action")))
    if kind is None:
        return None
    fact_id, target = _str(row.get("fact_id")), _str(row.get("target_id"))
    merged = kind == "entity.merged"
    data: dict[str, Any] = {"audit_id": str(row["id"])}
    if not merged and fact_id:
        data["fact_id"] = fact_id
    if kind == "fact.updated" and target:
        data["previous_fact_id"] = target
    if kind == "memory.erased":
        data["scope"] = _str(row.get("scope"))
    if row.get("event_id") and kind in ("fact.added", "fact.updated"):
        data["event_id"] = str(row["event_id"])
    text = _str(row.get("text"))
    return MemoryEvent(
        source="audit",
        source_id=str(row["id"]),
        type=kind,
        agent_id=agent_id,
        at=at,
        data=data,
        text=text if kind in ("fact.added", "fact.updated") else None,
        entity_key=target if merged else None,
        merged_entity_key=text if merged else None,
    )


def _job_event(row: dict[str, Any], agent_id: str, at: datetime) -> MemoryEvent | None:
    kind = JOB_EVENTS.get(str(row.get("status")))
    if kind is None:
        return None
    data: dict[str, Any] = {
        "job_id": str(row["id"]),
        "kind": _str(row.get("kind")),
        "attempts": int(row.get("attempts") or 0),
    }
    if kind == "job.failed":
        data["error_code"] = _str(row.get("error_code"))
        data["error"] = (_str(row.get("error")) or "")[:_ERROR_CHARS] or None
    return MemoryEvent("job", str(row["id"]), kind, agent_id, at, data)


def event_from_row(row: dict[str, Any]) -> MemoryEvent | None:
    """The event a row of ``cypher/webhooks/sources`` stands for (None: nothing to send)."""
    at = row["at"]
    if not isinstance(at, datetime):
        at = at.to_native()  # a neo4j DateTime
    agent_id = str(row["agent_id"])
    source = str(row["source"])
    if source == "audit":
        return _audit_event(row, agent_id, at)
    if source == "job":
        return _job_event(row, agent_id, at)
    if source == "event":
        data = {"event_id": str(row["id"]), "thread_id": _str(row.get("thread_id"))}
        return MemoryEvent("event", str(row["id"]), NOTHING_EXTRACTED, agent_id, at, data)
    return None


def source_filter(types: set[str]) -> dict[str, Any]:
    """What the sources statement reads for an agent whose webhooks want ``types``: the audit
    actions, whether finished jobs, whether messages that extracted nothing."""
    return {
        "actions": sorted(a for a, t in AUDIT_EVENTS.items() if t in types),
        "jobs": sorted(s for s, t in JOB_EVENTS.items() if t in types),
        "empty_writes": NOTHING_EXTRACTED in types,
    }


def delivery_id(webhook_id: str, event: MemoryEvent) -> str:
    """The delivery's id, the same however often the event is read: the idempotency id a
    receiver sees in ``Hippograph-Delivery`` and the body's ``id``."""
    raw = join_parts(webhook_id, event.source, event.source_id)
    return "whd_" + hashlib.sha256(raw.encode()).hexdigest()[:32]


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def delivery_body(
    *,
    delivery_id: str,
    type: str,
    webhook_id: str,
    agent_id: str,
    tenant: str | None,
    at: datetime,
    data: dict[str, Any],
    text: str | None = None,
    entity_key: str | None = None,
    merged_entity_key: str | None = None,
) -> bytes:
    """The JSON body of a delivery (the same bytes at every attempt; compact, keys sorted)."""
    payload = dict(data)
    if text is not None:
        payload["text"] = text
    if entity_key is not None:
        payload["entity_key"] = entity_key
    if merged_entity_key is not None:
        payload["merged_entity_key"] = merged_entity_key
    body = {
        "id": delivery_id,
        "type": type,
        "created_at": _iso(at),
        "webhook_id": webhook_id,
        "agent_id": agent_id,
        "tenant": tenant,
        "data": payload,
    }
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
