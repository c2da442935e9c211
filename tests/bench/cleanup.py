"""Delete what benchmarks (and interrupted test runs) left in a database.

    .venv/bin/python -m tests.bench.cleanup                       # list bench-*, scale-*, test-*
    .venv/bin/python -m tests.bench.cleanup --yes                 # and delete them
    .venv/bin/python -m tests.bench.cleanup --prefix scale- --yes # only those of the scale bench

Benchmarks delete their agents when they end, unless asked to keep them (``--keep``) for a
later run; a run that was killed cannot. This lists the agents whose id starts with one of the
prefixes, on the configured server (``make run``'s unless ``scripts/test-env.sh`` or
NEO4J_URI says otherwise), with how much each holds, and deletes them with ``--yes``.
"""

from __future__ import annotations

import argparse
import asyncio

from graph.agent_deletion import delete_agent
from graph.page_cache import agent_sizes
from graph.progress import progress_bar
from server.composition import connect_executor
from server.settings import Settings

PREFIXES = ("bench-", "scale-", "test-")


async def main(prefixes: list[str], yes: bool) -> None:
    settings = Settings()
    ex = connect_executor(settings)
    try:
        found = [(a, n) for a, n in await agent_sizes(ex) if a.startswith(tuple(prefixes))]
        for agent, items in found:
            print(f"{agent:<48} {items:>10,} facts, entities, events and observations")
        print(f"{len(found)} agent(s) on {settings.bolt_uri} start with {', '.join(prefixes)}")
        if found and not yes:
            print("--yes deletes them")
        if found and yes:
            for agent, _ in progress_bar(found, desc="delete agents", unit="agent"):
                await delete_agent(ex, agent)
            print(f"deleted {len(found)} agent(s)")
    finally:
        await ex.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--prefix", action="append", default=None, help=f"agent id prefix (default: {PREFIXES})"
    )
    ap.add_argument("--yes", action="store_true", help="delete them (default: list only)")
    args = ap.parse_args()
    asyncio.run(main(args.prefix or list(PREFIXES), args.yes))
