"""Graph signals (thin I/O): hop-decayed BFS from the planner's entities and spreading
activation from the top seeds. The traversals themselves are Cypher files
in ``cypher/traversal/`` (hop bounds fixed in the file, cut by ``$max_hops``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graph.executor import Executor
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.ranking import recency
from graph.memory.read.search import Scope, cosine_from_index, fact_from_row

__all__ = ["activation_pool", "bfs_facts", "spreading_activation"]


def activation_pool(config: RetrieveConfig) -> int:
    """Facts per related entity whose cosine spreading activation computes."""
    return config.activation.activation_facts_per_entity * config.graph.graph_pool_factor * 4


async def bfs_facts(
    ex: Executor,
    scope: Scope,
    seeds: list[dict[str, Any]],
    config: RetrieveConfig,
    now: datetime,
    *,
    limit: int,
) -> list[ScoredFact]:
    """Facts linked (ABOUT) to the seed entities or their neighbours up to ``max_hops``.

    ``scores.graph`` is the traversal score divided by the query bonus, so a fact of an entity
    named in the query scores up to 1.0 and a fact two hops away at most ``hop_decay / 1.5``.
    """
    if not seeds:
        return []
    rows = await ex.run(
        "traversal/bfs_hop_decay",
        scope.params(
            seeds=seeds,
            max_entities=config.graph.graph_max_entities,
            max_hops=config.graph.max_hops,
            hop_decay=config.graph.hop_decay,
            query_bonus=config.graph.query_bonus,
            half_life_days=config.scoring.recency_half_life_days,
            now=now,
            pool=limit * config.graph.graph_pool_factor,
            budget=limit * config.graph.graph_read_budget,
            scan=limit * config.graph.graph_pool_factor * config.graph.hub_scan_factor,
            limit=limit,
        ),
        read=True,
    )
    facts = []
    for row in rows:
        fact = fact_from_row(row["fact"], "graph")
        # score = proximity × the fact's recency (floored at 0.5), as the traversal file says.
        fresh = 0.5 + 0.5 * recency(fact.created_at, now, config.scoring.recency_half_life_days)
        fact.scores.graph = min(1.0, float(row["proximity"]) * fresh / config.graph.query_bonus)
        fact.scores.semantic = cosine_from_index(row["semantic"])
        fact.hops = int(row["hops"])
        facts.append(fact)
    return facts


async def spreading_activation(
    ex: Executor, scope: Scope, seeds: list[ScoredFact], exclude: list[str], config: RetrieveConfig
) -> list[ScoredFact]:
    """Related facts reached from the seeds' entities (activation = seed score × decay^hop)."""
    if not seeds or config.activation.activation_hops <= 0:
        return []
    rows = await ex.run(
        "traversal/spreading_activation",
        scope.params(
            seeds=[{"id": f.id, "score": f.scores.formula} for f in seeds],
            max_hops=config.activation.activation_hops,
            decay=config.activation.activation_decay,
            max_related=config.activation.activation_max_related,
            per_entity=config.activation.activation_facts_per_entity,
            per_entity_pool=activation_pool(config),
            scan=activation_pool(config) * config.graph.hub_scan_factor,
            exclude=exclude,
        ),
        read=True,
    )
    facts = []
    for row in rows:
        fact = fact_from_row(row["fact"], "activation")
        fact.scores.graph = min(1.0, float(row["activation"]))
        fact.scores.semantic = cosine_from_index(row["semantic"])
        fact.hops = int(row["hops"])
        facts.append(fact)
    return facts
