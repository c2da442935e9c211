"""Relation answers: "Where does Ana live?" names Ana and asks for a relation of hers. The
graph holds it (``Ana -[lives_in]-> Lisboa``, with the fact that said so as its evidence), so
that evidence fact is the answer, above Ana's other facts, which the graph signal lifts
alike. The question's relation words are its word stems (as spreading activation reads them) plus the
English words its Portuguese or Spanish words stand for (``text.relation_words``: "mora" →
"live"), so a question in one language finds a relation written from a message in another.

A candidate that evidences a matching visible relationship of a named entity gets the
``relation`` score 1.0, weighed by ``weights["relation"]`` among the boosts
(``ranking.score_facts``). The signals statement finds them (``combined.all_signals``), only
when the question names an entity."""

from __future__ import annotations

from collections.abc import Iterable

from graph.memory.read.models import ScoredFact
from graph.memory.read.words import stems
from graph.memory.text import relation_words

__all__ = ["mark_answers", "relation_terms"]


def relation_terms(query: str) -> list[str]:
    """The stems a relation type's words are matched against (pure)."""
    return sorted({*stems(query), *relation_words(query)})


def mark_answers(facts: Iterable[ScoredFact], answers: set[str]) -> int:
    """Set the relation score of the candidates that evidence a matching relationship (pure);
    returns how many."""
    marked = 0
    for fact in facts:
        if fact.id in answers:
            fact.scores.relation = 1.0
            marked += 1
    return marked
