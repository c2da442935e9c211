"""Structured remember: entities, facts, relations and events given directly, no LLM.

Used for bulk import, seed data and migrations. Names are resolved against what the import
declares first, then against the agent's aliases and keys in Neo4j (one read), unknown names
become ``thing`` entities. Embeddings are computed in batches by the injected embedder; writes go
in UNWIND batches, one transaction per batch.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor, Transaction
from graph.memory.text import (
    clean_text,
    content_hash,
    detect_language,
    entity_key,
    event_embedding_text,
    fold,
    normalize,
    normalize_relation_type,
    normalize_type,
)
from graph.memory.write.models import (
    FACT_KINDS,
    REMEMBER_SECTIONS,
    RefusedItem,
    RememberResult,
    StructuredEntity,
    StructuredEvent,
    StructuredFact,
    StructuredRelation,
)
from graph.memory.write.redact import redact_import
from graph.providers import Embedder

__all__ = ["Progress", "remember"]

Progress = Callable[[int, int], None]


@dataclass
class _Registry:
    """Name → key resolution for one import (declared entities first, then the database)."""

    by_norm: dict[str, str] = field(default_factory=dict)
    keys: dict[str, StructuredEntity] = field(default_factory=dict)
    existing_keys: set[str] = field(default_factory=set)

    def declare(self, entity: StructuredEntity) -> str:
        key = entity.key or entity_key(entity.name, entity.type)
        self.keys.setdefault(key, entity)
        for text in (entity.name, *entity.aliases):
            if fold(text):
                self.by_norm.setdefault(fold(text), key)
        return key

    def lookup(self, ref: str) -> str | None:
        if ref in self.keys or ref in self.existing_keys:
            return ref
        return self.by_norm.get(fold(ref))


def _is_key(ref: str) -> bool:
    head, sep, tail = ref.partition(":")
    return bool(sep and head and tail and " " not in head)


async def _load_known(executor: Executor, agent_id: str, refs: Sequence[str],
                      registry: _Registry) -> None:
    norms = sorted({fold(r) for r in refs if fold(r) and fold(r) not in registry.by_norm})
    keys = sorted({r for r in refs if _is_key(r) and r not in registry.keys})
    if not norms and not keys:
        return

    async def work(tx: Transaction) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        a = await tx.run("write/match_aliases", agent_id=agent_id, norms=norms)
        k = await tx.run("write/match_keys", agent_id=agent_id, keys=keys)
        return a, k

    alias_rows, key_rows = await executor.read(work)
    for row in alias_rows:
        registry.by_norm.setdefault(row["norm"], row["key"])
        registry.existing_keys.add(row["key"])
    for row in key_rows:
        registry.existing_keys.add(row["merged_into"] or row["key"])


def _fact_props(agent_id: str, fact: StructuredFact, subject_key: str, now: datetime,
                warnings: list[str]) -> dict[str, Any]:
    text = clean_text(fact.text).strip()
    kind = fact.kind if fact.kind in FACT_KINDS else "fact"
    if kind != fact.kind:
        warnings.append(f"unknown fact kind {fact.kind!r} coerced to 'fact'")
    created = fact.created_at or now
    norm = normalize(text)
    return {
        "text": text,
        "normalized": norm,
        "content_hash": content_hash(agent_id, subject_key, norm),
        "subject_key": subject_key,
        "kind": kind,
        "confidence": float(fact.confidence),
        "importance": float(fact.importance),
        "temporal_class": fact.temporal_class if fact.temporal_class == "temporal" else "persistent",
        "valid_until": fact.valid_until,
        "categories": [normalize_type(c) for c in fact.categories],
        "speaker": fact.speaker,
        "language": detect_language(text),
        "source_context": fact.source_context or "structured_import",
        "valid_from": fact.valid_from or created,
        "valid_to": fact.valid_to,
        "invalidated_at": None,
        "created_at": created,
        "last_confirmed_at": created,
        "reinforcement_count": max(1, int(fact.reinforcement_count)),
        "review_needed": False,
    }


API_MAX_ITEMS = 1_000  # per list and call through the API (remember mutation)
MAX_NESTED = 100  # aliases of an entity, entities / categories / event ids of a fact


def check_sizes(entities: Sequence[StructuredEntity], facts: Sequence[StructuredFact],
                relations: Sequence[StructuredRelation], events: Sequence[StructuredEvent],
                max_items: int | None) -> None:
    """Refuse oversized imports before any work (pure).

    Raises:
        BadInput: a list longer than ``max_items`` or a nested list longer than MAX_NESTED.
    """
    if max_items is not None:
        for name, items in (("entities", entities), ("facts", facts),
                            ("relations", relations), ("events", events)):
            if len(items) > max_items:
                raise BadInput(f"remember takes at most {max_items} {name} per call "
                               f"(got {len(items)}); split the import into several calls")
    for ent in entities:
        if len(ent.aliases) > MAX_NESTED:
            raise BadInput(f"an entity may carry at most {MAX_NESTED} aliases")
    for fact in facts:
        for name, nested in (("entities", fact.entities), ("categories", fact.categories),
                             ("event ids", fact.event_ids)):
            if len(nested) > MAX_NESTED:
                raise BadInput(f"a fact may carry at most {MAX_NESTED} {name}")


_SECTIONS = REMEMBER_SECTIONS


def _report_partial(result: RememberResult, exc: Exception, cursor: dict[str, Any]) -> None:
    """A batch failed after earlier batches committed: list every item not stored."""
    section, start = cursor["section"], cursor["start"]
    entity_list: list[tuple[str, StructuredEntity]] = cursor["entity_list"]
    n_events, n_facts = cursor["n_events"], cursor["n_facts"]
    rel_rows: list[dict[str, Any]] = cursor["rel_rows"]
    reason = f"not stored: a {section} batch failed ({type(exc).__name__})"
    result.complete = False
    result.error = (f"stopped at the {section} batch starting at item {start} "
                    f"({type(exc).__name__}); earlier batches are stored, see refused")
    if section == "facts":  # counted while the failed batch was prepared: undo
        del result.fact_ids[cursor["ids"]:]
        result.facts_unchanged = cursor["unchanged"]
    later = _SECTIONS[_SECTIONS.index(section):]
    first = {name: (start if name == section else 0) for name in later}
    if "entities" in later:
        result.refused += [RefusedItem("entities", None, key, reason)
                           for key, _ in entity_list[first["entities"]:]]
    if "events" in later:
        result.refused += [RefusedItem("events", i, None, reason)
                           for i in range(first["events"], n_events)]
    if "facts" in later:
        result.refused += [RefusedItem("facts", i, None, reason)
                           for i in range(first["facts"], n_facts)]
    if "relations" in later:
        result.refused += [RefusedItem("relations", r["index"], r["source_key"], reason)
                           for r in rel_rows[first["relations"]:]]


async def remember(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    entities: Sequence[StructuredEntity] = (),
    facts: Sequence[StructuredFact] = (),
    relations: Sequence[StructuredRelation] = (),
    events: Sequence[StructuredEvent] = (),
    progress: Progress | None = None,
    *,
    batch_size: int = 500,
    max_items: int | None = None,
    pii_mode: str = "redact",
) -> RememberResult:
    """Import entities, facts, relations and events for one agent without any LLM.

    A fact whose (subject, normalised text) is already active for the agent is not duplicated:
    it counts as unchanged (reinforced, unless the caller gave the same id again, which makes
    re-running an import idempotent).

    Args:
        executor: Neo4j executor.
        embedder: embeds entity names, fact texts and event texts (batched).
        agent_id: the agent the memory belongs to.
        entities: declared entities (name, type, aliases, optional key/profile).
        facts: facts whose subject/entities are names, aliases or keys.
        relations: relationships between named entities.
        events: raw messages for the audit trail.
        progress: called as ``progress(done, total)`` after each written batch.
        batch_size: rows per UNWIND batch / write transaction.
        max_items: the most entities, facts, relations or events one call may carry (the API
            passes ``API_MAX_ITEMS``; the operator's CLI import has no cap).
        pii_mode: the operator's PII policy (``WriteConfig.pii_mode``), applied to every
            stored free-text field (see :mod:`graph.memory.write.redact`).

    Returns:
        Counts, the fact ids in input order, and the resolved entity keys by (redacted)
        reference. Each batch is one transaction: when a batch fails after earlier ones
        committed, the result has ``complete=False``, ``error`` and in ``refused`` every item
        that was not stored (skipped relations are listed there too, with their reason).

    Raises:
        BadInput: empty agent id, a fact with empty text, or a list over its cap (checked
            before anything is read or written).
        PIIRejected: ``pii_mode="reject"`` and a field holds PII (nothing stored).
    """
    started = time.perf_counter()
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    check_sizes(entities, facts, relations, events, max_items)
    clean = redact_import(entities, facts, relations, events, pii_mode)
    entities, facts, relations, events = clean.entities, clean.facts, clean.relations, \
        clean.events
    now = datetime.now(UTC)
    result = RememberResult()
    if clean.redacted:
        result.warnings.append(f"redacted {clean.redacted} sensitive span(s) before storage")
    # One transaction per batch; ``cursor`` names the batch in flight for a partial report.
    cursor: dict[str, Any] = {"section": "entities", "start": 0, "committed": 0}
    try:
        await _import(executor, embedder, agent_id, entities, facts, relations, events,
                      progress, batch_size, now, result, cursor)
    except Exception as exc:
        if not cursor["committed"]:
            raise  # nothing stored: the caller gets the error itself (e.g. UNAVAILABLE)
        _report_partial(result, exc, cursor)
    result.duration_ms = round((time.perf_counter() - started) * 1000, 2)
    return result


async def _import(executor: Executor, embedder: Embedder, agent_id: str,
                  entities: Sequence[StructuredEntity], facts: Sequence[StructuredFact],
                  relations: Sequence[StructuredRelation], events: Sequence[StructuredEvent],
                  progress: Progress | None, batch_size: int, now: datetime,
                  result: RememberResult, cursor: dict[str, Any]) -> None:
    """Resolve, deduplicate and write the (redacted) import, one transaction per batch;
    ``cursor`` tracks the batch in flight and what a partial report needs."""
    registry = _Registry()
    for ent in entities:
        if not clean_text(ent.name).strip():
            raise BadInput("entity name must not be empty")
        registry.declare(ent)
    refs = [f.subject for f in facts] + [e for f in facts for e in f.entities]
    refs += [r.source for r in relations] + [r.target for r in relations]
    await _load_known(executor, agent_id, refs, registry)

    def resolve(ref: str) -> str:
        found = registry.lookup(ref)
        if found is None:  # unknown name: a new entity of type "thing"
            name = clean_text(ref).strip()
            if not name:
                raise BadInput("fact subject/entity references must not be empty")
            found = registry.declare(StructuredEntity(name=name, type="thing"))
        result.entity_keys[ref] = found
        return found

    fact_rows: list[tuple[str, dict[str, Any], list[str], list[str]]] = []
    for fact in facts:
        if not clean_text(fact.text).strip():
            raise BadInput("fact text must not be empty")
        subject = resolve(fact.subject)
        mentioned = [k for k in dict.fromkeys(resolve(e) for e in fact.entities) if k != subject]
        props = _fact_props(agent_id, fact, subject, now, result.warnings)
        fact_rows.append((fact.id or str(uuid.uuid4()), props, mentioned, list(fact.event_ids)))
    rel_rows: list[dict[str, Any]] = []
    for i, rel in enumerate(relations):
        rtype = normalize_relation_type(rel.type)
        if rtype is None:
            result.warnings.append(f"relation type {rel.type!r} is not usable; skipped")
            result.refused.append(RefusedItem("relations", i, None,
                                              f"relation type {rel.type!r} is not usable"))
            continue
        src, dst = resolve(rel.source), resolve(rel.target)
        if src == dst:
            result.warnings.append(f"self-relation {rel.source!r} {rtype} skipped")
            result.refused.append(RefusedItem("relations", i, src, "self-relation"))
            continue
        rel_rows.append({"index": i,
            "id": str(uuid.uuid4()), "source_key": src, "target_key": dst, "type": rtype,
            "strength": min(1.0, max(0.0, rel.strength)), "confidence": rel.confidence,
            "valid_from": rel.valid_from, "evidence_fact_id": rel.evidence_fact_id,
        })

    # Exact duplicates: within the import, and against active facts already stored.
    hashes = [p["content_hash"] for _, p, _, _ in fact_rows]
    given_ids = [fid for (fid, _, _, _), f in zip(fact_rows, facts, strict=True) if f.id]

    async def read_existing(tx: Transaction) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        by_hash = await tx.run("write/facts_by_hash", agent_id=agent_id, hashes=hashes)
        by_id = await tx.run("write/facts_by_id", ids=given_ids)
        return by_hash, by_id

    by_hash_rows, by_id_rows = (await executor.read(read_existing)) if fact_rows else ([], [])
    for row in by_id_rows:
        if row["agent_id"] != agent_id:
            raise BadInput(f"fact id {row['id']!r} belongs to another agent")
    existing_ids = {r["id"] for r in by_id_rows}
    known_hash = {r["content_hash"]: r["id"] for r in by_hash_rows}

    entity_list = list(registry.keys.items())
    total = len(entity_list) + len(fact_rows) + len(rel_rows) + len(events)
    done = 0
    token = uuid.uuid4().hex
    cursor.update(entity_list=entity_list, n_events=len(events), n_facts=len(fact_rows),
                  rel_rows=rel_rows)

    # Entities (+ aliases) and events first, so facts can link to them.
    for start in range(0, len(entity_list), batch_size):
        cursor.update(section="entities", start=start)
        chunk = entity_list[start : start + batch_size]
        vectors = await embedder.embed([e.name for _, e in chunk])
        rows = [{
            "key": key, "name": clean_text(e.name).strip(), "type": normalize_type(e.type),
            "importance": e.importance, "source": "structured", "embedding": vec,
            "profile_text": e.profile_text, "mentions": 0, "token": token,
        } for (key, e), vec in zip(chunk, vectors, strict=True)]
        alias_map = {fold(t): {"norm": fold(t), "text": clean_text(t).strip(), "key": key}
                     for key, e in chunk for t in (e.name, *e.aliases) if fold(t)}
        aliases = list(alias_map.values())

        async def write_entities(tx: Transaction, rows: list[dict[str, Any]] = rows,
                                 aliases: list[dict[str, Any]] = aliases) -> int:
            created = await tx.run("write/upsert_entities", agent_id=agent_id, now=now, rows=rows)
            await tx.run("write/upsert_aliases", agent_id=agent_id, now=now, rows=aliases)
            return sum(1 for r in created if r["created"])

        result.entities_created += await executor.write(write_entities)
        cursor["committed"] += 1
        done += len(chunk)
        if progress:
            progress(done, total)
    result.entities_total = len(entity_list)

    for start in range(0, len(events), batch_size):
        cursor.update(section="events", start=start)
        ev_chunk = events[start : start + batch_size]
        vectors = await embedder.embed([event_embedding_text(clean_text(e.text), e.speaker)
                                        for e in ev_chunk])
        ev_rows = [{"id": e.id or str(uuid.uuid4()), "props": {
            "text": clean_text(e.text), "speaker": e.speaker, "occurred_at": e.occurred_at or now,
            "ingested_at": now, "thread_id": e.thread_id, "source": e.source or "structured",
            "embedding": vec, "content_hash": content_hash(agent_id, "event", normalize(e.text)),
        }} for e, vec in zip(ev_chunk, vectors, strict=True)]

        async def write_events(tx: Transaction, rows: list[dict[str, Any]] = ev_rows) -> None:
            await tx.run("write/create_events", agent_id=agent_id, rows=rows)

        await executor.write(write_events)
        cursor["committed"] += 1
        result.events += len(ev_rows)
        done += len(ev_chunk)
        if progress:
            progress(done, total)

    seen_hash: dict[str, str] = {}
    for start in range(0, len(fact_rows), batch_size):
        cursor.update(section="facts", start=start, ids=len(result.fact_ids),
                      unchanged=result.facts_unchanged)
        chunk_rows = fact_rows[start : start + batch_size]
        new_rows: list[dict[str, Any]] = []
        about: list[dict[str, Any]] = []
        provenance: list[dict[str, Any]] = []
        reinforce: dict[str, int] = {}
        for fid, props, mentioned, event_ids in chunk_rows:
            h = props["content_hash"]
            if fid in existing_ids:
                result.fact_ids.append(fid)
                result.facts_unchanged += 1
                continue
            same = known_hash.get(h) or seen_hash.get(h)
            active = props["valid_to"] is None
            if same is not None and active:
                reinforce[same] = reinforce.get(same, 0) + 1
                result.fact_ids.append(same)
                result.facts_unchanged += 1
                continue
            if active:
                seen_hash[h] = fid
            result.fact_ids.append(fid)
            new_rows.append({"id": fid, "props": props})
            about.append({"fact_id": fid, "key": props["subject_key"], "primary": True})
            about += [{"fact_id": fid, "key": k, "primary": False} for k in mentioned]
            provenance += [{"fact_id": fid, "event_id": e} for e in event_ids]
        if new_rows:
            vectors = await embedder.embed([r["props"]["text"] for r in new_rows])
            for row, vec in zip(new_rows, vectors, strict=True):
                row["props"]["embedding"] = vec
        reinforce_rows = [{"id": k, "count": c} for k, c in reinforce.items()]

        async def write_facts(tx: Transaction, new_rows: list[dict[str, Any]] = new_rows,
                              about: list[dict[str, Any]] = about,
                              provenance: list[dict[str, Any]] = provenance,
                              reinforce_rows: list[dict[str, Any]] = reinforce_rows) -> None:
            if new_rows:
                await tx.run("write/create_facts", agent_id=agent_id, rows=new_rows)
                await tx.run("write/link_about", agent_id=agent_id, rows=about)
            if provenance:
                await tx.run("write/link_events", agent_id=agent_id, rows=provenance)
            if reinforce_rows:
                await tx.run("write/reinforce_facts", agent_id=agent_id, now=now,
                             rows=reinforce_rows)

        await executor.write(write_facts)
        cursor["committed"] += 1
        result.facts_added += len(new_rows)
        done += len(chunk_rows)
        if progress:
            progress(done, total)

    for start in range(0, len(rel_rows), batch_size):
        cursor.update(section="relations", start=start)
        rchunk = rel_rows[start : start + batch_size]

        async def write_relations(tx: Transaction, rows: list[dict[str, Any]] = rchunk) -> None:
            await tx.run("write/upsert_relations", agent_id=agent_id, now=now, reinforce=0.1,
                         rows=rows)

        await executor.write(write_relations)
        cursor["committed"] += 1
        result.relations += len(rchunk)
        done += len(rchunk)
        if progress:
            progress(done, total)
