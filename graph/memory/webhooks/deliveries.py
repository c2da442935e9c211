"""Listing webhook deliveries: what was queued, sent, retried and dead-lettered (the GraphQL
``webhookDeliveries`` query, ``hippograph webhook deliveries`` and the explorer).

States: ``queued`` (waiting behind an earlier delivery of its lane), ``pending`` (due, or
waiting for its retry time), ``leased`` (an attempt in flight), ``delivered`` (a 2xx answer),
``dead`` (every attempt failed; kept until retention removes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor

__all__ = ["DELIVERY_STATUSES", "Delivery", "list_deliveries"]

DELIVERY_STATUSES = ("queued", "pending", "leased", "delivered", "dead")
MAX_LISTED = 500


@dataclass(frozen=True)
class Delivery:
    """One delivery of one event to one webhook (its body's text is not listed)."""

    id: str
    webhook_id: str
    agent_id: str
    tenant: str | None
    type: str
    status: str
    attempts: int
    max_attempts: int
    next_at: datetime | None
    last_code: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None
    event_at: datetime | None
    seq: int

    @classmethod
    def from_row(cls, d: dict[str, Any]) -> Delivery:
        return cls(
            id=str(d["id"]),
            webhook_id=str(d["webhook_id"]),
            agent_id=str(d["agent_id"]),
            tenant=d.get("tenant"),
            type=str(d["type"]),
            status=str(d["status"]),
            attempts=int(d.get("attempts") or 0),
            max_attempts=int(d.get("max_attempts") or 0),
            next_at=d.get("next_at"),
            last_code=d.get("last_code"),
            last_error=d.get("last_error"),
            created_at=d["created_at"],
            delivered_at=d.get("delivered_at"),
            event_at=d.get("source_at"),
            seq=int(d.get("seq") or 0),
        )


async def list_deliveries(
    executor: Executor,
    *,
    statuses: Sequence[str] | None = None,
    webhook_id: str | None = None,
    agent_id: str | None = None,
    limit: int = 50,
) -> list[Delivery]:
    """Deliveries, newest first.

    Raises:
        BadInput: an unknown status, or ``limit`` outside 1..500.
    """
    unknown = [s for s in statuses or () if s not in DELIVERY_STATUSES]
    if unknown:
        raise BadInput(f"unknown delivery status(es) {unknown}; known: {list(DELIVERY_STATUSES)}")
    if not 1 <= limit <= MAX_LISTED:
        raise BadInput(f"limit must be between 1 and {MAX_LISTED}")
    rows = await executor.run(
        "webhooks/deliveries",
        {
            "statuses": list(statuses) if statuses else None,
            "webhook_id": webhook_id,
            "agent_id": agent_id,
            "limit": limit,
        },
        read=True,
    )
    return [Delivery.from_row(r["delivery"]) for r in rows]
