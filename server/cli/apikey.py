"""``hippograph apikey create|list|revoke``: API keys mapping callers to agents."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import typer

from graph.errors import GraphError
from graph.executor import connected
from server.auth import ApiKeyStore
from server.settings import get_settings

__all__ = ["app", "register"]

T = TypeVar("T")

app = typer.Typer(
    help="Create, list and revoke API keys (stored hashed in Neo4j).", no_args_is_help=True
)


def _run(work: Callable[[ApiKeyStore], Awaitable[T]]) -> T:
    s = get_settings()

    async def main() -> T:
        async with connected(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database) as ex:
            return await work(ApiKeyStore(ex))

    try:
        return asyncio.run(main())
    except GraphError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc


@app.command()
def create(
    tenant: str = typer.Option(..., help="Tenant (customer / team) owning the key."),
    agents: str = typer.Option("", help="Comma-separated agent ids the key may read and write."),
    all_agents: bool = typer.Option(
        False,
        "--all-agents",
        help="Every agent of the tenant (current and future); never another tenant's agent.",
    ),
    admin: bool = typer.Option(False, "--admin", help="Admin key: everything, every agent."),
) -> None:
    """Create a key. It is printed ONCE; only its sha256 is stored."""
    agent_list = [a for a in agents.split(",") if a.strip()]
    key_id, key = _run(
        lambda store: store.create(tenant, agent_list, all_agents=all_agents, admin=admin)
    )
    typer.echo(f"key id: {key_id}")
    typer.echo(f"api key (shown once, store it now): {key}")


@app.command("list")
def list_keys(tenant: str = typer.Option(None, help="Only this tenant.")) -> None:
    """List keys (never the keys themselves)."""
    for k in _run(lambda store: store.list(tenant)):
        scope = (
            "ADMIN"
            if k.admin
            else ("all agents of the tenant" if k.all_agents else ",".join(k.agents))
        )
        state = f"revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "active"
        typer.echo(f"{k.id}  {k.tenant:<20} {state:<18} {scope}")


@app.command()
def revoke(key_id: str = typer.Argument(..., help="Key id from `apikey list`.")) -> None:
    """Revoke a key (running API processes notice within 30 seconds)."""
    _run(lambda store: store.revoke(key_id))
    typer.echo(f"revoked {key_id}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="apikey")
