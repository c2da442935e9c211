"""Shared GraphQL types: Relay page info."""

from __future__ import annotations

from typing import Any

import strawberry

from graph.memory.browse.rows import Page

__all__ = ["PageInfo", "page_info"]


@strawberry.type(description="Relay pagination state of a connection.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="True when more items follow `endCursor`.")
    end_cursor: str | None = strawberry.field(
        description="Opaque cursor of the last item; pass it as `after` for the next page."
    )


def page_info(page: Page[Any]) -> PageInfo:
    """Relay page info of one page of browse rows."""
    return PageInfo(
        has_next_page=page.has_next, end_cursor=page.cursors[-1] if page.cursors else None
    )
