"""How specific an entity is, and the candidates scored by it (pure; spreading
activation's scoring, ``activation.py``).

Why specificity: a speaker or the user is mentioned by most facts, so "a fact about Caroline"
says little, while "a fact about LGBTQ" (17 of 184 facts) or about "Becoming Nicole" (one
fact) says a lot. An entity's weight is ``ln(1 + N / degree) / ln(1 + N)`` (N = the agent's
facts, degree = facts that mention it): 1.0 for an entity of one fact, ~0.2 for one that half
the facts mention. A fact scores the sum over the distinct entities through which it was
reached of ``seed weight × decay^hops × specificity`` (capped at 1), so a fact that mentions
two of the seeds' entities outranks one that mentions either."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from graph.memory.read.models import ScoredFact
from graph.memory.read.search import Asked, choose_vector, cosine_from_index, fact_from_row

__all__ = ["entity_scores", "specificity"]


def specificity(degree: int, agent_facts: int) -> float:
    """IDF-like weight of an entity mentioned by ``degree`` of the agent's ``agent_facts``
    facts, in (0, 1] (pure)."""
    n = max(1, agent_facts)
    d = min(max(1, degree), n)
    return math.log1p(n / d) / math.log1p(n)


def entity_scores(
    rows: Iterable[dict[str, Any]], agent_facts: int, asked: Asked | None = None
) -> list[ScoredFact]:
    """Candidates from rows of reached facts (pure): one per fact, ``scores.graph`` =
    min(1, Σ over the distinct entities it was reached through of weight × specificity),
    ``hops`` = the fewest hops; a glossed fact's semantic score is the better of its two
    cosines for a question asked as ``asked`` says (``search.choose_vector``)."""
    facts: dict[str, ScoredFact] = {}
    reached: dict[str, set[str]] = {}
    for row in rows:
        hops = int(row["hops"])
        fid = row["fact"]["id"]
        fact = facts.get(fid)
        if fact is None:
            fact = facts[fid] = fact_from_row(row["fact"], "entity")
            fact.scores.semantic = cosine_from_index(row["semantic"])
            if row.get("gloss_semantic") is not None and row.get("text_semantic") is not None:
                choose_vector(
                    fact,
                    cosine_from_index(row["text_semantic"]),
                    cosine_from_index(row["gloss_semantic"]),
                    asked or Asked(),
                )
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
