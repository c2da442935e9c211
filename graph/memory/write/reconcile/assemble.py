"""Write pipeline, between resolution and reconciliation: the resolved extraction becomes the
fact items and relation items the decisions and the plan work on (pure, no I/O)."""

from __future__ import annotations

import logging
from typing import Any

from graph.memory.text import content_hash, normalize
from graph.memory.write.extract.extraction import ExtractedFact, Extraction
from graph.memory.write.reconcile.items import FactItem, RelationItem, find_evidence, mentions
from graph.memory.write.resolve.stage import Resolved

__all__ = ["Assembled", "assemble", "fact_item"]

log = logging.getLogger(__name__)


class Assembled:
    """The fact items (mirrors last, without vectors yet) and the relation items."""

    def __init__(
        self, items: list[FactItem], relations: list[RelationItem], mirrors: list[FactItem]
    ) -> None:
        self.items = items
        self.relations = relations
        self.mirrors = mirrors


def assemble(
    agent_id: str,
    ex: Extraction,
    facts: list[ExtractedFact],
    fact_vecs: list[list[float]],
    resolved: Resolved,
    speaker: str,
    mirror_confidence: float,
    offline: bool,
) -> Assembled:
    """Fact items keyed by their resolved subjects, relations between resolved keys (self
    loops and repeats dropped) with the fact that supports each, and a mirror fact for a
    relation no fact supports (LLM path; its vector is computed by the caller)."""
    ents = list(resolved.entities.values())

    def key_of(name: str) -> str:
        return resolved.key_of(name, speaker)

    items: list[FactItem] = []
    for fact, vec in zip(facts, fact_vecs, strict=True):
        items.append(fact_item(agent_id, len(items), fact, key_of(fact.subject), vec, ents))
    relations: list[RelationItem] = []
    seen_rel: set[tuple[str, str, str]] = set()
    for rel in ex.relations:
        src, dst = key_of(rel.source), key_of(rel.target)
        if src == dst or (src, dst, rel.type) in seen_rel:
            continue
        seen_rel.add((src, dst, rel.type))
        relations.append(RelationItem(src, dst, rel.type, rel.confidence))
    mirrors: list[FactItem] = []
    names = {e.key: e.name for e in ents}
    for ritem in relations:
        ritem.evidence = find_evidence(ritem, items)
    if offline:
        # Offline, a relation is read off the parse of a sentence whose fact names both
        # ends; one no fact supports came from a sentence that made no fact (small talk,
        # "I hear ya"): kept as an edge it would need an invented mirror fact, so it goes.
        dropped = [r for r in relations if r.evidence is None]
        relations = [r for r in relations if r.evidence is not None]
        if dropped:
            log.debug("offline: %d relation(s) without a supporting fact dropped", len(dropped))
    for ritem in relations:
        if ritem.evidence is None:  # mirror fact for an unsupported relation
            mirror = ExtractedFact(
                f"{names[ritem.source_key]} {ritem.type.replace('_', ' ')} "
                f"{names[ritem.target_key]}",
                names[ritem.source_key],
                mirror_confidence,
                source_context="inferred_from_relation",
            )
            item = fact_item(
                agent_id, len(items) + len(mirrors), mirror, ritem.source_key, [], ents
            )
            item.is_mirror = True
            mirrors.append(item)
            ritem.evidence = item.index
    return Assembled(items, relations, mirrors)


def fact_item(
    agent_id: str,
    index: int,
    fact: ExtractedFact,
    subject_key: str,
    vec: list[float],
    ents: list[Any],
) -> FactItem:
    norm = normalize(fact.text)
    return FactItem(
        index=index,
        fact=fact,
        subject_key=subject_key,
        text=fact.text,
        normalized=norm,
        content_hash=content_hash(agent_id, subject_key, norm),
        mentioned=[k for k in mentions(fact.text, ents) if k != subject_key],
        embedding=list(vec),
    )
