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
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor, Transaction
from graph.memory.ontology.labels import type_labels
from graph.memory.ontology.store import ontology_in_force
from graph.memory.remember.batches import write_entities, write_events, write_facts, write_relations
from graph.memory.remember.conform import conform_import
from graph.memory.remember.names import Registry, load_known
from graph.memory.remember.prepare import (
    FactBatch,
    FactRow,
    declare,
    entity_rows,
    event_rows,
    event_texts,
    plan_fact_batches,
    prepare_rows,
)
from graph.memory.remember.redact import RedactedImport, redact_import
from graph.memory.remember.rows import API_MAX_ITEMS, check_sizes, check_vectors, report_partial
from graph.memory.spaces import embedder_name
from graph.memory.write.models import (
    RememberResult,
    StructuredEntity,
    StructuredEvent,
    StructuredFact,
    StructuredRelation,
)
from graph.providers import Embedder

__all__ = ["API_MAX_ITEMS", "BATCH_SIZE", "Progress", "check_sizes", "remember"]

Progress = Callable[[int, int], None]

# Rows per UNWIND statement and write transaction: large enough that round trips and commits
# stop dominating a bulk import, small enough that one transaction stays a few MB.
BATCH_SIZE = 2_000


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
    batch_size: int = BATCH_SIZE,
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
            stored free-text field (see :mod:`graph.memory.remember.redact`).

    Returns:
        Counts, the fact ids in input order, and the resolved entity keys by (redacted)
        reference. Each batch is one transaction: when a batch fails after earlier ones
        committed, the result has ``complete=False``, ``error`` and in ``refused`` every item
        that was not stored (skipped relations are listed there too, with their reason).

    Raises:
        BadInput: empty agent id, a fact with empty text, or a list over its cap (checked
            before anything is read or written); ``OntologyError`` (a BadInput): a type the
            agent's ontology does not declare, or a relation whose ends it does not allow.
        PIIRejected: ``pii_mode="reject"`` and a field holds PII (nothing stored).
    """
    started = time.perf_counter()
    clean, labels = await _checked(
        executor, embedder, agent_id, entities, facts, relations, events, max_items, pii_mode
    )
    now = datetime.now(UTC)
    result = RememberResult()
    if clean.redacted:
        result.warnings.append(f"redacted {clean.redacted} sensitive span(s) before storage")
    # One transaction per batch; ``cursor`` names the batch in flight for a partial report.
    cursor: dict[str, Any] = {"section": "entities", "start": 0, "committed": 0}
    try:
        await _import(
            executor, embedder, agent_id, (clean, labels), progress, batch_size, now, result, cursor
        )
    except Exception as exc:
        if not cursor["committed"]:
            raise  # nothing stored: the caller gets the error itself (e.g. UNAVAILABLE)
        report_partial(result, exc, cursor)
    result.duration_ms = round((time.perf_counter() - started) * 1000, 2)
    return result


async def _checked(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    entities: Sequence[StructuredEntity],
    facts: Sequence[StructuredFact],
    relations: Sequence[StructuredRelation],
    events: Sequence[StructuredEvent],
    max_items: int | None,
    pii_mode: str,
) -> tuple[RedactedImport, dict[str, str]]:
    """The import checked (agent, sizes, vectors), fitted to the agent's ontology and put
    under the PII policy, before anything is written; with the ontology's entity type labels.

    Raises:
        BadInput: see :func:`remember`.  PIIRejected: reject mode and a field holds PII.
    """
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    check_sizes(entities, facts, relations, events, max_items)
    check_vectors(entities, facts, embedder.dimensions)
    ontology = await ontology_in_force(executor, agent_id)
    entities, relations = conform_import(entities, relations, ontology)
    # Scanning every text for PII is CPU work: off the event loop, so one big import does not
    # stall the other requests of the process.
    clean = await asyncio.to_thread(redact_import, entities, facts, relations, events, pii_mode)
    return clean, type_labels(ontology)


async def _vectors(
    embedder: Embedder, items: Sequence[tuple[Sequence[float] | None, str]]
) -> list[list[float]]:
    """A vector per (caller-supplied vector or None, text): the given ones as they are, the
    others embedded in one call (the embedder sorts texts by length, so one call over the whole
    import pads less than one per batch)."""
    missing = [text for vec, text in items if vec is None]
    computed = iter(await embedder.embed(missing) if missing else [])
    return [_floats(vec) if vec is not None else next(computed) for vec, text in items]


def _floats(vec: Sequence[float]) -> list[float]:
    """``vec`` as a list of floats, as the driver stores it (no copy when it already is)."""
    if type(vec) is list and set(map(type, vec)) == {float}:
        return vec
    return [float(v) for v in vec]


async def _import(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    checked: tuple[RedactedImport, dict[str, str]],
    progress: Progress | None,
    batch_size: int,
    now: datetime,
    result: RememberResult,
    cursor: dict[str, Any],
) -> None:
    """Resolve, deduplicate, embed and write the (redacted) import, one transaction per batch;
    ``cursor`` tracks the batch in flight and what a partial report needs."""
    items, labels = checked
    entities, facts, relations, events = items.entities, items.facts, items.relations, items.events
    registry, fact_rows, rel_rows = await _resolve(
        executor, agent_id, entities, facts, relations, result
    )
    fact_batches = await _deduplicate(executor, agent_id, facts, fact_rows, batch_size)
    # Every vector of the import before the first write: one embedder call per kind (fuller
    # batches), and an embedder failure stores nothing.
    entity_list = list(registry.keys.items())
    entity_vectors = await _vectors(embedder, [(e.embedding, e.name) for _, e in entity_list])
    given = {
        fid: f.embedding
        for (fid, _, _, _), f in zip(fact_rows, facts, strict=True)
        if f.embedding is not None
    }
    new_facts = [r for b in fact_batches for r in b.new_rows]
    glossed = [r for r in new_facts if r["props"].get("gloss")]
    fact_vectors = await _vectors(  # the glosses' vectors in the same call
        embedder,
        [(given.get(r["id"]), r["props"]["text"]) for r in new_facts]
        + [(None, r["props"]["gloss"]) for r in glossed],
    )
    for row, vec in zip(new_facts, fact_vectors[: len(new_facts)], strict=True):
        row["props"]["embedding"] = vec
    for row, vec in zip(glossed, fact_vectors[len(new_facts) :], strict=True):
        row["props"]["gloss_embedding"] = vec
    event_vectors = await embedder.embed(event_texts(events)) if events else []
    batches = _Batches(
        entity_list,
        entity_vectors,
        events,
        event_vectors,
        fact_batches,
        rel_rows,
        batch_size,
        labels,
    )
    total = len(entity_list) + len(fact_rows) + len(rel_rows) + len(events)
    cursor.update(
        entity_list=entity_list, n_events=len(events), n_facts=len(fact_rows), rel_rows=rel_rows
    )
    done = 0

    def step(n: int) -> None:
        nonlocal done
        cursor["committed"] += 1
        done += n
        if progress:
            progress(done, total)

    # every batch storing vectors checks the agent's model
    await _write(executor, agent_id, embedder_name(embedder), now, batches, result, cursor, step)


async def _resolve(
    executor: Executor,
    agent_id: str,
    entities: Sequence[StructuredEntity],
    facts: Sequence[StructuredFact],
    relations: Sequence[StructuredRelation],
    result: RememberResult,
) -> tuple[Registry, list[FactRow], list[dict[str, Any]]]:
    """The import's names resolved (declared entities, then one read of the known ones) and
    its fact and relation rows."""
    registry = Registry()
    refs = [f.subject for f in facts] + [e for f in facts for e in f.entities]
    refs += [r.source for r in relations] + [r.target for r in relations]
    # Row preparation is CPU work (texts normalised and hashed, languages detected, names
    # folded: ~0.4 s for a 2 MB call): in a worker thread, around the one read of known names.
    await asyncio.to_thread(declare, entities, registry)
    await load_known(executor, agent_id, refs, registry)
    fact_rows, rel_rows = await asyncio.to_thread(
        prepare_rows, agent_id, facts, relations, registry, result
    )
    return registry, fact_rows, rel_rows


async def _deduplicate(
    executor: Executor,
    agent_id: str,
    facts: Sequence[StructuredFact],
    fact_rows: list[FactRow],
    batch_size: int,
) -> list[FactBatch]:
    """The fact batches without exact duplicates: within the import, and against active facts
    already stored (one read).

    Raises:
        BadInput: a given fact id belongs to another agent.
    """
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
    return plan_fact_batches(fact_rows, existing_ids, known_hash, batch_size)


@dataclass
class _Batches:
    """What an import writes, with its vectors, cut into batches of ``size`` rows."""

    entity_list: list[tuple[str, StructuredEntity]]
    entity_vectors: list[list[float]]
    events: Sequence[StructuredEvent]
    event_vectors: list[list[float]]
    fact_batches: list[FactBatch]
    rel_rows: list[dict[str, Any]]
    size: int
    labels: dict[str, str]  # entity type → label (the ontology in force)


async def _write(
    executor: Executor,
    agent_id: str,
    space: str,
    now: datetime,
    b: _Batches,
    result: RememberResult,
    cursor: dict[str, Any],
    step: Callable[[int], None],
) -> None:
    """One write transaction per batch: entities (+ aliases) and events first, so facts can
    link to them, then facts, then relations; ``step`` after each."""
    token = uuid.uuid4().hex
    for start in range(0, len(b.entity_list), b.size):
        cursor.update(section="entities", start=start)
        chunk = b.entity_list[start : start + b.size]
        rows = entity_rows(chunk, b.entity_vectors[start : start + b.size], token)
        result.entities_created += await write_entities(
            executor, agent_id, space, now, rows, b.labels
        )
        step(len(chunk))
    result.entities_total = len(b.entity_list)

    for start in range(0, len(b.events), b.size):
        cursor.update(section="events", start=start)
        ev_chunk = b.events[start : start + b.size]
        ev_rows = event_rows(agent_id, ev_chunk, b.event_vectors[start : start + b.size], now)
        await write_events(executor, agent_id, space, ev_rows)
        result.events += len(ev_rows)
        step(len(ev_chunk))

    for batch in b.fact_batches:
        cursor.update(
            section="facts",
            start=batch.start,
            ids=len(result.fact_ids),
            unchanged=result.facts_unchanged,
        )
        await write_facts(executor, agent_id, space, now, batch)
        result.fact_ids += batch.fact_ids
        result.facts_unchanged += batch.unchanged
        result.facts_added += len(batch.new_rows)
        step(batch.size)

    for start in range(0, len(b.rel_rows), b.size):
        cursor.update(section="relations", start=start)
        rchunk = b.rel_rows[start : start + b.size]
        await write_relations(executor, agent_id, now, rchunk)
        result.relations += len(rchunk)
        step(len(rchunk))
