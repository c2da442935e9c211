"""Shared GraphQL types: Relay page info."""

from __future__ import annotations

import strawberry

__all__ = ["PageInfo"]


@strawberry.type(description="Relay pagination state of a connection.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="True when more items follow `endCursor`.")
    end_cursor: str | None = strawberry.field(
        description="Opaque cursor of the last item; pass it as `after` for the next page."
    )
