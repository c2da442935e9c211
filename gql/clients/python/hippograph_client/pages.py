"""Page iterators over the connections (``entities``, ``facts``, ``events``): they follow
``pageInfo.endCursor`` until ``hasNextPage`` is false and yield each node, so a caller reads a
whole memory without handling cursors.

    async for fact in aiter_facts(client, "demo"): ...
    for entity in iter_entities(client, "demo", type="person"): ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from hippograph_client.aio.client import AsyncHippographClient
from hippograph_client.sync.client import HippographClient

__all__ = [
    "aiter_entities",
    "aiter_events",
    "aiter_facts",
    "iter_entities",
    "iter_events",
    "iter_facts",
]

PAGE_SIZE = 100


async def _apages(fetch: Callable[[str | None], Awaitable[Any]]) -> AsyncIterator[Any]:
    after: str | None = None
    while True:
        page = await fetch(after)
        for edge in page.edges:
            yield edge.node
        if not page.page_info.has_next_page or not page.page_info.end_cursor:
            return
        after = page.page_info.end_cursor


def _pages(fetch: Callable[[str | None], Any]) -> Iterator[Any]:
    after: str | None = None
    while True:
        page = fetch(after)
        yield from (edge.node for edge in page.edges)
        if not page.page_info.has_next_page or not page.page_info.end_cursor:
            return
        after = page.page_info.end_cursor


def aiter_entities(
    client: AsyncHippographClient, agent_id: str, page_size: int = PAGE_SIZE, **filters: Any
) -> AsyncIterator[Any]:
    """Every entity of ``agent_id`` (filters: ``type_``, ``text``, ``include_merged``)."""
    return _apages(lambda after: client.entities(agent_id, first=page_size, after=after, **filters))


def aiter_facts(
    client: AsyncHippographClient, agent_id: str, page_size: int = PAGE_SIZE, **filters: Any
) -> AsyncIterator[Any]:
    """Every fact (filters: ``as_of``, ``include_invalidated``, ``entity_key``, ``kind``)."""
    return _apages(lambda after: client.facts(agent_id, first=page_size, after=after, **filters))


def aiter_events(
    client: AsyncHippographClient, agent_id: str, page_size: int = PAGE_SIZE, **filters: Any
) -> AsyncIterator[Any]:
    """Every event (stored message or document chunk) of ``agent_id``."""
    return _apages(lambda after: client.events(agent_id, first=page_size, after=after, **filters))


def iter_entities(
    client: HippographClient, agent_id: str, page_size: int = PAGE_SIZE, **filters: Any
) -> Iterator[Any]:
    """Every entity of ``agent_id`` (filters: ``type_``, ``text``, ``include_merged``)."""
    return _pages(lambda after: client.entities(agent_id, first=page_size, after=after, **filters))


def iter_facts(
    client: HippographClient, agent_id: str, page_size: int = PAGE_SIZE, **filters: Any
) -> Iterator[Any]:
    """Every fact (filters: ``as_of``, ``include_invalidated``, ``entity_key``, ``kind``)."""
    return _pages(lambda after: client.facts(agent_id, first=page_size, after=after, **filters))


def iter_events(
    client: HippographClient, agent_id: str, page_size: int = PAGE_SIZE, **filters: Any
) -> Iterator[Any]:
    """Every event (stored message or document chunk) of ``agent_id``."""
    return _pages(lambda after: client.events(agent_id, first=page_size, after=after, **filters))
