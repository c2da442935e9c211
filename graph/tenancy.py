"""Tenancy of agents: every agent id belongs to exactly one tenant.

The same agent id in two tenants is refused (not two memories): the first tenant to use an id
owns it (``(:AgentTenant {agent_id, tenant})``, unique agent id), a key of another tenant
naming it cannot be created, and such a key's requests are refused. ``--all-agents`` keys reach
every agent of their own tenant and may start new agent ids (claimed by their first write);
they never reach an agent owned by another tenant nor data without a tenant (agents written
before tenancy existed, or by the operator's CLI), which only an operator's key naming the
agent claims.

Reads never claim: a read of an id nobody owns is refused exactly like a read of another
tenant's agent, so reading cannot reveal which ids exist (and cannot squat on them).
Deleting an agent (``graph.agent_deletion.delete_agent``, ``hippograph erase --all``) releases its id and
removes it from API keys (a key left with no agent is revoked).
"""

from __future__ import annotations

from graph.errors import BadInput
from graph.executor import Executor

__all__ = ["agent_owner", "claim_agents", "may_access"]


async def _owner(executor: Executor, agent_id: str) -> tuple[bool, str | None]:
    rows = await executor.run("tenancy/agent_owner", {"agent_id": agent_id}, read=True)
    return (True, rows[0]["tenant"]) if rows else (False, None)


async def agent_owner(executor: Executor, agent_id: str) -> str | None:
    """The tenant owning ``agent_id``; None when no tenant does (never used, released by an
    erase, or legacy data without a tenant)."""
    return (await _owner(executor, agent_id))[1]


async def _claim(executor: Executor, agent_id: str, tenant: str, named: bool) -> str | None:
    rows = await executor.run(
        "tenancy/claim_agent", {"agent_id": agent_id, "tenant": tenant, "named": named}
    )
    return rows[0]["tenant"] if rows else None


async def _has_data(executor: Executor, agent_id: str) -> bool:
    rows = await executor.run("tenancy/agent_has_data", {"agent_id": agent_id}, read=True)
    return bool(rows and rows[0]["has_data"])


async def may_access(
    executor: Executor, tenant: str, agent_id: str, *, named: bool, claim: bool = True
) -> bool:
    """True when ``tenant`` owns ``agent_id`` (claiming a new id, or — when the key ``named``
    the agent — an unclaimed legacy one). One indexed read once the id is owned.

    ``claim=False`` (reads): nothing is claimed; an id nobody owns is reachable only by a key
    naming it (an operator's grant), so for an ``--all-agents`` key an unknown id and another
    tenant's id answer the same (False)."""
    exists, owner = await _owner(executor, agent_id)
    if exists and owner is not None:
        return owner == tenant
    if not claim:
        return named
    if not named and (exists or await _has_data(executor, agent_id)):
        return False  # data without a tenant: only an operator's key naming the agent claims it
    return await _claim(executor, agent_id, tenant, named) == tenant


async def claim_agents(executor: Executor, tenant: str, agent_ids: list[str]) -> None:
    """Claim agents for a new key of ``tenant``.

    Raises:
        BadInput: one of the agents belongs to another tenant (checked before any claim).
    """
    for agent_id in agent_ids:
        _, owner = await _owner(executor, agent_id)
        if owner is not None and owner != tenant:
            raise BadInput(
                f"agent {agent_id!r} belongs to another tenant; agent ids are unique across tenants"
            )
    for agent_id in agent_ids:
        if await _claim(executor, agent_id, tenant, True) != tenant:
            raise BadInput(
                f"agent {agent_id!r} belongs to another tenant; agent ids are unique across tenants"
            )
