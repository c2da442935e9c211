"""Structured remember, row preparation (pure CPU work, no I/O): the import's references
resolved to entity keys, the rows every batched write sends (entities with their aliases,
events, facts with their links, relations) and the split of facts into new ones and exact
duplicates of stored or earlier facts."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.errors import BadInput
from graph.memory.remember.names import Registry
from graph.memory.remember.rows import fact_props
from graph.memory.text import (
    clean_text,
    content_hash,
    event_embedding_text,
    fold,
    normalize,
    normalize_relation_type,
    normalize_type,
)
from graph.memory.write.models import (
    RefusedItem,
    RememberResult,
    StructuredEntity,
    StructuredEvent,
    StructuredFact,
    StructuredRelation,
)

__all__ = [
    "FactBatch",
    "FactRow",
    "declare",
    "entity_rows",
    "event_rows",
    "event_texts",
    "plan_fact_batches",
    "prepare_rows",
]

# (fact id, stored properties, mentioned entity keys, event ids)
FactRow = tuple[str, dict[str, Any], list[str], list[str]]


def declare(entities: Sequence[StructuredEntity], registry: Registry) -> None:
    """Declare the import's entities in ``registry``."""
    for ent in entities:
        if not clean_text(ent.name).strip():
            raise BadInput("entity name must not be empty")
        registry.declare(ent)


def prepare_rows(
    agent_id: str,
    facts: Sequence[StructuredFact],
    relations: Sequence[StructuredRelation],
    registry: Registry,
    result: RememberResult,
) -> tuple[list[FactRow], list[dict[str, Any]]]:
    """The fact rows and relation rows of the import, references resolved through
    ``registry`` (unknown names become ``thing`` entities); skipped relations are recorded in
    ``result``, with every reference's key in ``result.entity_keys``."""

    def resolve(ref: str) -> str:
        found = registry.lookup(ref)
        if found is None:  # unknown name: a new entity of type "thing"
            name = clean_text(ref).strip()
            if not name:
                raise BadInput("fact subject/entity references must not be empty")
            found = registry.declare(StructuredEntity(name=name, type="thing"))
        result.entity_keys[ref] = found
        return found

    fact_rows: list[FactRow] = []
    for fact in facts:
        if not clean_text(fact.text).strip():
            raise BadInput("fact text must not be empty")
        subject = resolve(fact.subject)
        mentioned = [k for k in dict.fromkeys(resolve(e) for e in fact.entities) if k != subject]
        props = fact_props(agent_id, fact, subject, result.warnings)
        fact_rows.append((fact.id or str(uuid.uuid4()), props, mentioned, list(fact.event_ids)))
    rel_rows: list[dict[str, Any]] = []
    for i, rel in enumerate(relations):
        rtype = normalize_relation_type(rel.type)
        if rtype is None:
            result.warnings.append(f"relation type {rel.type!r} is not usable; skipped")
            result.refused.append(
                RefusedItem("relations", i, None, f"relation type {rel.type!r} is not usable")
            )
            continue
        src, dst = resolve(rel.source), resolve(rel.target)
        if src == dst:
            result.warnings.append(f"self-relation {rel.source!r} {rtype} skipped")
            result.refused.append(RefusedItem("relations", i, src, "self-relation"))
            continue
        rel_rows.append(
            {
                "index": i,
                "id": str(uuid.uuid4()),
                "source_key": src,
                "target_key": dst,
                "type": rtype,
                "strength": min(1.0, max(0.0, rel.strength)),
                "confidence": rel.confidence,
                "valid_from": rel.valid_from,
                "evidence_fact_id": rel.evidence_fact_id,
            }
        )
    return fact_rows, rel_rows


