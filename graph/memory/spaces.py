"""Which embedding model an agent's vectors come from, and the check that keeps them apart.

Vectors of two models live in two unrelated spaces, even when their dimension is the same
(MiniLM and e5-small are both 384-d): a query embedded by one and compared with facts embedded
by the other ranks by noise, silently. So the first write of an agent records its model on an
``(:AgentEmbedder {agent_id, embedder})`` node, inside the transaction that stores the first
vectors, and every later write (same transaction again) and every retrieve (the catalog count
read) compares it with the process's model. A mismatch is :class:`graph.errors.EmbedderMismatch`:
nothing is written, nothing ranked. ``hippograph reembed`` (:mod:`graph.memory.reembed`) moves
an agent to another model and records it.

Agents written before the record existed get one at their next write (the model of that
process); the check cannot know which model wrote their older vectors.
"""

from __future__ import annotations

from graph.errors import EmbedderMismatch
from graph.executor import Executor, Transaction
from graph.providers import Embedder

__all__ = ["check_space", "claim_space", "embedder_name", "record_space", "recorded_space"]


def embedder_name(embedder: Embedder) -> str:
    """The model name recorded for vectors: the embedder's ``name``."""
    return str(embedder.name)


def check_space(agent_id: str, recorded: str | None, current: str) -> None:
    """Raise :class:`EmbedderMismatch` when the agent's recorded model is another one
    (no record yet: nothing to compare, the caller's write records it)."""
    if recorded is not None and recorded != current:
        raise EmbedderMismatch(agent_id, recorded, current)


async def claim_space(tx: Transaction, agent_id: str, current: str) -> None:
    """In a write transaction that stores vectors: record ``current`` for a new agent, or
    refuse (the raise rolls the transaction back) when the agent has another model."""
    rows = await tx.run("spaces/claim", agent_id=agent_id, embedder=current)
    check_space(agent_id, rows[0]["embedder"], current)


async def recorded_space(executor: Executor, agent_id: str) -> str | None:
    """The model recorded for the agent, or None."""
    rows = await executor.run("spaces/recorded", {"agent_id": agent_id}, read=True)
    return str(rows[0]["embedder"]) if rows else None


async def record_space(executor: Executor, agent_id: str, current: str) -> None:
    """Set the agent's model (after its vectors were re-embedded with it)."""
    await executor.run("spaces/record", {"agent_id": agent_id, "embedder": current})
