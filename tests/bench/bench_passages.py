"""Sequential offline writes of the HotpotQA passages: ``.venv/bin/python -m
tests.bench.bench_passages [--limit N] [--corpus FILE]``.

Every passage of ``multihop/hotpotqa-corpus.json`` (994) goes through ``write`` one after
another (offline extractor, MiniLM), spoken by the narrator as in ``multihop --mode offline``,
into a fresh agent; prints passages per second, the total time and the per-stage medians of the
write trace (the first and the last fifth, to show growth). The agent is deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
import uuid
from collections import defaultdict
from pathlib import Path

from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.memory.write import WritePipeline
from graph.progress import progress_bar
from graph.providers import MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.settings import Settings
from tests.bench.corpus_texts import BENCH, NARRATOR


def _medians(traces: list[list[dict[str, float]]]) -> dict[str, float]:
    by: dict[str, list[float]] = defaultdict(list)
    for trace in traces:
        for step in trace:
            by[str(step["stage"])].append(float(step["ms"]))
    return {k: round(statistics.median(v), 1) for k, v in by.items()}


async def main(corpus: Path, limit: int | None) -> None:
    raw = json.loads(corpus.read_text())
    texts = ["".join(s) for s in raw.values()][:limit]
    s = Settings()
    ex = connect(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database)
    embedder = MiniLMEmbedder(find_tokenizer(s.home))
    await ensure_schema(ex, embedder.dimensions)
    agent = f"bench-passages-{uuid.uuid4().hex[:6]}"
    pipe = WritePipeline(ex, embedder, None)
    await pipe.write(f"{agent}-warm", "Warm-up: Ana lives in Lisbon.", NARRATOR)  # model loads
    print(f"load average {os.getloadavg()[0]:.1f}; {len(texts)} passages, agent {agent}")
    traces: list[list[dict[str, float]]] = []
    failed = 0
    start = time.perf_counter()
    try:
        for text in progress_bar(texts, desc="write (offline)", unit="passage"):
            res = await pipe.write(agent, text, NARRATOR, verbose=True)
            failed += not res.success
            traces.append(res.trace or [])  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
    finally:
        await delete_agent(ex, agent)
        await delete_agent(ex, f"{agent}-warm")
        await ex.close()
    fifth = max(1, len(traces) // 5)
    print(
        f"{len(texts)} passages in {seconds:.1f} s: {len(texts) / seconds:.2f} passages/s, "
        f"{failed} failed; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"stage medians, ms, first fifth: {_medians(traces[:fifth])}")
    print(f"stage medians, ms, last fifth:  {_medians(traces[-fifth:])}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=BENCH / "multihop/hotpotqa-corpus.json")
    ap.add_argument("--limit", type=int, default=None, help="the first N passages only")
    args = ap.parse_args()
    asyncio.run(main(args.corpus, args.limit))
