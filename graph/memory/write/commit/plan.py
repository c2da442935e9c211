"""Pure planning between the decisions and the write transaction: the write modes, unresolved
names dropped, and the rows of the commit (facts, supersessions, relations, causes, entities)."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.memory.text import detect_language, fold
from graph.memory.write.commit.store import CommitPlan
from graph.memory.write.models import FactChange
from graph.memory.write.reconcile.items import FactItem, RelationItem
from graph.memory.write.resolve.stage import EntityInfo

__all__ = [
    "PlanOutput",
    "block_reason",
    "build_plan",
    "drop_unresolved",
    "plan_causes",
    "plan_entities",
    "plan_fact",
    "plan_relations",
]


log = logging.getLogger(__name__)


def block_reason(action: str, mode: str, frozen: bool) -> str | None:
    """Why a decision is not applied in this mode (None = applied)."""
    if frozen:
        return "mutations_frozen"
    if mode == "shadow":
        return "shadow_mode"
    if mode == "controlled" and action in ("UPDATE", "DELETE"):
        return "controlled_mode"
    return None


def _fact_row(item: FactItem, speaker: str, now: datetime, occurred: datetime) -> dict[str, Any]:
    f = item.fact
    return {
        "id": item.id,
        "props": {
            "text": item.text,
            "normalized": item.normalized,
            "content_hash": item.content_hash,
            "subject_key": item.subject_key,
            "kind": f.kind,
            "confidence": f.confidence,
            "importance": f.importance,
            "importance_category": f.importance_category,
            "temporal_class": f.temporal_class,
            "valid_until": f.valid_until,
            "categories": f.categories,
            "language": detect_language(item.text),
            "speaker": speaker,
            "source_context": f.source_context or "message",
            "embedding": item.embedding,
            # the English gloss: a second vector of the fact, never its text
            "gloss": f.gloss if item.gloss_embedding is not None else None,
            "gloss_language": "en" if item.gloss_embedding is not None else None,
            "gloss_embedding": item.gloss_embedding,
            "valid_from": occurred,
            "valid_to": None,
            "invalidated_at": None,
            "created_at": now,
            "last_confirmed_at": now,
            "reinforcement_count": 1,
            "review_needed": bool(item.decision and item.decision.review_needed),
        },
    }


@dataclass
class PlanOutput:
    plan: CommitPlan
    added: list[FactChange] = field(default_factory=list)
    updated: list[FactChange] = field(default_factory=list)
    unchanged: list[FactChange] = field(default_factory=list)
    deleted: list[FactChange] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)
    blocked: int = 0
    warnings: list[str] = field(default_factory=list)


def drop_unresolved(
    items: list[FactItem], relations: list[RelationItem], entities: dict[str, EntityInfo]
) -> tuple[list[FactItem], list[RelationItem], list[str]]:
    """The planner's contract: every entity key it reads is in ``entities``. A fact whose
    subject is not is dropped, a mention that is not is forgotten, and a relation with an end
    that is not is dropped — each with a warning, never an exception for one odd sentence.

    Returns:
        The facts and relations to plan, and one warning per dropped item.
    """
    warnings: list[str] = []
    kept: list[FactItem] = []
    for item in items:
        if item.subject_key not in entities:
            warnings.append(
                f"fact {item.index} dropped: its subject {item.subject_key!r} was not resolved"
            )
            continue
        item.mentioned = [k for k in item.mentioned if k in entities]
        kept.append(item)
    kept_relations = []
    for rel in relations:
        missing = [k for k in (rel.source_key, rel.target_key) if k not in entities]
        if missing:
            warnings.append(f"relation {rel.type!r} dropped: {missing[0]!r} was not resolved")
            continue
        kept_relations.append(rel)
    if warnings:  # how many, not which: entity keys name people and stay out of log files
        log.warning(
            "write plan: %d fact(s) or relation(s) dropped (an entity they name was not resolved)",
            len(warnings),
        )
    return kept, kept_relations, warnings


def build_plan(
    *,
    items: list[FactItem],
    relations: list[RelationItem],
    entities: dict[str, EntityInfo],
    close_relations: list[str],
    mode: str,
    frozen: bool,
    event_id: str | None,
    speaker: str,
    now: datetime,
    occurred: datetime,
    causal: list[tuple[int, int, float]],
    relation_strength: float,
) -> PlanOutput:
    """Turn decisions into the rows of the one write transaction plus the result lists."""
    plan = CommitPlan(now=now, event_id=event_id)
    items, relations, dropped = drop_unresolved(items, relations, entities)
    out = PlanOutput(plan, warnings=dropped)
    used_keys: set[str] = set()
    for item in items:
        if item.decision is not None:
            used_keys.update(
                plan_fact(out, item, mode=mode, frozen=frozen, speaker=speaker, occurred=occurred)
            )
    written = {i.index: i for i in items if i.decision and i.blocked is None}
    used_keys.update(plan_relations(out, relations, written, occurred, relation_strength))
    if plan.relations:
        plan.close_relation_ids = list(close_relations)
    plan_causes(plan, written, causal)
    if not (frozen or mode == "shadow"):
        plan_entities(plan, entities, used_keys)
    return out


def plan_fact(
    out: PlanOutput, item: FactItem, *, mode: str, frozen: bool, speaker: str, occurred: datetime
) -> list[str]:
    """One fact's decision → its audit and, unless blocked, its rows and result entry.
    Returns the keys of the entities a written fact is about."""
    plan, d = out.plan, item.decision
    assert d is not None
    item.blocked = item.blocked or block_reason(d.action, mode, frozen)
    change = FactChange(
        item.id if d.action in ("ADD", "UPDATE") else (d.target_id or ""),
        item.text,
        item.subject_key,
        d.action,
        d.target_id,
        d.reason,
        item.fact.confidence,
        d.review_needed,
    )
    plan.audits.append(
        {
            "id": str(uuid.uuid4()),
            "event_id": plan.event_id,
            "action": d.action,
            "applied": item.blocked is None,
            "blocked_reason": item.blocked,
            "fact_id": change.id or None,
            "target_id": d.target_id,
            "reason": d.reason,
            "mode": mode,
            "text": item.text,
        }
    )
    if item.blocked is not None:
        out.blocked += 1
        return []
    if d.action in ("ADD", "UPDATE"):
        plan.new_facts.append(_fact_row(item, speaker, plan.now, occurred))
        plan.about.append({"fact_id": item.id, "key": item.subject_key, "primary": True})
        plan.about += [
            {"fact_id": item.id, "key": k, "primary": False}
            for k in item.mentioned
            if k != item.subject_key
        ]
        if plan.event_id:
            plan.provenance.append({"fact_id": item.id, "event_id": plan.event_id})
        if d.action == "UPDATE" and d.target_id:
            plan.close_fact_ids.append(d.target_id)
            plan.supersedes.append({"new_id": item.id, "old_id": d.target_id})
            out.updated.append(change)
        else:
            out.added.append(change)
        return [item.subject_key, *item.mentioned]
    if d.action == "NOOP" and d.target_id:
        plan.reinforce.append({"id": d.target_id, "count": 1})
        if plan.event_id:
            plan.provenance.append({"fact_id": d.target_id, "event_id": plan.event_id})
        out.unchanged.append(change)
    elif d.action == "DELETE" and d.target_id:
        plan.close_fact_ids.append(d.target_id)
        out.deleted.append(change)
    return []


def plan_relations(
    out: PlanOutput,
    relations: list[RelationItem],
    written: dict[int, FactItem],
    occurred: datetime,
    strength: float,
) -> list[str]:
    """The relations whose evidence fact is written or kept (not deleted) → their rows and
    result entries. Returns the keys of their ends."""
    used: list[str] = []
    for rel in relations:
        ev = written.get(rel.evidence) if rel.evidence is not None else None
        if ev is None or ev.decision is None or ev.decision.action == "DELETE":
            continue
        evidence_id = ev.id if ev.decision.action in ("ADD", "UPDATE") else ev.decision.target_id
        out.plan.relations.append(
            {
                "id": str(uuid.uuid4()),
                "source_key": rel.source_key,
                "target_key": rel.target_key,
                "type": rel.type,
                "strength": strength,
                "confidence": rel.confidence,
                "valid_from": occurred,
                "evidence_fact_id": evidence_id,
            }
        )
        out.relations.append(
            {
                "source_key": rel.source_key,
                "type": rel.type,
                "target_key": rel.target_key,
                "evidence_fact_id": evidence_id,
            }
        )
        used += [rel.source_key, rel.target_key]
    return used


def plan_causes(
    plan: CommitPlan, written: dict[int, FactItem], causal: list[tuple[int, int, float]]
) -> None:
    """A causal link between two facts both written as new versions."""
    for cause, effect, strength in causal:
        a, b = written.get(cause), written.get(effect)
        if (
            a
            and b
            and a.decision
            and b.decision
            and a.decision.action in ("ADD", "UPDATE")
            and b.decision.action in ("ADD", "UPDATE")
        ):
            plan.causes.append({"cause_id": a.id, "effect_id": b.id, "strength": strength})


def plan_entities(plan: CommitPlan, entities: dict[str, EntityInfo], used_keys: set[str]) -> None:
    """The rows of the entities the written facts and relations use, with their aliases."""
    seen_norms: set[str] = set()
    for key in sorted(used_keys):  # sorted: concurrent messages lock entities in one order
        ent = entities[key]
        plan.entities.append(
            {
                "key": key,
                "name": ent.name,
                "type": ent.type,
                "importance": 0.5,
                "source": "message",
                "embedding": ent.embedding,
                "profile_text": ent.profile_text,
                "mentions": 1,
                "token": uuid.uuid4().hex,
            }
        )
        norms = {
            fold(s): s for s in [ent.name, *ent.surfaces] if fold(s) and fold(s) not in seen_norms
        }
        seen_norms.update(norms)
        plan.aliases += [{"norm": n, "text": t, "key": key} for n, t in sorted(norms.items())]
