"""The strawberry schema object. ``python -m gql.export`` writes ``gql/schema.graphql``."""

from __future__ import annotations

import strawberry

from gql.queries import Query

schema = strawberry.Schema(query=Query)

__all__ = ["schema"]