def entity_rows(
    chunk: Sequence[tuple[str, StructuredEntity]], vectors: Sequence[list[float]], token: str
) -> list[dict[str, Any]]:
    """One row per entity of ``chunk`` (key, stored properties, vector, its folded names);
    ``token`` tells the rows this import created from the ones it found."""
    rows = []
    for (key, e), vec in zip(chunk, vectors, strict=True):
        names: dict[str, str] = {}  # folded → as written, the entity's own name first
        for t in (e.name, *e.aliases):
            if fold(t):
                names.setdefault(fold(t), clean_text(t).strip())
        rows.append(
            {
                "key": key,
                "name": clean_text(e.name).strip(),
                "type": normalize_type(e.type),
                "importance": e.importance,
                "source": "structured",
                "embedding": vec,
                "profile_text": e.profile_text,
                "mentions": 0,
                "token": token,
                "aliases": [{"norm": n, "text": t} for n, t in names.items()],
            }
        )
    return rows


def event_texts(events: Sequence[StructuredEvent]) -> list[str]:
    """The text each event is embedded as."""
    return [event_embedding_text(clean_text(e.text), e.speaker) for e in events]


def event_rows(
    agent_id: str,
    events: Sequence[StructuredEvent],
    vectors: Sequence[list[float]],
    now: datetime,
) -> list[dict[str, Any]]:
    """The stored rows of ``events`` (audit trail), one vector each."""
    return [
        {
            "id": e.id or str(uuid.uuid4()),
            "props": {
                "text": clean_text(e.text),
                "speaker": e.speaker,
                "occurred_at": e.occurred_at or now,
                "ingested_at": now,
                "thread_id": e.thread_id,
                "source": e.source or "structured",
                "embedding": vec,
                "content_hash": content_hash(agent_id, "event", normalize(e.text)),
            },
        }
        for e, vec in zip(events, vectors, strict=True)
    ]


@dataclass
class FactBatch:
    """One write transaction's worth of facts: the new ones with their links, the reinforced
    ones, and what the result gains once it commits."""

    start: int
    size: int
    # {id, props, keys}: keys = the subject, then the mentioned entities (its ABOUT links)
    new_rows: list[dict[str, Any]] = field(default_factory=list)
    provenance: list[dict[str, Any]] = field(default_factory=list)
    reinforce: list[dict[str, Any]] = field(default_factory=list)
    fact_ids: list[str] = field(default_factory=list)  # input order, the stored id of each
    unchanged: int = 0


def plan_fact_batches(
    fact_rows: Sequence[FactRow],
    existing_ids: set[str],
    known_hash: dict[str, str],
    batch_size: int,
) -> list[FactBatch]:
    """Split the fact rows into write batches, deciding for each fact: already stored under
    its id (unchanged), an exact duplicate of an active stored fact or of an earlier fact of
    the import (unchanged, the original reinforced), or new. A new row's ``embedding`` is left
    for the caller to fill."""
    seen_hash: dict[str, str] = {}
    batches: list[FactBatch] = []
    for start in range(0, len(fact_rows), batch_size):
        chunk = fact_rows[start : start + batch_size]
        batch = FactBatch(start=start, size=len(chunk))
        reinforce: dict[str, int] = {}
        for fid, props, mentioned, event_ids in chunk:
            h = props["content_hash"]
            if fid in existing_ids:
                batch.fact_ids.append(fid)
                batch.unchanged += 1
                continue
            same = known_hash.get(h) or seen_hash.get(h)
            active = props["valid_to"] is None
            if same is not None and active:
                reinforce[same] = reinforce.get(same, 0) + 1
                batch.fact_ids.append(same)
                batch.unchanged += 1
                continue
            if active:
                seen_hash[h] = fid
            batch.fact_ids.append(fid)
            batch.new_rows.append(
                {"id": fid, "props": props, "keys": [props["subject_key"], *mentioned]}
            )
            batch.provenance += [{"fact_id": fid, "event_id": e} for e in event_ids]
        batch.reinforce = [{"id": k, "count": c} for k, c in reinforce.items()]
        batches.append(batch)
    return batches
