"""Webhooks: memory events delivered to operators' endpoints, signed, in order per agent,
retried and dead-lettered, queued in Neo4j (docs/webhooks.md).

``events`` (what can be delivered, read from the audit trail, finished jobs and messages that
extracted nothing; the JSON body), ``signing`` (HMAC-SHA256 over ``timestamp.body``),
``targets`` (which URLs may be contacted), ``registry`` (register, list, remove), ``dispatch``
(events → queued deliveries), ``sender`` (the loop that sends them), ``deliveries`` (listing),
``service`` (the ``Memory.webhooks`` namespace).
"""

from graph.memory.webhooks.deliveries import DELIVERY_STATUSES, Delivery, list_deliveries
from graph.memory.webhooks.dispatch import dispatch
from graph.memory.webhooks.events import EVENT_TYPES, MemoryEvent
from graph.memory.webhooks.registry import (
    Registered,
    Webhook,
    list_webhooks,
    register_webhook,
    remove_webhook,
)
from graph.memory.webhooks.sender import WebhookSender
from graph.memory.webhooks.service import Webhooks
from graph.memory.webhooks.signing import REPLAY_WINDOW_S, signature_header, verify
from graph.memory.webhooks.targets import TargetRefused, check_target

__all__ = [
    "DELIVERY_STATUSES",
    "EVENT_TYPES",
    "REPLAY_WINDOW_S",
    "Delivery",
    "MemoryEvent",
    "Registered",
    "TargetRefused",
    "Webhook",
    "WebhookSender",
    "Webhooks",
    "check_target",
    "dispatch",
    "list_deliveries",
    "list_webhooks",
    "register_webhook",
    "remove_webhook",
    "signature_header",
    "verify",
]
