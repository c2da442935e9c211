"""Service health as seen by the API process."""

from __future__ import annotations

import strawberry

__all__ = ["Health"]


@strawberry.type(description="Service health as seen by the API process.")
class Health:
    ready: bool = strawberry.field(
        description="True when Neo4j is reachable and every index is ONLINE."
    )
    neo4j_version: str | None = strawberry.field(
        description="Version of the Neo4j server, when reachable."
    )
    llm_mode: str = strawberry.field(
        description="`offline` (rule-based extraction) or `openai-compatible`."
    )
    embedder: str = strawberry.field(description="Name of the embedding model in use.")
