"""Read-only listings behind the API: entities, facts, events, neighbourhoods and admin lists.

Every function takes the executor and an ``agent_id`` and runs named statements from
``cypher/browse/``. Batch functions (``*_by_entities``) take many keys and cost one query, which is
what the GraphQL DataLoaders rely on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.errors import BadInput, NotFound
from graph.executor import Executor
from graph.memory.browse.cursor import (
    decode_key_cursor,
    decode_time_cursor,
    encode_key_cursor,
    encode_time_cursor,
)
from graph.memory.browse.rows import (
    AuditRow,
    EntityRow,
    EventRow,
    FactRow,
    GraphNodeRow,
    HistoryRow,
    JobRow,
    MergeCandidateRow,
    ObservationRow,
    Page,
    RelationshipRow,
    from_map,
)
from graph.plan_shapes import padded

__all__ = [
    "MAX_HISTORY",
    "MAX_HOPS",
    "MAX_PAGE",
    "MAX_RELATIONSHIPS",
    "Neighborhood",
    "aliases_by_entities",
    "audit_log",
    "check_limit",
    "entities_by_keys",
    "entities_page",
    "entity_history",
    "events_page",
    "fact_history",
    "facts_by_entities",
    "facts_by_ids",
    "facts_page",
    "get_job",
    "history_by_entities",
    "jobs",
    "merge_candidates",
    "neighborhood",
    "observations",
    "relationships_by_entities",
]

MAX_PAGE = 100
MAX_HISTORY = 500  # changes of one entity's timeline per request
MAX_RELATIONSHIPS = 500  # relationships of one entity per request
MAX_HOPS = 3


def check_limit(value: int, name: str = "first", maximum: int = MAX_PAGE) -> int:
    """Validate a page size: 1..maximum, else BadInput (never silently clamp)."""
    if value < 1 or value > maximum:
        raise BadInput(f"{name} must be between 1 and {maximum}, got {value}")
    return value


async def entities_page(
    ex: Executor,
    agent_id: str,
    *,
    type: str | None = None,
    text: str | None = None,
    first: int = 20,
    after: str | None = None,
    include_merged: bool = False,
    with_total: bool = True,
    subtypes: Sequence[str] = (),
) -> Page[EntityRow]:
    """A page of entities ordered by key; ``after`` is a cursor from a previous page.
    ``type`` keeps entities of that type or of one of its ``subtypes`` (an ontology's)."""
    check_limit(first)
    params: dict[str, Any] = {
        "agent_id": agent_id,
        "types": [type.lower(), *subtypes] if type else None,
        "text": text.lower().strip() or None if text else None,
        "include_merged": include_merged,
    }
    rows = await ex.run(
        "browse/entities_page",
        {**params, "after": decode_key_cursor(after) if after else None, "limit": first + 1},
        read=True,
    )
    items = [from_map(EntityRow, r["entity"]) for r in rows[:first]]
    total = None
    if with_total:
        total = int((await ex.run("browse/entities_count", params, read=True))[0]["total"])
    return Page(items, [encode_key_cursor(e.key) for e in items], len(rows) > first, total)


async def entities_by_keys(ex: Executor, agent_id: str, keys: list[str]) -> dict[str, EntityRow]:
    """Entities by key (one query); missing keys are absent from the result."""
    rows = await ex.run("browse/entities_by_keys", {"agent_id": agent_id, "keys": keys}, read=True)
    found = [from_map(EntityRow, r["entity"]) for r in rows]
    return {e.key: e for e in found}


async def facts_by_entities(
    ex: Executor,
    agent_id: str,
    keys: list[str],
    *,
    as_of: datetime | None = None,
    include_invalidated: bool = False,
    kind: str | None = None,
    per_entity: int = 50,
) -> dict[str, list[FactRow]]:
    """Facts ABOUT each entity (newest first, at most ``per_entity`` each), one query."""
    rows = await ex.run(
        "browse/facts_by_entities",
        {
            "agent_id": agent_id,
            "keys": keys,
            "as_of": as_of,
            "include_invalidated": include_invalidated,
            "kind": kind,
            "per_entity": per_entity,
        },
        read=True,
    )
    out: dict[str, list[FactRow]] = defaultdict(list)
    for r in rows:
        out[r["key"]] = [from_map(FactRow, f) for f in r["facts"]]
    return out


async def relationships_by_entities(
    ex: Executor,
    agent_id: str,
    keys: list[str],
    *,
    as_of: datetime | None = None,
    include_invalidated: bool = False,
    per_entity: int = 50,
) -> dict[str, list[RelationshipRow]]:
    """RELATES_TO edges touching each entity (both directions, newest first, at most
    ``per_entity`` each), one query."""
    rows = await ex.run(
        "browse/relationships_by_entities",
        {
            "agent_id": agent_id,
            "keys": keys,
            "as_of": as_of,
            "include_invalidated": include_invalidated,
            "per_entity": per_entity,
        },
        read=True,
    )
    out: dict[str, list[RelationshipRow]] = defaultdict(list)
    for r in rows:
        out[r["key"]] = [from_map(RelationshipRow, x) for x in r["rels"]]
    return out


async def aliases_by_entities(ex: Executor, agent_id: str, keys: list[str]) -> dict[str, list[str]]:
    """Alias texts of each entity, one query."""
    rows = await ex.run(
        "browse/aliases_by_entities", {"agent_id": agent_id, "keys": keys}, read=True
    )
    return {r["key"]: list(r["aliases"]) for r in rows}


async def entity_history(
    ex: Executor, agent_id: str, key: str, limit: int = 100
) -> list[HistoryRow]:
    """Newest-first timeline of facts and relationships added to / ended on one entity."""
    return (await history_by_entities(ex, agent_id, [key], limit)).get(key, [])


async def history_by_entities(
    ex: Executor, agent_id: str, keys: list[str], limit: int = 100
) -> dict[str, list[HistoryRow]]:
    """The timelines of several entities (at most ``limit`` changes each), one query."""
    check_limit(limit, "limit", MAX_HISTORY)
    rows = await ex.run(
        "browse/history_by_entities",
        {"agent_id": agent_id, "keys": keys, "limit": limit},
        read=True,
    )
    return {r["key"]: [from_map(HistoryRow, c) for c in r["changes"]] for r in rows}


async def facts_page(
    ex: Executor,
    agent_id: str,
    *,
    as_of: datetime | None = None,
    include_invalidated: bool = False,
    entity_key: str | None = None,
    kind: str | None = None,
    first: int = 20,
    after: str | None = None,
    entity_types: Sequence[str] | None = None,
) -> Page[FactRow]:
    """A page of facts, newest first; ``entity_types``: only facts about an entity of one of
    these types."""
    check_limit(first)
    after_at, after_id = decode_time_cursor(after) if after else (None, None)
    rows = await ex.run(
        "browse/facts_page",
        {
            "agent_id": agent_id,
            "as_of": as_of,
            "include_invalidated": include_invalidated,
            "entity_key": entity_key,
            "kind": kind,
            "entity_types": list(entity_types) if entity_types else None,
            "after_at": after_at,
            "after_id": after_id,
            "limit": first + 1,
        },
        read=True,
    )
    items = [from_map(FactRow, r["fact"]) for r in rows[:first]]
    return Page(items, [encode_time_cursor(f.created_at, f.id) for f in items], len(rows) > first)


async def facts_by_ids(ex: Executor, agent_id: str, ids: list[str]) -> dict[str, FactRow]:
    """Facts by id (one query); missing ids are absent."""
    rows = await ex.run("browse/facts_by_ids", {"agent_id": agent_id, "ids": ids}, read=True)
    found = [from_map(FactRow, r["fact"]) for r in rows]
    return {f.id: f for f in found}


async def fact_history(ex: Executor, agent_id: str, fact_id: str) -> list[FactRow]:
    """Every version in the SUPERSEDES chain through ``fact_id``, oldest first.

    Raises:
        NotFound: the agent has no fact with that id.
    """
    rows = await ex.run("browse/fact_history", {"agent_id": agent_id, "id": fact_id}, read=True)
    if not rows:
        raise NotFound(f"no fact {fact_id!r}")
    return [from_map(FactRow, r["fact"]) for r in rows]


async def events_page(
    ex: Executor,
    agent_id: str,
    *,
    thread_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    first: int = 20,
    after: str | None = None,
) -> Page[EventRow]:
    """A page of events (messages), newest first."""
    check_limit(first)
    after_at, after_id = decode_time_cursor(after) if after else (None, None)
    rows = await ex.run(
        "browse/events_page",
        {
            "agent_id": agent_id,
            "thread_id": thread_id,
            "since": since,
            "until": until,
            "after_at": after_at,
            "after_id": after_id,
            "limit": first + 1,
        },
        read=True,
    )
    items = [from_map(EventRow, r["event"]) for r in rows[:first]]
    return Page(items, [encode_time_cursor(e.occurred_at, e.id) for e in items], len(rows) > first)


@dataclass(frozen=True)
class Neighborhood:
    """Entities around a centre and the RELATES_TO edges among them."""

    nodes: list[GraphNodeRow]
    edges: list[RelationshipRow]


async def neighborhood(
    ex: Executor,
    agent_id: str,
    key: str,
    *,
    hops: int = 1,
    as_of: datetime | None = None,
    max_nodes: int = 100,
    relation_types: Sequence[str] | None = None,
) -> Neighborhood:
    """Subgraph within ``hops`` (1..3) of an entity: nodes with depth, edges among them;
    ``relation_types``: through and among relationships of these types only.

    Raises:
        BadInput: hops or max_nodes out of range.  NotFound: no such entity.
    """
    check_limit(hops, "hops", MAX_HOPS)
    check_limit(max_nodes, "maxNodes", 500)
    types = list(relation_types) if relation_types else None
    rows = await ex.run(
        "browse/neighborhood_nodes",
        {
            "agent_id": agent_id,
            "key": key,
            "hops": hops,
            "as_of": as_of,
            "max_nodes": max_nodes,
            "types": types,
        },
        read=True,
    )
    if not rows:
        raise NotFound(f"no entity {key!r}")
    nodes = [from_map(GraphNodeRow, {**r["entity"], "depth": r["depth"]}) for r in rows]
    edge_rows = await ex.run(
        "browse/neighborhood_edges",
        # padded to one size bucket (no entity's key is empty): one plan for every graph
        {
            "agent_id": agent_id,
            "keys": padded([n.key for n in nodes], ""),
            "as_of": as_of,
            "types": types,
        },
        read=True,
    )
    edges = [from_map(RelationshipRow, r["rel"]) for r in edge_rows]
    return Neighborhood(nodes, edges)


async def observations(ex: Executor, agent_id: str, limit: int = 50) -> list[ObservationRow]:
    """Newest observations with the ids of the facts they were derived from."""
    check_limit(limit, "limit", 500)
    rows = await ex.run("browse/observations", {"agent_id": agent_id, "limit": limit}, read=True)
    return [from_map(ObservationRow, r["observation"]) for r in rows]


async def merge_candidates(
    ex: Executor, agent_id: str, status: str | None = None, limit: int = 50
) -> list[MergeCandidateRow]:
    """Merge candidates, most confident first."""
    check_limit(limit, "limit", 500)
    rows = await ex.run(
        "browse/merge_candidates",
        {"agent_id": agent_id, "status": status, "limit": limit},
        read=True,
    )
    return [from_map(MergeCandidateRow, r["candidate"]) for r in rows]


async def audit_log(
    ex: Executor,
    agent_id: str,
    *,
    action: str | None = None,
    since: datetime | None = None,
    limit: int = 50,
) -> list[AuditRow]:
    """Decision history, newest first."""
    check_limit(limit, "limit", 500)
    rows = await ex.run(
        "browse/audit_log",
        {"agent_id": agent_id, "action": action, "since": since, "limit": limit},
        read=True,
    )
    return [from_map(AuditRow, r["audit"]) for r in rows]


async def jobs(
    ex: Executor, agent_id: str, status: str | None = None, limit: int = 50
) -> list[JobRow]:
    """Background jobs of an agent, newest first."""
    check_limit(limit, "limit", 500)
    rows = await ex.run(
        "browse/jobs", {"agent_id": agent_id, "status": status, "limit": limit}, read=True
    )
    return [from_map(JobRow, r["job"]) for r in rows]


async def get_job(ex: Executor, agent_id: str, job_id: str) -> JobRow:
    """One job (progress polling). Raises NotFound."""
    rows = await ex.run("browse/job", {"agent_id": agent_id, "id": job_id}, read=True)
    if not rows:
        raise NotFound(f"no job {job_id!r}")
    return from_map(JobRow, rows[0]["job"])
