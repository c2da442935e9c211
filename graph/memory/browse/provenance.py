"""Why a fact is what it is: the messages it came from, the relationships it supports, and the
graph path by which a retrieval reached it.

Each function takes many facts and costs one query (the GraphQL DataLoaders batch on them);
facts of another agent are never read (every statement matches on ``agent_id``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graph.executor import Executor
from graph.memory.browse.rows import EventRow, RelationshipRow, from_map

__all__ = [
    "MAX_CASCADES",
    "MAX_EVIDENCE",
    "HopStep",
    "PathRequest",
    "cascades_by_facts",
    "evidence_by_facts",
    "hop_paths",
]

MAX_EVIDENCE = 20  # messages shown per fact (a fact repeated in many messages lists the first)
MAX_CASCADES = 100  # relationships shown per fact


@dataclass(frozen=True)
class HopStep:
    """One entity on a hop path; ``via`` is the relationship type that led to it (None for the
    start) and ``forward`` whether that relationship runs from the previous entity to this one."""

    key: str
    name: str | None = None
    via: str | None = None
    forward: bool = True


@dataclass(frozen=True)
class PathRequest:
    """A retrieved fact and the graph distance the retrieval gave it."""

    fact_id: str
    hops: int


async def evidence_by_facts(
    ex: Executor, agent_id: str, fact_ids: list[str], per_fact: int = MAX_EVIDENCE
) -> dict[str, list[EventRow]]:
    """The stored messages (oldest first) each fact was extracted from, one query. Texts are
    as stored, so the operator's PII policy already applies to them."""
    rows = await ex.run(
        "browse/evidence_by_facts",
        {"agent_id": agent_id, "ids": fact_ids, "per_fact": per_fact},
        read=True,
    )
    return {r["id"]: [from_map(EventRow, e) for e in r["events"]] for r in rows}


async def cascades_by_facts(
    ex: Executor, agent_id: str, fact_ids: list[str], per_fact: int = MAX_CASCADES
) -> dict[str, list[RelationshipRow]]:
    """The relationships (current and past, oldest first) each fact is evidence for, one query."""
    rows = await ex.run(
        "browse/cascades_by_facts",
        {"agent_id": agent_id, "ids": fact_ids, "per_fact": per_fact},
        read=True,
    )
    return {r["id"]: [from_map(RelationshipRow, x) for x in r["rels"]] for r in rows}


def steps_from(nodes: list[dict[str, str | None]], rels: list[dict[str, object]]) -> list[HopStep]:
    """The path's entities in order, each with the relationship that led to it."""
    steps = []
    for i, node in enumerate(nodes):
        via = rels[i - 1] if i > 0 and i - 1 < len(rels) else None
        steps.append(
            HopStep(
                key=str(node["key"]),
                name=node.get("name"),
                via=str(via["type"]) if via else None,
                forward=bool(via["forward"]) if via else True,
            )
        )
    return steps


async def hop_paths(
    ex: Executor,
    agent_id: str,
    starts: list[str],
    facts: list[PathRequest],
    as_of: datetime | None = None,
) -> dict[str, list[HopStep]]:
    """For each fact, a shortest path (at most its ``hops``) over the relationships visible at
    ``as_of`` from one of ``starts`` (the query's entities) to an entity the fact is about; a
    fact no such path reaches is absent. One query, none without starts or facts."""
    if not starts or not facts:
        return {}
    rows = await ex.run(
        "browse/hop_paths",
        {
            "agent_id": agent_id,
            "starts": starts,
            "rows": [{"id": f.fact_id, "hops": f.hops} for f in facts],
            "as_of": as_of,
        },
        read=True,
    )
    return {r["id"]: steps_from(r["nodes"], r["rels"]) for r in rows}
