"""Operator actions on a whole agent."""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.executor import Executor

__all__ = ["COUNTED", "AgentDeletion", "delete_agent", "delete_agent_nodes"]


@dataclass(frozen=True)
class AgentDeletion:
    """What deleting an agent removed: nodes (and of them, ``counts`` per kind: facts, events,
    entities, documents, observations, jobs), and API keys changed or revoked."""

    nodes: int
    keys_changed: int
    keys_revoked: int
    counts: dict[str, int] = field(default_factory=dict)


COUNTED = ("facts", "events", "entities", "documents", "observations", "jobs")


async def delete_agent_nodes(
    executor: Executor, agent_id: str, *, batch: int = 10_000, release: bool = True
) -> AgentDeletion:
    """Delete every node of ``agent_id`` and (``release``) release the id.

    Nodes go in batches, each its own transaction (so the server's transaction memory limit
    holds for agents of any size): first through each label's agent index, then a last sweep
    of any node carrying the agent id. Then the id is released: its tenant claim goes and API
    keys stop naming it (a key left without any agent is revoked). With ``release=False`` the
    keys keep naming it, for an agent about to be loaded again (the demo's reset); its tenant
    claim is one of its nodes and goes with them (the next write through a key claims it).
    """
    total = 0
    counts = dict.fromkeys(COUNTED, 0)
    for name in ("erase/delete_agent", "admin/delete_agent"):
        while True:
            rows = await executor.run(name, {"agent_id": agent_id, "batch": batch})
            deleted = int(rows[0]["deleted"]) if rows else 0
            total += deleted
            for kind in COUNTED:
                counts[kind] += int(rows[0].get(kind) or 0) if rows else 0
            if deleted < batch:
                break
    if not release:
        return AgentDeletion(total, 0, 0, counts)
    rows = await executor.run("erase/release_agent", {"agent_id": agent_id})
    keys = rows[0] if rows else {"keys_changed": 0, "keys_revoked": 0}
    return AgentDeletion(total, int(keys["keys_changed"]), int(keys["keys_revoked"]), counts)


async def delete_agent(executor: Executor, agent_id: str, *, batch: int = 10_000) -> int:
    """:func:`delete_agent_nodes`; returns how many nodes were deleted."""
    return (await delete_agent_nodes(executor, agent_id, batch=batch)).nodes
