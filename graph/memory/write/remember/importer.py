"""Structured remember: entities, facts, relations and events given directly, no LLM.

Used for bulk import, seed data and migrations. Names are resolved against what the import
declares first, then against the agent's aliases and keys in Neo4j (one read), unknown names
become ``thing`` entities. Embeddings are computed in batches by the injected embedder; writes go
in UNWIND batches, one transaction per batch.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor, Transaction
from graph.memory.spaces import claim_space, embedder_name
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
from graph.memory.write.redact import redact_import
from graph.memory.write.remember.names import Registry, load_known
from graph.memory.write.remember.rows import (
    API_MAX_ITEMS,
    check_sizes,
    check_vectors,
    fact_props,
    report_partial,
)
from graph.providers import Embedder

__all__ = ["API_MAX_ITEMS", "Progress", "check_sizes", "remember"]

Progress = Callable[[int, int], None]


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
    check_vectors(entities, facts, embedder.dimensions)
    # Scanning every text for PII is CPU work: off the event loop, so one big import does not
    # stall the other requests of the process.
    clean = await asyncio.to_thread(redact_import, entities, facts, relations, events, pii_mode)
    entities, facts, relations, events = clean.entities, clean.facts, clean.relations, clean.events
    now = datetime.now(UTC)
    result = RememberResult()
    if clean.redacted:
        result.warnings.append(f"redacted {clean.redacted} sensitive span(s) before storage")
    # One transaction per batch; ``cursor`` names the batch in flight for a partial report.
    cursor: dict[str, Any] = {"section": "entities", "start": 0, "committed": 0}
    try:
        await _import(
            executor,
            embedder,
            agent_id,
            entities,
            facts,
            relations,
            events,
            progress,
            batch_size,
            now,
            result,
            cursor,
        )
    except Exception as exc:
        if not cursor["committed"]:
            raise  # nothing stored: the caller gets the error itself (e.g. UNAVAILABLE)
        report_partial(result, exc, cursor)
    result.duration_ms = round((time.perf_counter() - started) * 1000, 2)
    return result


FactRow = tuple[str, dict[str, Any], list[str], list[str]]


def _declare(entities: Sequence[StructuredEntity], registry: Registry) -> None:
    """Declare the import's entities in ``registry`` (pure CPU work)."""
    for ent in entities:
        if not clean_text(ent.name).strip():
            raise BadInput("entity name must not be empty")
        registry.declare(ent)


def _prepare_rows(
    agent_id: str,
    facts: Sequence[StructuredFact],
    relations: Sequence[StructuredRelation],
    registry: Registry,
    now: datetime,
    result: RememberResult,
) -> tuple[list[FactRow], list[dict[str, Any]]]:
    """The fact rows (id, stored properties, mentioned keys, event ids) and relation rows of
    the import, references resolved through ``registry`` (unknown names become ``thing``
    entities); skipped relations are recorded in ``result``. No I/O."""

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
        props = fact_props(agent_id, fact, subject, now, result.warnings)
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


async def _vectors(
    embedder: Embedder, items: Sequence[tuple[Sequence[float] | None, str]]
) -> list[list[float]]:
    """A vector per (caller-supplied vector or None, text): the given ones as they are, the
    others embedded in one call."""
    missing = [text for vec, text in items if vec is None]
    computed = iter(await embedder.embed(missing) if missing else [])
    return [[float(v) for v in vec] if vec is not None else next(computed) for vec, text in items]


