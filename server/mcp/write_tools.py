"""The MCP tools that change an agent's memory: write a message, remember structured facts,
forget, erase, ingest a document. Thin calls into the pipelines the GraphQL mutations use."""

from __future__ import annotations

from typing import Any

from gql.structured import structured_entities, structured_facts, structured_relations
from graph.memory.erase import EraseReport, erase_target
from graph.memory.facade import Memory
from graph.memory.remember.rows import API_MAX_ITEMS
from server.mcp.inputs import (
    EraseEntity,
    EraseFact,
    ForgetFact,
    IngestDocument,
    RateFact,
    RememberFacts,
    WriteMessage,
)
from server.mcp.plain import plain

__all__ = [
    "erase_entity_tool",
    "erase_fact_tool",
    "forget_fact",
    "ingest_document",
    "rate_fact",
    "remember_facts",
    "write_message",
]


# --- write a message ---------------------------------------------------------------------------


def _change(c: Any) -> dict[str, Any]:
    return plain(
        {
            "id": c.id,
            "text": c.text,
            "subject": c.subject_key,
            "action": c.action,
            "replaces": c.target_id,
            "reason": c.reason,
        }
    )


async def write_message(m: Memory, agent_id: str, inp: WriteMessage) -> dict[str, Any]:
    if inp.background:
        queued = await m.write_async(
            agent_id,
            inp.message,
            inp.speaker_name,
            occurred_at=inp.occurred_at,
            thread_id=inp.thread_id,
            recent_messages=inp.recent_messages,
            idempotency_key=inp.idempotency_key,
        )
        return plain(
            {
                "queued": True,
                "event_id": queued.event_id,
                "job_id": queued.job_id,
                "created": queued.created,
                "warnings": list(queued.warnings),
            }
        )
    r = await m.writer.write(
        agent_id,
        inp.message,
        inp.speaker_name,
        recent_messages=inp.recent_messages,
        occurred_at=inp.occurred_at,
        thread_id=inp.thread_id,
        dry_run=inp.dry_run,
        idempotency_key=inp.idempotency_key,
    )
    return plain(
        {
            "success": r.success,
            "error": r.error,
            "event_id": r.event_id,
            "dry_run": r.dry_run,
            "facts_added": [_change(c) for c in r.facts_added],
            "facts_updated": [_change(c) for c in r.facts_updated],
            "facts_unchanged": [_change(c) for c in r.facts_unchanged],
            "facts_deleted": [_change(c) for c in r.facts_deleted],
            "entities": [
                e["key"] for e in r.entities_resolved if isinstance(e, dict) and e.get("key")
            ],
            "warnings": list(r.warnings),
        }
    )


# --- remember structured facts ----------------------------------------------------------------


async def remember_facts(m: Memory, agent_id: str, inp: RememberFacts) -> dict[str, Any]:
    r = await m.admin.remember(
        agent_id,
        entities=structured_entities(inp.entities),
        facts=structured_facts(inp.facts),
        relations=structured_relations(inp.relations),
        max_items=API_MAX_ITEMS,
    )
    return plain(
        {
            "entities_created": r.entities_created,
            "facts_added": r.facts_added,
            "facts_unchanged": r.facts_unchanged,
            "relations": r.relations,
            "fact_ids": list(r.fact_ids),
            "entity_keys": dict(r.entity_keys),
            "warnings": list(r.warnings),
            "complete": r.complete,
            "error": r.error,
            "refused": [
                {"section": x.section, "index": x.index, "key": x.ref, "reason": x.reason}
                for x in r.refused
            ],
        }
    )


# --- forget a fact ----------------------------------------------------------------------------


async def forget_fact(m: Memory, agent_id: str, inp: ForgetFact) -> dict[str, Any]:
    r = await m.admin.forget(agent_id, inp.fact_id, inp.reason)
    return {"fact_id": r.fact_id, "invalidated_relationships": list(r.invalidated_relationships)}


# --- erase a fact or a subject -----------------------------------------------------------------


def _erased(r: EraseReport) -> dict[str, Any]:
    return {"erased": r.counts(), "audit_id": r.audit_id}


async def erase_fact_tool(m: Memory, agent_id: str, inp: EraseFact) -> dict[str, Any]:
    return _erased(await m.erase(erase_target(agent_id, fact_id=inp.fact_id)))


async def erase_entity_tool(m: Memory, agent_id: str, inp: EraseEntity) -> dict[str, Any]:
    return _erased(await m.erase(erase_target(agent_id, entity_key=inp.key)))


# --- ingest a document ------------------------------------------------------------------------


async def ingest_document(
    m: Memory, agent_id: str, inp: IngestDocument, *, key_id: str | None = None
) -> dict[str, Any]:
    accepted = await m.documents.ingest(
        agent_id, text=inp.text, url=inp.url, title=inp.title, fmt=inp.format, key_id=key_id
    )
    return {
        "document_id": accepted.document_id,
        "job_id": accepted.job_id,
        "created": accepted.created,
    }


# --- feedback on a retrieved fact ------------------------------------------------------------


async def rate_fact(m: Memory, agent_id: str, inp: RateFact, *, tenant: str) -> dict[str, Any]:
    receipt = await m.learning.feedback(
        tenant, agent_id, inp.retrieve_id, inp.fact_id, inp.helpful, inp.query
    )
    return plain(
        {
            "recorded": True,
            "retrieve_id": receipt.retrieve_id,
            "fact_id": receipt.fact_id,
            "helpful": receipt.helpful,
            "labels": receipt.labels,
            "rebuilt": receipt.rebuilt,
        }
    )
