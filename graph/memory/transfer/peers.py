"""Imports from other memory systems: the I/O around :mod:`.mem0` and :mod:`.graphiti`.

Both go through the structured ``remember`` import (entities resolved by name or alias, facts
embedded by this server's model, duplicates counted as unchanged). A Graphiti graph is read
page by page from its own Neo4j database (``cypher/peers/graphiti_*.cypher``) and written one
page at a time, so a large graph holds one page in memory; the episode ids are kept (a set of
strings) so edges link only to imported episodes. Each import returns a report of what mapped
and what did not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.transfer.graphiti import map_edge, map_entity, map_episode
from graph.memory.transfer.mem0 import map_mem0
from graph.memory.write import RememberResult, StructuredFact, StructuredRelation
from graph.providers import Embedder

__all__ = ["import_graphiti", "import_mem0"]


def _tally(total: dict[str, Any], r: RememberResult) -> None:
    for key in ("entities_created", "facts_added", "facts_unchanged", "relations", "events"):
        total[key] = total.get(key, 0) + getattr(r, key)
    total.setdefault("refused", []).extend(
        f"{x.section}[{x.index}]: {x.reason}" for x in getattr(r, "refused", [])
    )
    total.setdefault("warnings", []).extend(r.warnings)


async def import_mem0(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    data: Any,
    *,
    batch_size: int = 500,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Import a parsed Mem0 ``get_all`` document into ``agent_id``; the mapping report plus
    what ``remember`` wrote."""
    mapped = map_mem0(data, agent_id)
    result = await remember(
        executor,
        embedder,
        agent_id,
        entities=mapped.entities,
        facts=mapped.facts,
        relations=mapped.relations,
        progress=progress,
        batch_size=batch_size,
    )
    written: dict[str, Any] = {}
    _tally(written, result)
    return {**mapped.report(), "written": written}


async def _pages(source: Executor, statement: str, groups: list[str] | None, page_size: int) -> Any:
    after = ""
    while True:
        rows = await source.run(
            statement, {"groups": groups, "after": after, "limit": page_size}, read=True
        )
        if rows:
            yield [dict(r) for r in rows]
        if len(rows) < page_size:
            return
        after = str(rows[-1]["uuid"])


async def import_graphiti(
    source: Executor,
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    *,
    groups: list[str] | None = None,
    page_size: int = 500,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Read a Graphiti graph from ``source`` (its Neo4j) and import it into ``agent_id``.

    Args:
        groups: Graphiti ``group_id`` values to import (None: the whole graph).
        progress: called with the number of Graphiti items handled after each page.
    """
    counts = (await source.run("peers/graphiti_counts", {"groups": groups}, read=True))[0]
    written: dict[str, Any] = {}
    skipped: Counter[str] = Counter()
    mapped: Counter[str] = Counter()
    events: set[str] = set()
    async for page in _pages(source, "peers/graphiti_episodes", groups, page_size):
        evs = [e for e in (map_episode(r, agent_id) for r in page) if e is not None]
        skipped["episode without content"] += len(page) - len(evs)
        events.update(e.id for e in evs if e.id)
        _tally(
            written, await remember(executor, embedder, agent_id, events=evs, batch_size=page_size)
        )
        mapped["episodes → events"] += len(evs)
        if progress:
            progress(len(page))
    async for page in _pages(source, "peers/graphiti_entities", groups, page_size):
        ents = [e for e in (map_entity(r) for r in page) if e is not None]
        skipped["entity without name"] += len(page) - len(ents)
        _tally(
            written,
            await remember(executor, embedder, agent_id, entities=ents, batch_size=page_size),
        )
        mapped["entities → entities"] += len(ents)
        if progress:
            progress(len(page))
    async for page in _pages(source, "peers/graphiti_edges", groups, page_size):
        facts: list[StructuredFact] = []
        rels: list[StructuredRelation] = []
        for row in page:
            m = map_edge(row, agent_id, events)
            if m.fact is not None:
                facts.append(m.fact)
            if m.relation is not None:
                rels.append(m.relation)
            if m.note:
                skipped[m.note] += 1
        _tally(
            written,
            await remember(
                executor, embedder, agent_id, facts=facts, relations=rels, batch_size=page_size
            ),
        )
        mapped["edges → facts"] += len(facts)
        mapped["valid edges → relationships"] += len(rels)
        if progress:
            progress(len(page))
    not_mapped = {
        "mentions (recomputed from facts)": counts["mentions"],
        "communities": counts["communities"],
        "embeddings (re-embedded)": counts["entities"] + counts["edges"],
    }
    return {
        "source": {k: counts[k] for k in ("episodes", "entities", "edges")},
        "mapped": dict(mapped),
        "notes": {k: v for k, v in skipped.items() if v},
        "not_mapped": not_mapped,
        "written": written,
    }
