"""The read pipeline: ``Retriever(executor, embedder, llm, config).retrieve(agent_id, query)``.

What a retrieve runs, in order (``retriever`` sequences it; docs/architecture.md, Read pipeline):

1. Small talk (a greeting, thanks) ends here with an empty result and no database query
   (``planner.casual_plan``).
2. Plan, no LLM (``planner``): one catalog read resolves the names in the query to entities and
   finds the entity types an aggregation question asks for; the query's time window
   (``temporal``). The query embedding is computed at the same time.
3. Signals in one statement (``gather``, ``combined``, ``search``; ``cypher/read/signals.cypher``):
   semantic, keyword (full text), graph (the hop-decayed traversal: BFS over relationships from
   the named entities, its proximity decaying with each hop), aggregation, event snippets and
   observations; the facts that answer a relation question are marked (``relations``).
4. Spreading activation (``activation``; ``cypher/traversal/spreading_activation.cypher``)
   spreads from the best facts through the entities they mention and their relationships to
   the facts about what it reaches, decaying on the way; it starts from the semantic hits
   while the signals statement runs when the agent's semantic search is a statement of its
   own, else from the first ranking.
5. Rank (``ranking``): merge the candidates, score them (semantic, recency and importance
   blended; keyword, graph, temporal and relation boosts; confidence decay; a fact lifted to a
   share of its source turn's score), lift the activated facts under their seeds, re-score with a
   second embedder and rerank with the LLM when configured (``rerank``), cut to ``topk_facts``.
6. Context (``formatter``): snippets a chosen fact already stands for are dropped, and the
   facts, observations and snippets are written into a token-budgeted context.

The Cypher lives in ``cypher/read`` and ``cypher/traversal``.
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
