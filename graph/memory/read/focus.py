"""retrieve's type focus: keep only, or lift, the facts about entities of some types or that
state relationships of some types.

A fact is *about* an entity type when its subject is of that type (the key's ``type:`` part;
the caller adds an ontology's subtypes). A fact *states* a relation type when a ``RELATES_TO``
relationship of that type names it as its evidence (``evidence_fact_id``): the fact that said
"Maria bought the X200" states her ``owns``; other facts about Maria do not. Filters drop the
facts that do not match; boosts multiply a matching fact's final score by ``BOOST`` before the
cut and keep every other fact. Types nobody stores match nothing: a filter gives an empty
result, a boost lifts nothing. Only relation types cost a read (one, over the candidates'
ids); entity types are read from the facts themselves.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from graph.executor import Executor
from graph.memory.read.models import ScoredFact

__all__ = ["BOOST", "TypeFocus", "about", "apply_focus"]

# A boosted fact's final score is multiplied by this before the cut: enough to lift a fact
# over others that scored up to a third higher, not enough to lift a weak match over a strong.
BOOST = 1.5


@dataclass(frozen=True)
class TypeFocus:
    """What one retrieve keeps and lifts. ``None`` filters keep everything."""

    entity_types: frozenset[str] | None = None
    relation_types: frozenset[str] | None = None
    boost_entity_types: frozenset[str] = frozenset()
    boost_relation_types: frozenset[str] = frozenset()

    @property
    def relations_asked(self) -> frozenset[str]:
        """Every relation type the focus needs to know the facts of (empty: no read)."""
        return (self.relation_types or frozenset()) | self.boost_relation_types

    @property
    def empty(self) -> bool:
        return (
            self.entity_types is None
            and self.relation_types is None
            and not self.boost_entity_types
            and not self.boost_relation_types
        )


def about(facts: list[ScoredFact], types: Collection[str] | None) -> list[ScoredFact]:
    """The facts whose subject's type is one of ``types``; all of them when ``types`` is None.
    Applied to the candidates and again to the ranked facts (spreading activation adds its
    own)."""
    if types is None:
        return facts
    return [f for f in facts if _subject_type(f) in types]


async def apply_focus(
    executor: Executor, agent_id: str, facts: list[ScoredFact], focus: TypeFocus
) -> list[ScoredFact]:
    """The facts kept by the focus's filters, the boosted ones with their final score lifted
    by ``BOOST`` (call before the cut, then order again)."""
    facts = about(facts, focus.entity_types)
    stated: dict[str, set[str]] = {}
    asked = focus.relations_asked
    if asked and facts:
        rows = await executor.run(
            "read/stated_relations",
            {"agent_id": agent_id, "ids": [f.id for f in facts], "types": sorted(asked)},
            read=True,
        )
        stated = {row["fact_id"]: set(row["types"]) for row in rows}
    if focus.relation_types is not None:
        facts = [f for f in facts if stated.get(f.id, set()) & focus.relation_types]
    for fact in facts:
        if _subject_type(fact) in focus.boost_entity_types or (
            stated.get(fact.id, set()) & focus.boost_relation_types
        ):
            fact.scores.final *= BOOST
    return facts


def _subject_type(fact: ScoredFact) -> str:
    return (fact.subject_key or "").partition(":")[0]
