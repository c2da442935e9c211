"""``Memory.webhooks``: the webhook functions bound to this process's executor and the
operator's webhook settings (which decide, for instance, whether private targets may be
registered). No logic here; see the modules of :mod:`graph.memory.webhooks`."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass

from graph.executor import Executor
from graph.memory.documents.fetch import Resolver, system_resolver
from graph.memory.jobs.jobs_config import WebhookConfig
from graph.memory.webhooks.deliveries import Delivery, list_deliveries
from graph.memory.webhooks.registry import (
    Registered,
    Webhook,
    list_webhooks,
    register_webhook,
    remove_webhook,
)

__all__ = ["Webhooks"]


@dataclass(frozen=True)
class Webhooks:
    """Register, list and remove webhooks; list their deliveries."""

    executor: Executor
    config: WebhookConfig
    resolver: Resolver = system_resolver

    async def register(
        self,
        url: str,
        *,
        tenant: str | None = None,
        agent_id: str | None = None,
        events: Sequence[str] | None = None,
        description: str | None = None,
    ) -> Registered:
        return await register_webhook(
            self.executor,
            url,
            tenant=tenant,
            agent_id=agent_id,
            events=events,
            description=description,
            allow_private=self.config.allow_private,
            resolver=self.resolver,
        )

    async def list(
        self, *, tenant: str | None = None, agent_id: str | None = None
    ) -> list[Webhook]:
        return await list_webhooks(self.executor, tenant=tenant, agent_id=agent_id)

    async def remove(self, webhook_id: str) -> int:
        return await remove_webhook(self.executor, webhook_id)

    async def deliveries(
        self,
        *,
        statuses: Sequence[str] | None = None,
        webhook_id: str | None = None,
        agent_id: str | None = None,
        limit: int = 50,
    ) -> builtins.list[Delivery]:
        return await list_deliveries(
            self.executor,
            statuses=statuses,
            webhook_id=webhook_id,
            agent_id=agent_id,
            limit=limit,
        )
