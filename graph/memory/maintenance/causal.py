"""Reading causal links between facts: ``(:Fact)-[:CAUSES {strength}]->(:Fact)``.

The write pipeline's extraction creates the links ("because", "led to", "due to" …); these
functions answer "why is this so?" (:func:`causes_of`) and "what did it lead to?"
(:func:`effects_of`) for one agent.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.executor import Executor

__all__ = ["CausalLink", "causes_of", "effects_of"]


@dataclass(frozen=True)
class CausalLink:
    fact_id: str
    text: str
    strength: float
    active: bool


async def _links(
    name: str, executor: Executor, agent_id: str, fact_id: str, active_only: bool
) -> list[CausalLink]:
    rows = await executor.run(
        name, {"agent_id": agent_id, "fact_id": fact_id, "active_only": active_only}, read=True
    )
    return [CausalLink(r["id"], r["text"], float(r["strength"]), bool(r["active"])) for r in rows]


async def causes_of(
    executor: Executor, agent_id: str, fact_id: str, *, active_only: bool = False
) -> list[CausalLink]:
    """Facts that cause ``fact_id`` (strongest first); closed facts included unless asked."""
    return await _links("consolidation/causes_of", executor, agent_id, fact_id, active_only)


async def effects_of(
    executor: Executor, agent_id: str, fact_id: str, *, active_only: bool = False
) -> list[CausalLink]:
    """Facts that ``fact_id`` causes (strongest first)."""
    return await _links("consolidation/effects_of", executor, agent_id, fact_id, active_only)
