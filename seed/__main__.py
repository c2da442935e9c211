"""``python -m seed`` (also run by ``hippograph seed`` and ``hippograph up``): load the demo
agent ``demo``, offline."""

from __future__ import annotations

import asyncio
import sys

from graph.schema import ensure_schema
from seed import story
from seed.loader import SeedReport, load_demo
from server.composition import build_memory
from server.settings import Settings, get_settings

__all__ = ["run", "seed"]


async def seed(
    settings: Settings, agent_id: str = story.AGENT, *, progress: bool = True
) -> SeedReport:
    """Ensure the schema and load the demo agent with this process's services (idempotent)."""
    memory = build_memory(settings)
    try:
        await ensure_schema(memory.executor, memory.embedder.dimensions)
        return await load_demo(memory, agent_id, progress=progress)
    finally:
        await memory.close()


def run(agent_id: str = story.AGENT) -> None:
    """Load the demo agent into the configured Neo4j (idempotent)."""
    settings = get_settings()

    async def main() -> None:
        report = await seed(settings, agent_id)
        if report.already_loaded:
            print(f"demo agent {agent_id!r} already loaded (nothing changed)")
        else:
            print(f"demo agent {agent_id!r} loaded: try the examples at /graphql")

    asyncio.run(main())


if __name__ == "__main__":
    run(sys.argv[1] if len(sys.argv) > 1 else story.AGENT)
