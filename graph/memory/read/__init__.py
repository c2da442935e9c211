"""The read pipeline: ``Retriever(executor, embedder, llm, config).retrieve(agent_id, query)``.

Stages (docs/architecture.md, Read pipeline): deterministic planner → semantic / keyword / graph signals run
concurrently → merge & rank → spreading activation → optional LLM rerank → token-budgeted
context. See ``docs`` in each module; Cypher lives in ``cypher/read`` and ``cypher/traversal``.
"""

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import (
    EntityMatch,
    EventHit,
    ObservationHit,
    RetrievalPlan,
    RetrieveResult,
    ScoredFact,
    Scores,
)
from graph.memory.read.retriever import Retriever

__all__ = [
    "EntityMatch",
    "EventHit",
    "ObservationHit",
    "RetrievalPlan",
    "RetrieveConfig",
    "RetrieveResult",
    "Retriever",
    "ScoredFact",
    "Scores",
]
