"""The MCP tools: one function per tool, each a thin call into the pipelines the GraphQL
resolvers use (``gql/queries.py``, ``gql/mutations.py``); nothing is reimplemented.

Functions take the process's :class:`~graph.memory.facade.Memory` (``server.memory``), the agent
id the caller may use and the validated input (``inputs``); they return JSON-ready dicts and
raise the graph-layer errors (``BadInput``, ``NotFound``, ``GraphUnavailable``...), which the
server maps to coded tool errors. No MCP import here: the functions are plain and testable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic_core import to_jsonable_python

from graph.errors import NotFound
from graph.executor import Executor
from graph.memory import browse
from graph.memory.browse.overview import agent_overview
from graph.memory.erase import EraseReport, erase_entity, erase_fact
from graph.memory.facade import Memory
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.memory.write.remember.rows import API_MAX_ITEMS
from server.mcp.inputs import (
    EraseEntity,
    EraseFact,
    ForgetFact,
    IngestDocument,
    Input,
    ListFacts,
    LookupEntity,
    RememberFacts,
    RetrieveContext,
    WriteMessage,
)

__all__ = [
    "TOOLS",
    "Tool",
    "agent_entities",
    "agent_profile",
    "plain",
]


def plain(value: Any) -> Any:
    """JSON-ready data without ``None`` fields (compact for a model's context window)."""
    data = to_jsonable_python(value)
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data


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
        entities=[
            StructuredEntity(
                name=e.name,
                type=e.type,
                aliases=list(e.aliases),
                key=e.key,
                importance=e.importance,
            )
            for e in inp.entities
        ],
        facts=[
            StructuredFact(
                text=f.text,
                subject=f.subject,
                entities=list(f.entities),
                kind=f.kind,
                confidence=f.confidence,
                importance=f.importance,
                valid_from=f.valid_from,
                valid_to=f.valid_to,
                categories=list(f.categories),
            )
            for f in inp.facts
        ],
        relations=[
            StructuredRelation(
                source=r.source,
                target=r.target,
                type=r.type,
                strength=r.strength,
                valid_from=r.valid_from,
            )
            for r in inp.relations
        ],
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


# --- retrieve context -------------------------------------------------------------------------


async def retrieve_context(m: Memory, agent_id: str, inp: RetrieveContext) -> dict[str, Any]:
    options = {
        k: v
        for k, v in (("topk_facts", inp.max_facts), ("topk_events", inp.max_events))
        if v is not None
    }
    r = await m.retriever.retrieve(agent_id, inp.query, as_of=inp.as_of, options=options or None)
    return plain(
        {
            "context": r.context,
            "facts": [
                {
                    "id": f.id,
                    "text": f.text,
                    "subject": f.subject_key,
                    "kind": f.kind,
                    "valid_from": f.valid_from,
                    "score": round(f.scores.final, 4),
                }
                for f in r.facts
            ],
            "events": [
                {"id": e.id, "text": e.text, "speaker": e.speaker, "occurred_at": e.occurred_at}
                for e in r.events
            ],
            "observations": [{"id": o.id, "text": o.text} for o in r.observations],
            "entities": [e.key for e in r.plan.entities],
        }
    )


# --- look up an entity ------------------------------------------------------------------------


async def _find_entity(ex: Executor, agent_id: str, inp: LookupEntity) -> browse.EntityRow:
    if inp.key:
        row = (await browse.entities_by_keys(ex, agent_id, [inp.key])).get(inp.key)
        if row is None:
            raise NotFound(f"no entity {inp.key!r}")
        return row
    name = (inp.name or "").strip()
    page = await browse.entities_page(ex, agent_id, text=name, first=20, with_total=False)
    if not page.items:
        raise NotFound(f"no entity named {name!r}")
    exact = [e for e in page.items if (e.name or "").lower() == name.lower()]
    return (exact or page.items)[0]


async def lookup_entity(m: Memory, agent_id: str, inp: LookupEntity) -> dict[str, Any]:
    ex = m.executor
    entity = await _find_entity(ex, agent_id, inp)
    key = entity.key
    facts = await browse.facts_by_entities(
        ex,
        agent_id,
        [key],
        as_of=inp.as_of,
        include_invalidated=inp.include_invalidated,
        kind=None,
        per_entity=inp.max_facts,
    )
    rels = await browse.relationships_by_entities(
        ex, agent_id, [key], as_of=inp.as_of, include_invalidated=inp.include_invalidated
    )
    aliases = await browse.aliases_by_entities(ex, agent_id, [key])
    history = (
        await browse.entity_history(ex, agent_id, key, inp.max_history) if inp.max_history else []
    )
    return plain(
        {
            "entity": {
                "key": key,
                "name": entity.name,
                "type": entity.type,
                "importance": entity.importance,
                "mentions": entity.mentions,
                "profile": entity.profile_text,
                "summary": entity.summary_text,
                "merged_into": entity.merged_into,
                "aliases": aliases.get(key, []),
            },
            "facts": [_fact(f) for f in facts.get(key, [])],
            "relationships": [
                {
                    "id": r.id,
                    "type": r.type,
                    "source": r.source_key,
                    "target": r.target_key,
                    "source_name": r.source_name,
                    "target_name": r.target_name,
                    "valid_from": r.valid_from,
                    "valid_to": r.valid_to,
                    "invalidated_at": r.invalidated_at,
                    "active": r.active,
                }
                for r in rels.get(key, [])
            ],
            "history": [
                {"at": h.at, "change": h.change, "text": h.text, "fact_id": h.fact_id}
                for h in history
            ],
        }
    )


def _fact(f: browse.FactRow) -> dict[str, Any]:
    return {
        "id": f.id,
        "text": f.text,
        "subject": f.subject_key,
        "kind": f.kind,
        "confidence": f.confidence,
        "valid_from": f.valid_from,
        "valid_to": f.valid_to,
        "invalidated_at": f.invalidated_at,
        "created_at": f.created_at,
        "active": f.active,
    }


# --- list facts -------------------------------------------------------------------------------


async def list_facts(m: Memory, agent_id: str, inp: ListFacts) -> dict[str, Any]:
    page = await m.browse.facts(
        agent_id,
        as_of=inp.as_of,
        include_invalidated=inp.include_invalidated,
        entity_key=inp.entity_key,
        kind=inp.kind,
        first=inp.first,
        after=inp.after,
    )
    return plain(
        {
            "facts": [_fact(f) for f in page.items],
            "next_cursor": page.cursors[-1] if page.has_next and page.cursors else None,
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
    return _erased(await erase_fact(m.executor, agent_id, inp.fact_id, queue=m.queue))


async def erase_entity_tool(m: Memory, agent_id: str, inp: EraseEntity) -> dict[str, Any]:
    return _erased(await erase_entity(m.executor, agent_id, inp.key, queue=m.queue))


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


# --- resources --------------------------------------------------------------------------------


async def agent_entities(m: Memory, agent_id: str, limit: int = 200) -> dict[str, Any]:
    """The agent's entities ordered by key (the ``entities`` resource)."""
    page = await m.browse.entities(agent_id, first=min(limit, browse.MAX_PAGE))
    return plain(
        {
            "agent_id": agent_id,
            "total": page.total,
            "entities": [
                {"key": e.key, "name": e.name, "type": e.type, "summary": e.summary_text}
                for e in page.items
            ],
        }
    )


@dataclass(frozen=True)
class Tool:
    """One MCP tool: its input model, the function, and hints for clients."""

    name: str
    title: str
    input: type[Input]
    run: Any  # async (Memory, agent_id, input) -> dict
    read_only: bool = False
    destructive: bool = False
    charges_key: bool = False  # ``run`` takes ``key_id=`` (the calling key pays a quota)
    reranks: bool = False  # may rerank with the LLM: costs ``rerank_rate_cost`` requests
    admin_only: bool = False  # only an admin key or the operator's own scope may call it


TOOLS: tuple[Tool, ...] = (
    Tool("write_message", "Write a message", WriteMessage, write_message),
    Tool("remember_facts", "Remember structured facts", RememberFacts, remember_facts),
    Tool(
        "retrieve_context",
        "Retrieve memory context",
        RetrieveContext,
        retrieve_context,
        read_only=True,
        reranks=True,
    ),
    Tool("lookup_entity", "Look up an entity", LookupEntity, lookup_entity, read_only=True),
    Tool("list_facts", "List facts as of a time", ListFacts, list_facts, read_only=True),
    Tool("forget_fact", "Forget a fact", ForgetFact, forget_fact, destructive=True),
    Tool(
        "erase_fact",
        "Erase a fact for good",
        EraseFact,
        erase_fact_tool,
        destructive=True,
        admin_only=True,
    ),
    Tool(
        "erase_entity",
        "Erase a subject for good",
        EraseEntity,
        erase_entity_tool,
        destructive=True,
        admin_only=True,
    ),
    Tool("ingest_document", "Ingest a document", IngestDocument, ingest_document, charges_key=True),
)


async def agent_profile(m: Memory, agent_id: str) -> dict[str, Any]:
    """What the agent's memory holds (the ``profile`` resource)."""
    o = await agent_overview(m.executor, agent_id)
    return plain(
        {
            "agent_id": agent_id,
            "entities": o.entities,
            "active_facts": o.active_facts,
            "events": o.events,
            "documents": o.documents,
            "top_entities": o.top_entities,
            "observations": [{"id": x.id, "text": x.text, "kind": x.kind} for x in o.observations],
        }
    )
