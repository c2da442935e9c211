"""Operator actions on a whole agent."""

from __future__ import annotations

from graph.executor import Executor

__all__ = ["delete_agent"]


async def delete_agent(executor: Executor, agent_id: str, *, batch: int = 10_000) -> int:
    """Delete every node of ``agent_id`` in batches (each its own transaction, so the server's
    transaction memory limit holds for agents of any size). Returns how many were deleted."""
    total = 0
    while True:
        rows = await executor.run("admin/delete_agent", {"agent_id": agent_id, "batch": batch})
        deleted = int(rows[0]["deleted"]) if rows else 0
        total += deleted
        if deleted < batch:
            return total
