"""Types of `feedback`: a user's verdict on a retrieved fact (graph/memory/learning)."""

from __future__ import annotations

import strawberry

from gql.errors import UserError

__all__ = ["FeedbackPayload"]


@strawberry.type(description="Result of `feedback`.")
class FeedbackPayload:
    recorded: bool = strawberry.field(default=False, description="The verdict was stored.")
    labels: int = strawberry.field(
        default=0,
        description="Verdicts the caller's tenant has given so far (`hippograph rank train` "
        "fits the tenant's ranking model from them).",
    )
    rebuilt: bool = strawberry.field(
        default=False,
        description="The retrieve was run again, as memory stood at its time, to recover the "
        "fact's features (this server no longer held them).",
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why it failed (empty on success)."
    )
