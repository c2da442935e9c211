"""``python -m seed`` (and ``hippograph up``): load the demo agent ``demo``, offline."""

from __future__ import annotations

import asyncio
import sys

from graph.schema import ensure_schema
from seed import story
from seed.loader import load_demo
from server.memory import build_memory
from server.settings import get_settings

__all__ = ["run"]


def run(agent_id: str = story.AGENT) -> None:
    """Load the demo agent into the configured Neo4j (idempotent)."""
    settings = get_settings()

    async def main() -> None:
        memory = build_memory(settings)
        try:
            await ensure_schema(memory.executor, memory.embedder.dimensions)
            report = await load_demo(memory, agent_id)
        finally:
            await memory.close()
        if report.already_loaded:
            print(f"demo agent {agent_id!r} already loaded (nothing changed)")
        else:
            print(f"demo agent {agent_id!r} loaded: try the examples at /graphql")

    asyncio.run(main())


if __name__ == "__main__":
    run(sys.argv[1] if len(sys.argv) > 1 else story.AGENT)
