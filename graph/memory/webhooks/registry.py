"""Registering, listing and removing webhooks: an endpoint for the memory events of one
tenant's agents (every agent that tenant owns, now or later) or of one agent.

The signing secret is drawn here, returned once by :func:`register_webhook` and stored as it
is on the ``Webhook`` node: the sender must sign with it, so it cannot be kept as a one-way
hash. Listings never return it (only its last four characters, to tell secrets apart).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput, NotFound
from graph.executor import Executor
from graph.memory.documents.fetch import Resolver, system_resolver
from graph.memory.webhooks.events import EVENT_TYPES
from graph.memory.webhooks.signing import new_secret
from graph.memory.webhooks.targets import check_target

__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "Registered",
    "Webhook",
    "list_webhooks",
    "register_webhook",
    "remove_webhook",
]

MAX_DESCRIPTION_CHARS = 500


@dataclass(frozen=True)
class Webhook:
    """A registered endpoint (without its secret)."""

    id: str
    scope: str  # tenant | agent
    tenant: str | None
    agent_id: str | None
    url: str
    events: list[str]
    description: str | None
    created_at: datetime
    secret_hint: str
    pending: int = 0
    delivered: int = 0
    dead: int = 0

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Webhook:
        at = row["created_at"]
        return cls(
            id=str(row["id"]),
            scope=str(row["scope"]),
            tenant=row.get("tenant"),
            agent_id=row.get("agent_id"),
            url=str(row["url"]),
            events=list(row.get("events") or []),
            description=row.get("description"),
            created_at=at if isinstance(at, datetime) else at.to_native(),
            secret_hint=str(row.get("secret_hint") or ""),
            pending=int(row.get("pending") or 0),
            delivered=int(row.get("delivered") or 0),
            dead=int(row.get("dead") or 0),
        )


@dataclass(frozen=True)
class Registered:
    """A new webhook and its signing secret (shown this once)."""

    webhook: Webhook
    secret: str


def _events(events: Sequence[str] | None) -> list[str]:
    chosen = list(dict.fromkeys(events or EVENT_TYPES))
    unknown = [e for e in chosen if e not in EVENT_TYPES]
    if unknown:
        raise BadInput(f"unknown webhook event(s) {unknown}; known: {list(EVENT_TYPES)}")
    return chosen


async def register_webhook(
    executor: Executor,
    url: str,
    *,
    tenant: str | None = None,
    agent_id: str | None = None,
    events: Sequence[str] | None = None,
    description: str | None = None,
    allow_private: bool = False,
    resolver: Resolver = system_resolver,
) -> Registered:
    """Register ``url`` for the events of ``tenant``'s agents or of ``agent_id`` (exactly one);
    ``events`` None or empty: every event type.

    Raises:
        BadInput: neither or both scopes, an unknown event, a description over 500 characters.
        TargetRefused: the URL may not be contacted (see :mod:`graph.memory.webhooks.targets`).
    """
    if (tenant is None) == (agent_id is None) or not (tenant or agent_id):
        raise BadInput("a webhook is for one tenant or for one agent: give exactly one")
    if description is not None and len(description) > MAX_DESCRIPTION_CHARS:
        raise BadInput(f"a webhook description has at most {MAX_DESCRIPTION_CHARS} characters")
    chosen = _events(events)
    url = url.strip()
    await check_target(url, allow_private=allow_private, resolver=resolver)
    secret = new_secret()
    rows = await executor.run(
        "webhooks/create",
        {
            "id": "wh_" + secrets.token_hex(8),
            "scope": "tenant" if tenant else "agent",
            "tenant": tenant,
            "agent_id": agent_id,
            "url": url,
            "secret": secret,
            "events": chosen,
            "description": description,
            "now": datetime.now(UTC),
        },
    )
    return Registered(Webhook.from_row(rows[0]["webhook"]), secret)


async def list_webhooks(
    executor: Executor, *, tenant: str | None = None, agent_id: str | None = None
) -> list[Webhook]:
    """Registered webhooks, newest first (all, or of one tenant or agent)."""
    rows = await executor.run("webhooks/list", {"tenant": tenant, "agent_id": agent_id}, read=True)
    return [Webhook.from_row(r["webhook"]) for r in rows]


async def remove_webhook(executor: Executor, webhook_id: str) -> int:
    """Remove a webhook with its deliveries; returns how many deliveries went with it.

    Raises:
        NotFound: no such webhook.
    """
    rows = await executor.run("webhooks/remove", {"id": webhook_id})
    if not rows:
        raise NotFound(f"webhook {webhook_id} not found")
    return int(rows[0]["deliveries"])
