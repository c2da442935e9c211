"""Webhook types: endpoints an operator registers for a tenant's or an agent's memory events,
their deliveries, and the payloads of ``registerWebhook`` / ``removeWebhook`` (admin keys
only; docs/webhooks.md)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from gql.errors import UserError
from gql.types.enums import to_api, to_api_list
from graph.memory.webhooks import Delivery, Webhook

__all__ = [
    "RegisterWebhookPayload",
    "RemoveWebhookPayload",
    "WebhookDeliveryStatus",
    "WebhookDeliveryType",
    "WebhookEvent",
    "WebhookScope",
    "WebhookType",
    "delivery_from",
    "webhook_from",
]


@strawberry.enum(description="A memory event a webhook can be sent (the body's `type`).")
class WebhookEvent(Enum):
    FACT_ADDED = strawberry.enum_value("fact.added", description="A fact was stored.")
    FACT_UPDATED = strawberry.enum_value(
        "fact.updated", description="A newer version superseded a fact."
    )
    FACT_INVALIDATED = strawberry.enum_value(
        "fact.invalidated", description="A fact was retracted or contradicted by a message."
    )
    FACT_FORGOTTEN = strawberry.enum_value(
        "fact.forgotten", description="A fact was forgotten (`forget`)."
    )
    ENTITY_MERGED = strawberry.enum_value(
        "entity.merged", description="An entity was merged into another."
    )
    MEMORY_ERASED = strawberry.enum_value(
        "memory.erased", description="A fact or a subject was erased for good."
    )
    JOB_DONE = strawberry.enum_value("job.done", description="A background job finished.")
    JOB_FAILED = strawberry.enum_value(
        "job.failed", description="A background job failed its last attempt."
    )
    WRITE_NOTHING_EXTRACTED = strawberry.enum_value(
        "write.nothing_extracted",
        description="A message was extracted and nothing was decided from it (no fact).",
    )


@strawberry.enum(description="Where a delivery is.")
class WebhookDeliveryStatus(Enum):
    QUEUED = strawberry.enum_value(
        "queued", description="Waiting for the previous delivery of its agent to this webhook."
    )
    PENDING = strawberry.enum_value(
        "pending", description="Due now, or waiting for its next attempt after a failure."
    )
    LEASED = strawberry.enum_value("leased", description="An attempt is in flight.")
    DELIVERED = strawberry.enum_value("delivered", description="The endpoint answered 2xx.")
    DEAD = strawberry.enum_value(
        "dead", description="Every attempt failed; kept for inspection (dead letter)."
    )


@strawberry.enum(description="What a webhook covers.")
class WebhookScope(Enum):
    TENANT = strawberry.enum_value(
        "tenant", description="Every agent the tenant owns, now or later."
    )
    AGENT = strawberry.enum_value("agent", description="One agent.")


@strawberry.type(name="Webhook", description="An endpoint registered for memory events.")
class WebhookType:
    id: strawberry.ID = strawberry.field(description="The webhook's id (`wh_…`).")
    scope: WebhookScope = strawberry.field(description="A tenant's agents, or one agent.")
    tenant: str | None = strawberry.field(description="The tenant (tenant scope).")
    agent_id: strawberry.ID | None = strawberry.field(description="The agent (agent scope).")
    url: str = strawberry.field(description="Where deliveries are POSTed.")
    events: list[WebhookEvent] = strawberry.field(description="The events it is sent.")
    description: str | None = strawberry.field(description="The operator's note.")
    created_at: datetime = strawberry.field(
        description="When it was registered (events before are not sent)."
    )
    secret_hint: str = strawberry.field(
        description="The last 4 characters of its signing secret (the secret itself is shown "
        "only by `registerWebhook`)."
    )
    pending: int = strawberry.field(description="Deliveries queued, due or in flight.")
    delivered: int = strawberry.field(description="Deliveries answered 2xx (kept 7 days).")
    dead: int = strawberry.field(description="Deliveries dead-lettered (kept 7 days).")


def webhook_from(w: Webhook) -> WebhookType:
    return WebhookType(
        id=strawberry.ID(w.id),
        scope=WebhookScope(w.scope),
        tenant=w.tenant,
        agent_id=strawberry.ID(w.agent_id) if w.agent_id else None,
        url=w.url,
        events=to_api_list(WebhookEvent, w.events),
        description=w.description,
        created_at=w.created_at,
        secret_hint=w.secret_hint,
        pending=w.pending,
        delivered=w.delivered,
        dead=w.dead,
    )


@strawberry.type(name="WebhookDelivery", description="One event sent (or to send) to a webhook.")
class WebhookDeliveryType:
    id: strawberry.ID = strawberry.field(
        description="The delivery's id: the `Hippograph-Delivery` header and the body's `id` "
        "(the same at every attempt; receivers drop repeats by it)."
    )
    webhook_id: strawberry.ID = strawberry.field(description="The webhook it goes to.")
    agent_id: strawberry.ID = strawberry.field(description="The agent the event is about.")
    event: WebhookEvent | None = strawberry.field(description="What happened.")
    status: WebhookDeliveryStatus | None = strawberry.field(description="Where it is.")
    attempts: int = strawberry.field(description="Attempts made so far.")
    max_attempts: int = strawberry.field(description="Attempts before it is dead-lettered.")
    next_attempt_at: datetime | None = strawberry.field(
        description="When it is (or was) due next; for an attempt in flight, when its lease "
        "runs out."
    )
    last_status_code: int | None = strawberry.field(
        description="The HTTP status of the last answer (null: no answer)."
    )
    last_error: str | None = strawberry.field(description="Why the last attempt failed.")
    event_at: datetime | None = strawberry.field(description="When the event happened.")
    created_at: datetime = strawberry.field(description="When the delivery was queued.")
    delivered_at: datetime | None = strawberry.field(description="When the endpoint took it.")


def delivery_from(d: Delivery) -> WebhookDeliveryType:
    return WebhookDeliveryType(
        id=strawberry.ID(d.id),
        webhook_id=strawberry.ID(d.webhook_id),
        agent_id=strawberry.ID(d.agent_id),
        event=to_api(WebhookEvent, d.type),
        status=to_api(WebhookDeliveryStatus, d.status),
        attempts=d.attempts,
        max_attempts=d.max_attempts,
        next_attempt_at=d.next_at,
        last_status_code=d.last_code,
        last_error=d.last_error,
        event_at=d.event_at,
        created_at=d.created_at,
        delivered_at=d.delivered_at,
    )


@strawberry.type(description="Result of `registerWebhook`.")
class RegisterWebhookPayload:
    webhook: WebhookType | None = strawberry.field(
        default=None, description="The webhook (null on error)."
    )
    secret: str | None = strawberry.field(
        default=None,
        description="Its signing secret, shown this once: deliveries carry "
        "`Hippograph-Signature: t=<unix>,v1=<HMAC-SHA256 of t.body>` under it.",
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it was refused (empty on success)."
    )


@strawberry.type(description="Result of `removeWebhook`.")
class RemoveWebhookPayload:
    removed: strawberry.ID | None = strawberry.field(
        default=None, description="The webhook removed (null on error)."
    )
    deliveries: int = strawberry.field(
        default=0, description="Its deliveries removed with it (queued ones are never sent)."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )
