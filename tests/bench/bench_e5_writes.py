"""Write CPU with the e5 embedder: English Pirá abstracts through ``write`` (offline), with the
embedder as shipped (each distinct text of a call once, short texts cached) and with every
text sent to the engine and nothing cached, each into an agent of its own; then whether both
stored the same graph (every fact's and entity's text and vector).

    .venv/bin/python -m tests.bench.bench_e5_writes [--abstracts 20] [--memory en]

Prints per arm: this process's CPU seconds per abstract (extraction, embedding and the
pipeline; Neo4j's not counted), the engine's own thread CPU, the texts embedded and computed
per abstract. The agents are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from collections.abc import Sequence
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.write import WritePipeline
from graph.providers.embedders import E5Embedder
from graph.schema import ensure_schema
from server.settings import Settings
from tests.bench.bilingual import DEFAULT_DATA

NARRATOR = "Narrator"


class PlainE5(E5Embedder):
    """Every text to the engine, in calls of ``batch_size`` texts, nothing cached."""

    def _encode(self, texts: Sequence[str], is_query: bool) -> list[list[float]]:
        return self._compute(list(texts), is_query)  # the engine's calls, no dedup, no cache


def timed_engine(e5: E5Embedder, counts: dict[str, float]) -> None:
    """Count the engine's thread CPU and the texts it is given."""
    engine = e5._model
    encode = engine.encode

    def wrapped(texts: list[str], is_query: bool) -> Any:
        started = time.thread_time()
        try:
            return encode(texts, is_query)
        finally:
            counts["engine_s"] += time.thread_time() - started
            counts["engine_calls"] += 1

    engine.encode = wrapped


async def one_arm(
    ex: Executor, e5: E5Embedder, agent: str, abstracts: list[str]
) -> dict[str, float]:
    pipe = WritePipeline(ex, e5, None)
    await pipe.write(agent, "A first message loads the extractor.", NARRATOR)
    counts = {"engine_s": 0.0, "engine_calls": 0.0}
    timed_engine(e5, counts)
    e5.computed = 0
    cpu = time.process_time()
    for text in abstracts:
        await pipe.write(agent, text, NARRATOR)
    n = len(abstracts)
    return {
        "cpu_s": (time.process_time() - cpu) / n,
        "engine_s": counts["engine_s"] / n,
        "engine_calls": counts["engine_calls"] / n,
        "computed": e5.computed / n,
    }


STORED = {
    "facts": "MATCH (f:Fact {agent_id: $a}) RETURN f.text AS t, f.embedding AS v ORDER BY t",
    "entities": "MATCH (e:Entity {agent_id: $a}) RETURN e.key AS t, e.embedding AS v ORDER BY t",
}


async def same_graph(ex: Executor, a: str, b: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, query in STORED.items():
        left = await ex.run_text(query, {"a": a}, read=True)
        right = await ex.run_text(query, {"a": b}, read=True)
        out[kind] = (len(left), len(right), left == right)
    return out


async def main(args: argparse.Namespace) -> None:
    settings = Settings()
    corpus = json.loads((DEFAULT_DATA / f"pira-corpus-{args.memory}.json").read_text())
    abstracts = [p["text"] for p in corpus[: args.abstracts]]
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    agents: dict[str, str] = {}
    try:
        for arm, e5 in (("plain", PlainE5()), ("shipped", E5Embedder())):
            await ensure_schema(ex, e5.dimensions)
            agents[arm] = f"bench-e5w-{arm}-{uuid.uuid4().hex[:6]}"
            res = await one_arm(ex, e5, agents[arm], abstracts)
            print(
                f"{arm:<8} CPU {res['cpu_s']:.3f} s per abstract (engine {res['engine_s']:.3f} s, "
                f"{res['engine_calls']:.1f} calls), texts computed {res['computed']:.1f}",
                flush=True,
            )
        same = await same_graph(ex, agents["plain"], agents["shipped"])
        for kind, (left, right, equal) in same.items():
            print(f"{kind}: {left} / {right}, identical texts and vectors: {equal}")
    finally:
        for agent in agents.values():
            await delete_agent(ex, agent)
        await ex.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--abstracts", type=int, default=20)
    ap.add_argument("--memory", default="en", choices=("en", "pt", "mixed"))
    asyncio.run(main(ap.parse_args()))
