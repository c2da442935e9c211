"""The items reconciliation works on — a new fact with its subject, mentions, candidates and
decision; a new relation with its evidence — and the rules over them: evidence linkage,
contradiction flags, single-valued supersession."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field

from graph.memory.text import fold
from graph.memory.write.extract.extraction import ExtractedFact
from graph.memory.write.reconcile.decisions import (
    ExistingFact,
    ExistingRelation,
    FactDecision,
    NewRelation,
    contradicts,
    single_valued_conflicts,
)
from graph.memory.write.resolve.stage import EntityInfo

__all__ = [
    "FactItem",
    "RelationItem",
    "apply_single_valued",
    "find_evidence",
    "flag_contradictions",
    "mentions",
]


@dataclass
class FactItem:
    """A fact on its way through reconciliation."""

    index: int
    fact: ExtractedFact
    subject_key: str
    text: str
    normalized: str
    content_hash: str
    mentioned: list[str]
    embedding: list[float] = field(default_factory=list)
    # the vector of the fact's English gloss (``fact.gloss``), None without one
    gloss_embedding: list[float] | None = None
    is_mirror: bool = False
    candidates: list[ExistingFact] = field(default_factory=list)
    decision: FactDecision | None = None
    id: str = field(default_factory=lambda: str(uuid.uuid4()))
    blocked: str | None = None


@dataclass
class RelationItem:
    source_key: str
    target_key: str
    type: str
    confidence: float
    evidence: int | None = None  # index into the fact items


def mentions(text: str, entities: list[EntityInfo]) -> list[str]:
    """Keys of entities whose name or alias (≥ 3 chars) occurs in ``text`` on word boundaries."""
    words = re.findall(r"\w+", fold(text))
    folded = f" {' '.join(words)} "
    out: list[str] = []
    for ent in entities:
        for surface in {ent.name, *ent.surfaces}:
            norm = " ".join(re.findall(r"\w+", fold(surface)))
            if len(norm) >= 3 and f" {norm} " in folded:
                out.append(ent.key)
                break
    return out


def find_evidence(rel: RelationItem, items: list[FactItem]) -> int | None:
    """The new fact that supports a relationship: it mentions both ends (subject counts);
    the highest confidence wins."""
    best: FactItem | None = None
    for item in items:
        keys = {item.subject_key, *item.mentioned}
        if (
            rel.source_key in keys
            and rel.target_key in keys
            and (best is None or item.fact.confidence > best.fact.confidence)
        ):
            best = item
    return best.index if best else None


def flag_contradictions(item: FactItem) -> None:
    """Contradiction detector on ADD/UPDATE: flag ``review_needed`` when the new fact
    contradicts an active candidate it does not replace."""
    d = item.decision
    if d is None or d.action not in ("ADD", "UPDATE"):
        return
    for cand in item.candidates:
        if cand.id != d.target_id and contradicts(item.text, cand.text):
            item.decision = FactDecision(d.action, d.target_id, d.reason, d.similarity, True, d.by)
            return


def apply_single_valued(
    items: list[FactItem],
    relations: list[RelationItem],
    active: list[ExistingRelation],
    single_valued: tuple[str, ...],
) -> list[str]:
    """A single-valued relation (lives_in, works_at, …) with a new target supersedes the old
    one: returns the old relation ids to close, and turns a rule-made ADD of the supporting
    fact into an UPDATE of the old relation's evidence fact (an LLM's explicit choice stays)."""
    new = [NewRelation(r.source_key, r.target_key, r.type) for r in relations]
    by_new = {(r.source_key, r.target_key, r.type): r for r in relations}
    close: list[str] = []
    for rel, old in single_valued_conflicts(new, active, single_valued):
        item_rel = by_new[(rel.source_key, rel.target_key, rel.type)]
        close.append(old.id)
        if item_rel.evidence is None or not old.evidence_fact_id:
            continue
        item = items[item_rel.evidence]
        d = item.decision
        if d is not None and d.action == "ADD" and d.by == "rule":
            item.decision = FactDecision(
                "UPDATE",
                old.evidence_fact_id,
                f"single-valued relation {rel.type}: new value supersedes the old one",
                d.similarity,
                d.review_needed,
                "rule",
            )
    return list(dict.fromkeys(close))
