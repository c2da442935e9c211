"""``hippograph webhook add|list|remove|deliveries``: the operator's webhooks (docs/webhooks.md),
the same services as the admin GraphQL fields ``registerWebhook``, ``webhooks``,
``removeWebhook`` and ``webhookDeliveries``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TypeVar

import typer

from graph.errors import GraphError
from graph.executor import connected
from graph.memory.webhooks import DELIVERY_STATUSES, EVENT_TYPES, Webhooks
from server.composition import jobs_config
from server.settings import get_settings

__all__ = ["app", "register"]

T = TypeVar("T")

app = typer.Typer(
    help="Register, list and remove webhooks: memory events POSTed to your endpoints, signed.",
    no_args_is_help=True,
)


def _run(work: Callable[[Webhooks], Awaitable[T]]) -> T:
    s = get_settings()

    async def main() -> T:
        async with connected(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database) as ex:
            return await work(Webhooks(ex, jobs_config(s).webhooks))

    try:
        return asyncio.run(main())
    except GraphError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@app.command()
def add(
    url: str = typer.Argument(..., help="Where to POST the deliveries (https:// in production)."),
    tenant: str = typer.Option(None, "--tenant", help="Every agent of this tenant."),
    agent: str = typer.Option(None, "--agent", help="This one agent."),
    events: str = typer.Option(
        "", "--events", help=f"Comma-separated events (default: all of {', '.join(EVENT_TYPES)})."
    ),
    description: str = typer.Option(None, "--description", help="A note for operators."),
) -> None:
    """Register a webhook for a tenant's agents or one agent. The signing secret is printed
    ONCE. Targets that resolve to loopback, private or link-local addresses are refused unless
    HIPPOGRAPH_WEBHOOK_ALLOW_PRIVATE=true."""
    wanted = [e.strip() for e in events.split(",") if e.strip()] or None
    done = _run(
        lambda hooks: hooks.register(
            url, tenant=tenant, agent_id=agent, events=wanted, description=description
        )
    )
    typer.echo(f"webhook id: {done.webhook.id}")
    typer.echo(f"signing secret (shown once, store it now): {done.secret}")
    typer.echo(f"events: {', '.join(done.webhook.events)}")


@app.command("list")
def list_cmd(
    tenant: str = typer.Option(None, "--tenant", help="Only this tenant's."),
    agent: str = typer.Option(None, "--agent", help="Only this agent's."),
) -> None:
    """List webhooks, newest first, with their deliveries' counts (never their secrets)."""
    hooks = _run(lambda h: h.list(tenant=tenant, agent_id=agent))
    for w in hooks:
        scope = f"tenant {w.tenant}" if w.scope == "tenant" else f"agent {w.agent_id}"
        typer.echo(
            f"{w.id}  {scope}  {w.url}  events={','.join(w.events)}  "
            f"pending={w.pending} delivered={w.delivered} dead={w.dead}  secret …{w.secret_hint}"
        )
    typer.echo(f"-- {len(hooks)} webhook(s)")


@app.command()
def remove(webhook_id: str = typer.Argument(..., help="The webhook (wh_…).")) -> None:
    """Remove a webhook with its deliveries (queued ones are not sent)."""
    gone = _run(lambda h: h.remove(webhook_id))
    typer.echo(f"removed {webhook_id} and {gone} deliver{'y' if gone == 1 else 'ies'}")


@app.command()
def deliveries(
    status: str = typer.Option(None, "--status", help=f"One of {', '.join(DELIVERY_STATUSES)}."),
    webhook: str = typer.Option(None, "--webhook", help="Only this webhook's."),
    agent: str = typer.Option(None, "--agent", help="Only this agent's."),
    limit: int = typer.Option(50, "--limit", min=1, max=500),
) -> None:
    """List deliveries, newest first, as JSON lines."""
    found = _run(
        lambda h: h.deliveries(
            statuses=[status] if status else None, webhook_id=webhook, agent_id=agent, limit=limit
        )
    )
    for d in found:
        typer.echo(
            json.dumps(
                {
                    "id": d.id,
                    "webhook": d.webhook_id,
                    "agent": d.agent_id,
                    "event": d.type,
                    "status": d.status,
                    "attempts": d.attempts,
                    "last_code": d.last_code,
                    "last_error": d.last_error,
                    "created_at": d.created_at.isoformat(),
                },
                ensure_ascii=False,
            )
        )


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="webhook")
