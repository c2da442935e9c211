"""Erase: remove a fact, a subject or a whole agent from the database, with every copy of its
text (a hard delete, unlike ``forget``, which only closes a fact's validity).

Each step is one bounded statement (ids in batches of :data:`BATCH`); the handle of the erase (the
facts, the entity) goes last, so an erase cut short by a crash is finished by running it again.
What goes, for a fact (with the older versions it replaced):

* the fact nodes (embeddings included) and their links;
* the messages they were extracted from, and the whole document when a message was one of its
  chunks (other facts drawn from those sources stay, without that provenance);
* the text of audit records naming them (the record keeps its ids and a hash of the text);
* idempotency receipts and jobs whose stored result or payload names them;
* the erased messages in the earlier messages (``recent_messages``) later async writes keep in
  their job payload as context (those jobs stay, with the rest of their context);
* observations derived from them (consolidation derives new ones from what remains); the
  profiles of the entities they were about are cleared and a profile job queued;
* relationships evidenced only by them (others drop them from their evidence);
* entities left with no fact and no relationship.

A subject (entity key) adds every fact about it or naming it, the entities merged into it (at
every level of a merge chain), its aliases, relationships and merge candidates, and every
message, document, job, receipt, audit text and observation that names it or one of its aliases
(whole words, case-insensitive).
The agent scope deletes every node of the agent and releases its id (see :func:`erase_agent`).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from graph.agent_deletion import delete_agent_nodes
from graph.errors import NotFound
from graph.executor import Executor
from graph.memory.erase.plan import (
    CONTEXT_PROBE_CHARS,
    EraseReport,
    EraseTarget,
    batches,
    context_probes,
    erase_key,
    mention_patterns,
    name_matcher,
    payload_fragment,
    scrub_context,
    scrub_rows,
    text_hash,
)
from graph.memory.jobs.queue import JobQueue, JobSpec

__all__ = ["BATCH", "erase", "erase_agent", "erase_entity", "erase_fact", "merged_chain"]

BATCH = 1_000


async def erase(
    executor: Executor, target: EraseTarget, *, queue: JobQueue | None = None
) -> EraseReport:
    """Run the erase ``target`` names (see :func:`graph.memory.erase.plan.erase_target`)."""
    if target.everything:
        return await erase_agent(executor, target.agent_id)
    if target.fact_id is not None:
        return await erase_fact(executor, target.agent_id, target.fact_id, queue=queue)
    assert target.entity_key is not None
    return await erase_entity(executor, target.agent_id, target.entity_key, queue=queue)


async def erase_fact(
    executor: Executor, agent_id: str, fact_id: str, *, queue: JobQueue | None = None
) -> EraseReport:
    """Erase one fact with its older versions and every copy of its text.

    Raises:
        NotFound: the agent has no such fact.
    """
    rows = await executor.run(
        "erase/fact_closure", {"agent_id": agent_id, "ids": [fact_id]}, read=True
    )
    if not rows or not rows[0]["fact_ids"]:
        raise NotFound(f"fact {fact_id} not found")
    report = EraseReport(scope="fact")
    key = erase_key()
    await _erase_facts(executor, agent_id, report, rows[0]["fact_ids"], [], [], queue, key=key)
    report.audit_id = await _record(executor, agent_id, report, fact_id, key)
    return report


async def erase_entity(
    executor: Executor, agent_id: str, key: str, *, queue: JobQueue | None = None
) -> EraseReport:
    """Erase a subject: the entity (and those merged into it), its aliases and relationships,
    every fact about it, and every stored text naming it.

    Raises:
        NotFound: the agent has no such entity.
    """
    merged = await merged_chain(executor, agent_id, key)
    rows = await executor.run(
        "erase/subject", {"agent_id": agent_id, "key": key, "merged": merged}, read=True
    )
    if not rows:
        raise NotFound(f"entity {key} not found")
    keys: list[str] = rows[0]["keys"]
    names = [n for n in rows[0]["names"] if n]
    patterns = mention_patterns(names)
    found = (
        (
            await executor.run(
                "erase/mentions", {"agent_id": agent_id, "patterns": patterns}, read=True
            )
        )[0]
        if patterns
        else {}
    )
    fact_ids = _union(rows[0]["fact_ids"], found.get("fact_ids", []))
    report = EraseReport(scope="entity")
    secret = erase_key()
    await _erase_facts(
        executor,
        agent_id,
        report,
        fact_ids,
        found.get("event_ids", []),
        found.get("document_ids", []),
        queue,
        names=names,
        keys=keys,
        key=secret,
    )
    report.audit_id = await _record(executor, agent_id, report, key, secret)
    return report


async def merged_chain(executor: Executor, agent_id: str, key: str) -> list[str]:
    """Keys of every entity merged into ``key``, directly or through a chain of merges (A into
    B, then B into C: both A and B for C), one statement per level."""
    seen = {key}
    found: list[str] = []
    level = [key]
    while level:
        rows = await executor.run(
            "erase/merged_keys", {"agent_id": agent_id, "keys": level}, read=True
        )
        level = [r["key"] for r in rows if r["key"] not in seen]
        seen.update(level)
        found.extend(level)
    return found


async def erase_agent(executor: Executor, agent_id: str, *, batch: int = 10_000) -> EraseReport:
    """Delete every node of ``agent_id`` and release the id (see
    :func:`graph.agent_deletion.delete_agent_nodes`)."""
    done = await delete_agent_nodes(executor, agent_id, batch=batch)
    return EraseReport(
        scope="agent",
        facts=done.counts.get("facts", 0),
        events=done.counts.get("events", 0),
        entities=done.counts.get("entities", 0),
        documents=done.counts.get("documents", 0),
        observations=done.counts.get("observations", 0),
        jobs=done.counts.get("jobs", 0),
        nodes=done.nodes,
        keys_changed=done.keys_changed,
        keys_revoked=done.keys_revoked,
    )


async def _erase_facts(
    executor: Executor,
    agent_id: str,
    report: EraseReport,
    fact_ids: Sequence[str],
    event_ids: Sequence[str],
    document_ids: Sequence[str],
    queue: JobQueue | None,
    *,
    names: Sequence[str] = (),
    keys: Sequence[str] = (),
    key: bytes,
) -> None:
    closure: dict[str, Any] = {"fact_ids": [], "event_ids": [], "entity_keys": []}
    if fact_ids:
        closure = (
            await executor.run(
                "erase/fact_closure", {"agent_id": agent_id, "ids": list(fact_ids)}, read=True
            )
            or [closure]
        )[0]
    facts = _union(closure["fact_ids"], fact_ids)
    (docs,) = await executor.run(
        "erase/document_sources",
        {
            "agent_id": agent_id,
            "event_ids": _union(closure["event_ids"], event_ids),
            "document_ids": list(document_ids),
        },
        read=True,
    )
    events = _union(closure["event_ids"], event_ids, docs["event_ids"])
    documents: list[str] = docs["document_ids"]
    ids = _union(facts, events, documents, docs["chunk_ids"], keys)
    patterns = mention_patterns(names)
    base = {"agent_id": agent_id}

    audits = await executor.run(
        "erase/audits", {**base, "ids": ids, "patterns": patterns}, read=True
    )
    for scrubbed in batches(scrub_rows(audits, ids, name_matcher(names), key=key), BATCH):
        rows = await executor.run("erase/scrub_audits", {"rows": scrubbed})
        report.audits_scrubbed += int(rows[0]["scrubbed"]) if rows else 0
    report.receipts = await _count(
        executor, "erase/delete_receipts", {**base, "ids": ids, "patterns": patterns}
    )
    report.jobs = await _count(
        executor, "erase/delete_jobs", {**base, "ids": ids, "patterns": patterns}
    )
    report.job_contexts = await _scrub_job_contexts(executor, agent_id, events)
    (hooks,) = await executor.run(
        "erase/webhook_deliveries", {**base, "fact_ids": facts, "keys": list(keys)}
    )
    report.webhook_deliveries = int(hooks["scrubbed"])
    if patterns:
        report.dedup_slots = await _count(
            executor, "erase/delete_dedup", {**base, "patterns": patterns}
        )
    report.observations = await _count(
        executor, "erase/delete_observations", {**base, "fact_ids": facts, "patterns": patterns}
    )
    if facts:
        (rel,) = await executor.run("erase/relations", {**base, "fact_ids": facts})
        report.relations_deleted, report.relations_updated = (
            int(rel["deleted"]),
            int(rel["updated"]),
        )
    touched = [k for k in closure["entity_keys"] if k not in set(keys)]
    cleared = await executor.run("erase/clear_profiles", {**base, "keys": touched})
    report.profiles_cleared = len(cleared)
    await _delete_erased(
        executor, agent_id, report, {"events": events, "documents": documents, "facts": facts}
    )
    await _delete_entities(executor, agent_id, report, keys, touched, queue)


async def _delete_erased(
    executor: Executor, agent_id: str, report: EraseReport, items: dict[str, Sequence[str]]
) -> None:
    """Delete the erased events, documents and facts in batches, counted into ``report``."""
    base = {"agent_id": agent_id}
    for name, ids, field_ in (
        ("erase/delete_events", items["events"], "events"),
        ("erase/delete_documents", items["documents"], "documents"),
        ("erase/delete_facts", items["facts"], "facts"),
    ):
        for chunk in batches(list(ids), BATCH):
            setattr(
                report,
                field_,
                getattr(report, field_) + await _count(executor, name, {**base, "ids": chunk}),
            )


async def _delete_entities(
    executor: Executor,
    agent_id: str,
    report: EraseReport,
    keys: Sequence[str],
    touched: Sequence[str],
    queue: JobQueue | None,
) -> None:
    """Delete the erased entities and those the erasure left without facts; profiles of the
    touched ones that remain are derived again (a ``profile`` job)."""
    base = {"agent_id": agent_id}
    for chunk in batches(list(keys), BATCH):
        gone = await executor.run(
            "erase/delete_entities", {**base, "keys": chunk, "orphans_only": False}
        )
        report.entities += len(gone)
    orphans = 0
    for chunk in batches(list(touched), BATCH):
        gone = await executor.run(
            "erase/delete_entities", {**base, "keys": chunk, "orphans_only": True}
        )
        orphans += len(gone)
    report.entities += orphans
    if queue is not None and report.profiles_cleared > orphans:  # profiles to derive again
        await queue.enqueue(JobSpec(kind="profile", agent_id=agent_id))


async def _scrub_job_contexts(executor: Executor, agent_id: str, events: Sequence[str]) -> int:
    """Remove erased messages from the earlier messages (``recent_messages``) that later jobs
    keep in their payload as context; returns how many payloads changed."""
    changed = 0
    for chunk in batches(list(events), BATCH):
        rows = await executor.run(
            "erase/event_texts",
            {"agent_id": agent_id, "ids": chunk, "chars": 4 * CONTEXT_PROBE_CHARS},
            read=True,
        )
        texts = [r["text"] for r in rows if r["text"]]
        probes = context_probes(texts)
        if not probes:
            continue
        jobs = await executor.run(
            "erase/context_jobs",
            {"agent_id": agent_id, "fragments": [payload_fragment(p) for p in probes]},
            read=True,
        )
        scrubbed = []
        for job in jobs:
            payload = json.loads(job["payload"])
            recent = payload.get("recent_messages") if isinstance(payload, dict) else None
            if not isinstance(recent, list):
                continue
            kept = scrub_context(recent, texts)
            if len(kept) != len(recent):
                scrubbed.append(
                    {"id": job["id"], "payload": json.dumps({**payload, "recent_messages": kept})}
                )
        for rows_ in batches(scrubbed, BATCH):
            done = await executor.run(
                "erase/scrub_job_payloads", {"agent_id": agent_id, "rows": rows_}
            )
            changed += int(done[0]["scrubbed"]) if done else 0
    return changed


async def _count(executor: Executor, name: str, params: dict[str, Any]) -> int:
    rows = await executor.run(name, params)
    return int(rows[0]["deleted"]) if rows else 0


async def _record(
    executor: Executor, agent_id: str, report: EraseReport, target: str, key: bytes
) -> str:
    """The audit record of the erase: scope, a keyed hash of the target (the key is not kept:
    see :func:`graph.memory.erase.plan.text_hash`), counts; no text."""
    audit_id = str(uuid.uuid4())
    await executor.run(
        "erase/record",
        {
            "agent_id": agent_id,
            "id": audit_id,
            "target_hash": text_hash(target, key=key),
            "scope": report.scope,
            "counts": json.dumps(report.counts(), sort_keys=True),
        },
    )
    return audit_id


def _union(*lists: Sequence[str]) -> list[str]:
    """Distinct items of ``lists``, first occurrence first."""
    return list(dict.fromkeys(x for items in lists for x in items if x))
