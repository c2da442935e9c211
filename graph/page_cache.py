"""Warm Neo4j's page cache after a restart by reading every agent's memory once.

A freshly started server holds nothing in its page cache: the first questions read the
store from disk (or from the OS cache) and Neo4j Community has no page-cache warm-up of its
own. :func:`warm_page_cache` reads every agent's facts, entities, events and observations,
with every property (vectors included) and every relationship leaving them, in batches of
agents (``cypher/admin/warm_pages.cypher``), so each statement stays short whatever the
store's size. It only reads. On a store larger than the page cache the later batches push the
earlier ones out: the warm-up then costs its time and leaves the last agents in the cache.

For a server on this machine, :func:`read_files` first reads the database's folder (store and
index files) once, so the operating system's cache holds it: Lucene reads the vector and
full-text indexes through that cache, and the page cache then fills from memory, not the disk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graph.executor import Executor

__all__ = ["BATCH_ITEMS", "Warmed", "agent_sizes", "batches", "read_files", "warm_page_cache"]

# Facts + entities + events + observations read per statement: ~1-3 s each on 2 cores (a
# store of 2M facts is read in ~40 batches), far from the transaction timeout.
BATCH_ITEMS = 50_000


@dataclass(frozen=True)
class Warmed:
    """What a warm-up read."""

    agents: int
    nodes: int
    relationships: int
    values: int
    seconds: float


def batches(agents: list[tuple[str, int]], max_items: int) -> list[list[str]]:
    """Consecutive groups of agents holding at most ``max_items`` items together; an agent
    larger than that is a group of its own (pure)."""
    out: list[list[str]] = []
    group: list[str] = []
    held = 0
    for agent, items in agents:
        if group and held + items > max_items:
            out.append(group)
            group, held = [], 0
        group.append(agent)
        held += items
    if group:
        out.append(group)
    return out


async def agent_sizes(executor: Executor) -> list[tuple[str, int]]:
    """Every agent holding facts, entities, events or observations, and how many it holds
    (read from the ``agent_id`` indexes), by id."""
    rows = await executor.run("admin/warm_agents", read=True)
    return [(str(row["agent_id"]), int(row["items"])) for row in rows]


async def warm_page_cache(
    executor: Executor,
    plan: list[tuple[str, int]],
    *,
    max_items: int = BATCH_ITEMS,
    planned: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Warmed:
    """Read the memory of every agent of ``plan`` (:func:`agent_sizes`) once (see the
    module). ``planned`` is called once with the number of items to read, ``progress`` with
    the number each batch read."""
    started = time.perf_counter()
    sizes = dict(plan)
    if planned is not None:
        planned(sum(sizes.values()))
    nodes = relationships = values = 0
    for group in batches(plan, max_items):
        row = (await executor.run("admin/warm_pages", {"agents": group}, read=True))[0]
        nodes += int(row["nodes"] or 0)
        relationships += int(row["relationships"] or 0)
        values += int(row["values"] or 0)
        if progress is not None:
            progress(sum(sizes[a] for a in group))
    return Warmed(len(plan), nodes, relationships, values, time.perf_counter() - started)


def read_files(
    folder: Path,
    *,
    planned: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = 1 << 20,
) -> int:
    """Read every file under ``folder`` once, in chunks; returns the bytes read. ``planned``
    is called once with the files' total size, ``progress`` with each chunk's. A file that
    disappears meanwhile (the server rotates logs and merges index segments) is skipped."""
    paths = sorted(p for p in folder.rglob("*") if p.is_file())
    if planned is not None:
        planned(sum(_size(p) for p in paths))
    total = 0
    for path in paths:
        try:
            with path.open("rb", buffering=0) as f:
                while block := f.read(chunk):
                    total += len(block)
                    if progress is not None:
                        progress(len(block))
        except FileNotFoundError:
            continue
    return total


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0