async def _import(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    entities: Sequence[StructuredEntity],
    facts: Sequence[StructuredFact],
    relations: Sequence[StructuredRelation],
    events: Sequence[StructuredEvent],
    progress: Progress | None,
    batch_size: int,
    now: datetime,
    result: RememberResult,
    cursor: dict[str, Any],
) -> None:
    """Resolve, deduplicate and write the (redacted) import, one transaction per batch;
    ``cursor`` tracks the batch in flight and what a partial report needs."""
    registry = Registry()
    refs = [f.subject for f in facts] + [e for f in facts for e in f.entities]
    refs += [r.source for r in relations] + [r.target for r in relations]
    # Row preparation is CPU work (texts normalised and hashed, languages detected, names
    # folded: ~0.4 s for a 2 MB call): in a worker thread, around the one read of known names.
    await asyncio.to_thread(_declare, entities, registry)
    await load_known(executor, agent_id, refs, registry)
    fact_rows, rel_rows = await asyncio.to_thread(
        _prepare_rows, agent_id, facts, relations, registry, now, result
    )

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
    space = embedder_name(embedder)  # every batch storing vectors checks the agent's model
    total = len(entity_list) + len(fact_rows) + len(rel_rows) + len(events)
    done = 0
    token = uuid.uuid4().hex
    cursor.update(
        entity_list=entity_list, n_events=len(events), n_facts=len(fact_rows), rel_rows=rel_rows
    )

    # Entity names are embedded in one call for the whole import (the embedder sorts texts by
    # length, so fewer, fuller batches pad less); caller-supplied vectors are kept as given.
    entity_vectors = await _vectors(embedder, [(e.embedding, e.name) for _, e in entity_list])

    # Entities (+ aliases) and events first, so facts can link to them.
    for start in range(0, len(entity_list), batch_size):
        cursor.update(section="entities", start=start)
        chunk = entity_list[start : start + batch_size]
        vectors = entity_vectors[start : start + batch_size]
        rows = [
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
            }
            for (key, e), vec in zip(chunk, vectors, strict=True)
        ]
        alias_map = {
            fold(t): {"norm": fold(t), "text": clean_text(t).strip(), "key": key}
            for key, e in chunk
            for t in (e.name, *e.aliases)
            if fold(t)
        }
        aliases = list(alias_map.values())

        async def write_entities(
            tx: Transaction,
            rows: list[dict[str, Any]] = rows,
            aliases: list[dict[str, Any]] = aliases,
        ) -> int:
            await claim_space(tx, agent_id, space)
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
        vectors = await embedder.embed(
            [event_embedding_text(clean_text(e.text), e.speaker) for e in ev_chunk]
        )
        ev_rows = [
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
            for e, vec in zip(ev_chunk, vectors, strict=True)
        ]

        async def write_events(tx: Transaction, rows: list[dict[str, Any]] = ev_rows) -> None:
            await claim_space(tx, agent_id, space)
            await tx.run("write/create_events", agent_id=agent_id, rows=rows)

        await executor.write(write_events)
        cursor["committed"] += 1
        result.events += len(ev_rows)
        done += len(ev_chunk)
        if progress:
            progress(done, total)

    seen_hash: dict[str, str] = {}
    given = {
        fid: [float(v) for v in f.embedding]
        for (fid, _, _, _), f in zip(fact_rows, facts, strict=True)
        if f.embedding
    }
    for start in range(0, len(fact_rows), batch_size):
        cursor.update(
            section="facts", start=start, ids=len(result.fact_ids), unchanged=result.facts_unchanged
        )
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
            new_rows.append({"id": fid, "props": props, "given": given.get(fid)})
            about.append({"fact_id": fid, "key": props["subject_key"], "primary": True})
            about += [{"fact_id": fid, "key": k, "primary": False} for k in mentioned]
            provenance += [{"fact_id": fid, "event_id": e} for e in event_ids]
        if new_rows:
            vectors = await _vectors(
                embedder, [(r.pop("given"), r["props"]["text"]) for r in new_rows]
            )
            for row, vec in zip(new_rows, vectors, strict=True):
                row["props"]["embedding"] = vec
        reinforce_rows = [{"id": k, "count": c} for k, c in reinforce.items()]

        async def write_facts(
            tx: Transaction,
            new_rows: list[dict[str, Any]] = new_rows,
            about: list[dict[str, Any]] = about,
            provenance: list[dict[str, Any]] = provenance,
            reinforce_rows: list[dict[str, Any]] = reinforce_rows,
        ) -> None:
            if new_rows:
                await claim_space(tx, agent_id, space)
                await tx.run("write/create_facts", agent_id=agent_id, rows=new_rows)
                await tx.run("write/link_about", agent_id=agent_id, rows=about)
            if provenance:
                await tx.run("write/link_events", agent_id=agent_id, rows=provenance)
            if reinforce_rows:
                await tx.run(
                    "write/reinforce_facts", agent_id=agent_id, now=now, rows=reinforce_rows
                )

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
            await tx.run(
                "write/upsert_relations", agent_id=agent_id, now=now, reinforce=0.1, rows=rows
            )

        await executor.write(write_relations)
        cursor["committed"] += 1
        result.relations += len(rchunk)
        done += len(rchunk)
        if progress:
            progress(done, total)
