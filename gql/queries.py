"""Root query type."""

from __future__ import annotations

import strawberry
from strawberry.types import Info

from server.health import readiness


@strawberry.type(description="Service health as seen by the API process.")
class Health:
    ready: bool = strawberry.field(description="True when Neo4j is reachable and every index is ONLINE.")
    neo4j_version: str | None = strawberry.field(description="Version of the Neo4j server, when reachable.")
    llm_mode: str = strawberry.field(description="`offline` (rule-based extraction) or `openai-compatible`.")
    embedder: str = strawberry.field(description="Name of the embedding model in use.")


@strawberry.type(description="Read operations of the Hippograph memory service.")
class Query:
    @strawberry.field(description="Health of the service and its Neo4j connection.")
    async def health(self, info: Info) -> Health:
        report = await readiness(info.context["services"])
        return Health(
            ready=report["ready"],
            neo4j_version=(report.get("neo4j") or {}).get("version"),
            llm_mode=report["llm_mode"],
            embedder=report["embedder"]["name"],
        )
