"""Erase: hard deletion of a fact, a subject or an agent with every copy of its text."""

from graph.memory.erase.plan import EraseReport, EraseTarget, erase_target
from graph.memory.erase.run import erase, erase_agent, erase_entity, erase_fact

__all__ = [
    "EraseReport",
    "EraseTarget",
    "erase",
    "erase_agent",
    "erase_entity",
    "erase_fact",
    "erase_target",
]
