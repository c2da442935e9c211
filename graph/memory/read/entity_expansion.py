"""Entity-centric expansion (option ``entity_expansion``, off by default): the facts of the
entities a question names — and, with ``"feedback"``, of the entities the best semantic hits
mention — and of their 1-hop neighbours (co-mentioned in a fact, or related) join the
candidates, scored by how specific the entities they reach are.

Why specificity: a speaker or the user is mentioned by most facts, so "a fact about Caroline"
says little, while "a fact about LGBTQ" (17 of 184 facts) or about "Becoming Nicole" (one
fact) says a lot. An entity's weight is ``ln(1 + N / degree) / ln(1 + N)`` (N = the agent's
facts, degree = facts that mention it): 1.0 for an entity of one fact, ~0.2 for one that half
the facts mention. A fact scores the sum over the distinct entities through which it was
reached of ``seed weight × decay^hops × specificity`` (capped at 1), so a fact that mentions
two of the question's entities outranks one that mentions either. The score is the fact's
``graph`` component (max-merged with BFS and activation)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from graph.executor import Executor
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import RetrievalPlan, ScoredFact
from graph.memory.read.search import Scope, cosine_from_index, fact_from_row

__all__ = ["entity_facts", "entity_scores", "specificity"]


def specificity(degree: int, agent_facts: int) -> float:
    """IDF-like weight of an entity mentioned by ``degree`` of the agent's ``agent_facts``
    facts, in (0, 1] (pure)."""
    n = max(1, agent_facts)
    d = min(max(1, degree), n)
    return math.log1p(n / d) / math.log1p(n)


def entity_scores(rows: Iterable[dict[str, Any]], agent_facts: int) -> list[ScoredFact]:
    """Candidates from the ``read/entity_facts`` rows (pure): one per fact, ``scores.graph`` =
    min(1, Σ over the distinct entities it was reached through of weight × specificity),
    ``hops`` = the fewest hops."""
    facts: dict[str, ScoredFact] = {}
    reached: dict[str, set[str]] = {}
    for row in rows:
        hops = int(row["hops"])
        fid = row["fact"]["id"]
        fact = facts.get(fid)
        if fact is None:
            fact = facts[fid] = fact_from_row(row["fact"], "entity")
            fact.scores.semantic = cosine_from_index(row["semantic"])
            fact.hops = hops
            reached[fid] = set()
        if row["key"] in reached[fid]:
            continue
        reached[fid].add(row["key"])
        fact.hops = min(fact.hops if fact.hops is not None else hops, hops)
        fact.scores.graph = min(
            1.0,
            fact.scores.graph + float(row["weight"]) * specificity(int(row["degree"]), agent_facts),
        )
    return list(facts.values())


async def entity_facts(
    ex: Executor,
    scope: Scope,
    plan: RetrievalPlan,
    cfg: RetrieveConfig,
    agent_facts: int,
    seed_facts: Sequence[ScoredFact] = (),
) -> list[ScoredFact]:
    """Run ``read/entity_facts`` for the plan's named entities (and, ``"feedback"``, the
    entities of ``seed_facts``); [] when the option is off or there is nothing to seed."""
    if cfg.expansion.entity_expansion == "off":
        return []
    seeds = [{"key": e.key, "weight": 1.0} for e in plan.entities if e.named]
    x = cfg.expansion
    fact_seeds = (
        [{"id": f.id, "weight": x.entity_feedback_weight} for f in seed_facts]
        if x.entity_expansion == "feedback"
        else []
    )
    if not seeds and not fact_seeds:
        return []
    hub_max = max(x.entity_hub_min, int(x.entity_hub_share * max(1, agent_facts)))
    rows = await ex.run(
        "read/entity_facts",
        scope.params(
            seeds=seeds,
            fact_seeds=fact_seeds,
            hub_max=hub_max,
            decay=x.entity_decay,
            max_entities=x.entity_max,
            pool=cfg.graph.graph_limit * cfg.graph.graph_pool_factor,
            per_seed=x.entity_per_seed,
            per_neighbour=x.entity_per_neighbour,
        ),
        read=True,
    )
    return entity_scores(rows, agent_facts)
