"""The MCP tools and resources that read an agent's memory: retrieve context, look up an
entity, list facts; the ``entities`` and ``profile`` resources. Thin calls into the pipelines
the GraphQL queries use."""

from __future__ import annotations

from typing import Any

from graph.errors import NotFound
from graph.executor import Executor
from graph.memory import browse
from graph.memory.browse.overview import agent_overview
from graph.memory.facade import Memory
from server.mcp.inputs import ListFacts, LookupEntity, RetrieveContext
from server.mcp.plain import plain

__all__ = [
    "agent_entities",
    "agent_profile",
    "list_facts",
    "lookup_entity",
    "retrieve_context",
]


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
                {
                    "id": e.id,
                    "text": e.text,
                    "speaker": e.speaker,
                    "occurred_at": e.occurred_at,
                    "superseded": e.superseded,
                }
                for e in r.events
            ],
            "observations": [{"id": o.id, "text": o.text} for o in r.observations],
            "entities": [e.key for e in r.plan.entities],
            "retrieve_id": r.retrieve_id,
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
