"""First-request latency with and without the start-up warm-up (``graph.memory.read.warmup``).

    python -m tests.bench.bench_warmup [--rounds 3]

Each round empties Neo4j's plan caches and starts a new ``Retriever`` (as a process starts),
then times the first and second retrieve of a small agent; the warm-up rounds run ``warm_up``
between emptying the caches and the first retrieve (as the API does when it starts). Prints the medians and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
import uuid

from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.memory.read import Retriever
from graph.memory.read.warmup import warm_up
from graph.memory.remember import remember
from graph.memory.write import StructuredFact
from graph.providers import MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.settings import Settings
from tests.cypher import load_query

QUESTION = "Where does Ana work now?"


async def main(rounds: int) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    embedder = MiniLMEmbedder(find_tokenizer(settings.home))
    await ensure_schema(ex, embedder.dimensions)
    agent = f"bench-warmup-{uuid.uuid4().hex[:6]}"
    facts = [
        StructuredFact(f"Ana worked on project {i} at Acme in Curitiba.", subject="Ana")
        for i in range(50)
    ]
    await remember(ex, embedder, agent, facts=facts)
    await Retriever(ex, embedder).retrieve(agent, QUESTION)  # the model is loaded in both arms
    ms: dict[str, list[float]] = {
        k: [] for k in ("cold first", "cold second", "warm-up", "warmed first")
    }
    try:
        for _ in range(rounds):
            for warmed in (False, True):
                await ex.run_text(load_query("clear_query_caches"))
                retriever = Retriever(ex, embedder)  # as a process starts: nothing cached
                if warmed:
                    ms["warm-up"].append(await warm_up(retriever) * 1000)
                for label in ("warmed first",) if warmed else ("cold first", "cold second"):
                    t = time.perf_counter()
                    await retriever.retrieve(agent, QUESTION)
                    ms[label].append((time.perf_counter() - t) * 1000)
        print(f"{rounds} rounds, load average {os.getloadavg()[0]:.1f}")
        for label, values in ms.items():
            print(
                f"{label:<14} median {statistics.median(values):7.0f} ms  "
                f"(min {min(values):.0f}, max {max(values):.0f})"
            )
    finally:
        await delete_agent(ex, agent)
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args().rounds))
