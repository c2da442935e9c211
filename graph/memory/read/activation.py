"""Spreading activation: multi-hop candidates reached from the best-ranked facts (thin I/O
around pure scoring).

A multi-hop question names the first hop ("the journal X") and describes the second through a
relation ("the association which published X"). The best facts so far usually hold the first
hop; the answer sits in facts about an entity those facts mention or are related to. So
activation spreads from the ``activation_seeds`` best facts (after the first scoring, the
hop-decayed traversal and keyword boosts included) through the entities they mention to the
entities themselves (hop 0: facts that share an entity) and to their RELATES_TO neighbours
(hop 1), then to the facts about what it reached (``cypher/traversal/spreading_activation.cypher``).
It decays on the way: a hop-1 edge whose relation type shares a word stem with the question
("published_by" for "which published") keeps the seed's full activation; any other edge
``activation_unmatched`` of it, a shared entity ``activation_shared``. An entity's activation is
further scaled by its specificity (``specificity.specificity``: an entity of few facts says more
than a hub), and a fact sums it over the distinct entities it was reached through (capped at 1)
as its ``activation`` score. Seeds carry their score relative to the best fact, so after scoring
a reached fact scores at least ``weights["activation"]`` × activation × the best score
(``lift_activated``): at most its seed's share, so activated facts fill the places below the
seeds instead of pushing them down."""

from __future__ import annotations

from graph.executor import Executor
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.search import Asked, Scope
from graph.memory.read.specificity import entity_scores
from graph.memory.read.words import stems
from graph.memory.text import detect_language
from graph.plan_shapes import padded

__all__ = ["activated_facts", "lift_activated", "seed_facts"]

# Pads that match nothing: no fact has an empty id, no relation-type word starts with NUL.
NO_SEED: dict[str, float | str] = {"id": "", "score": 0.0}
NO_STEM = "\u0000"


def seed_facts(ordered: list[ScoredFact], count: int) -> list[dict[str, float | str]]:
    """The ``count`` best facts, each with its score relative to the best one (pure)."""
    top = ordered[:count]
    best = max((f.scores.final for f in top), default=0.0)
    return [{"id": f.id, "score": f.scores.final / best if best > 0 else 0.0} for f in top]


def lift_activated(facts: list[ScoredFact], best: float, weight: float) -> int:
    """Raise every activated fact's final score to ``weight`` × its activation × ``best`` (the
    best final score before activation spread) when that is higher (pure); returns how many
    rose."""
    lifted = 0
    for fact in facts:
        value = min(1.0, weight * fact.scores.activation * best)
        if value > fact.scores.final:
            fact.scores.formula = fact.scores.final = value
            lifted += 1
    return lifted


async def activated_facts(
    ex: Executor,
    scope: Scope,
    query: str,
    ordered: list[ScoredFact],
    cfg: RetrieveConfig,
    agent_facts: int,
) -> list[ScoredFact]:
    """Facts activation reaches from the best of ``ordered`` ([] when ``activation_seeds`` is
    0)."""
    a = cfg.activation
    seeds = seed_facts(ordered, a.activation_seeds)
    if not seeds:
        return []
    rows = await ex.run(
        "traversal/spreading_activation",
        scope.params(
            # One plan for every question: lists padded to one size bucket (plan_shapes).
            seeds=padded(seeds, NO_SEED),
            terms=padded(stems(query), NO_STEM),
            shared=a.activation_shared,
            unmatched=a.activation_unmatched,
            hub_max=max(a.entity_hub_min, int(a.entity_hub_share * max(1, agent_facts))),
            agent_facts=max(1, agent_facts),
            max_entities=a.activation_entities,
            budget=a.activation_read_budget,
            per_entity=a.activation_per_entity,
            scan=cfg.graph.graph_limit * cfg.graph.graph_pool_factor,
            glosses=cfg.candidates.enable_gloss,
        ),
        read=True,
    )
    asked = Asked(detect_language(query), cfg.scoring.language_gap)
    facts = entity_scores(rows, agent_facts, asked)
    for fact in facts:
        fact.sources = {"activation"}
        fact.scores.activation, fact.scores.graph = fact.scores.graph, 0.0
        fact.hops = None  # hops count from the query's entities (the traversal), not a seed
    return facts
