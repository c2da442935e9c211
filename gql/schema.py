"""The strawberry schema. ``build_schema(limits)`` adds the hardening extensions; the module
level ``schema`` (default limits) is what ``python -m gql.export`` prints."""

from __future__ import annotations

from typing import Any

import strawberry

from gql.limits import QueryLimits, limit_extensions
from gql.mutations import Mutation
from gql.queries import Query
from gql.subscriptions import Subscription, WebSocketOnly

__all__ = ["QueryLimits", "build_schema", "schema"]


class HippographSchema(strawberry.Schema):
    """Strawberry's schema, minus its error log: refused documents and user errors are the
    client's business, and internal errors are logged (with traceback) by ``UserSafeErrors``."""

    def process_errors(self, errors: Any, execution_context: Any = None) -> None:
        return None


def build_schema(limits: QueryLimits | None = None) -> strawberry.Schema:
    """The API schema with depth/cost/alias/size limits, introspection toggle and masking."""
    return HippographSchema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        extensions=[*limit_extensions(limits or QueryLimits()), WebSocketOnly],
    )


schema = build_schema()
