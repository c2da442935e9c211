"""The first questions after a restart, with and without ``hippograph neo4j warm``.

    .venv/bin/python -m tests.bench.first_pass                         # restart, no warm-up
    .venv/bin/python -m tests.bench.first_pass --warm                  # restart, then warm
    .venv/bin/python -m tests.bench.first_pass --warm --drop-os-cache  # as after a machine restart

Runs on the database the scale bench left (``tests.bench.scale --keep``, its default agents),
against the local server of the settings (``HIPPOGRAPH_HOME``, ``HIPPOGRAPH_NEO4J_LINE``,
ports, heap and page cache as the scale run had them). Stops and starts that server (with
``--drop-os-cache``, root only, the operating system's cache is dropped in between), runs
``hippograph neo4j warm`` with ``--warm``, then asks each of the ``--big-agents`` 100k-fact
agents ``--per-agent`` questions and then as many of a sample of the 1,000-fact agents, and
prints p50 / p95 of each group: the first pass of a freshly started server. The scale
corpus's questions (``scale_corpus.queries``, their own salt), not the warm-up's, are asked;
two per agent are not counted (the agent's first plan). One run per setting is one sample:
compare runs of the same hour.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from graph.memory.read import RetrieveConfig, Retriever
from server.composition import connect_executor
from server.settings import Settings
from tests.bench.bench_retrieve import pct
from tests.bench.scale_corpus import ScaleEmbedder, cast_for, queries

HIPPOGRAPH = str(Path(sys.executable).with_name("hippograph"))


def restart(warm: bool, drop_os_cache: bool) -> None:
    subprocess.run([HIPPOGRAPH, "neo4j", "stop"], check=True)
    if drop_os_cache:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        print("operating system cache dropped")
    subprocess.run([HIPPOGRAPH, "neo4j", "start", *(["--warm"] if warm else [])], check=True)


async def first_pass(agents: list[tuple[str, int]], per_agent: int, salt: str) -> list[float]:
    ex = connect_executor(Settings())
    retriever = Retriever(ex, ScaleEmbedder(), None, RetrieveConfig.of(enable_reranker=False))
    times: list[float] = []
    try:
        for agent, n in agents:
            for i, q in enumerate(queries(agent, cast_for(agent, n), per_agent + 2, salt)):
                t = time.perf_counter()
                await retriever.retrieve(agent, q)
                if i >= 2:
                    times.append((time.perf_counter() - t) * 1000)
    finally:
        await ex.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warm", action="store_true", help="run `hippograph neo4j warm` at start")
    ap.add_argument("--drop-os-cache", action="store_true", help="drop the OS cache (root)")
    ap.add_argument("--big-agents", type=int, default=10)
    ap.add_argument("--big-facts", type=int, default=100_000)
    ap.add_argument("--small-agents", type=int, default=100)
    ap.add_argument("--facts", type=int, default=1_000)
    ap.add_argument("--per-agent", type=int, default=30, help="questions per big agent")
    ap.add_argument("--salt", default="first-pass")
    args = ap.parse_args()
    restart(args.warm, args.drop_os_cache)
    big = [(f"scale-b-{i:02d}", args.big_facts) for i in range(args.big_agents)]
    small = [(f"scale-s-{i:04d}", args.facts) for i in range(args.small_agents)]
    per_small = max(1, args.per_agent * len(big) // max(1, len(small)))
    for label, agents, per in (("big", big, args.per_agent), ("small", small, per_small)):
        times = asyncio.run(first_pass(agents, per, args.salt))
        print(
            f"first pass, {label} agents: p50 {statistics.median(times):.1f} ms, "
            f"p95 {pct(times, 0.95):.1f} ms, n {len(times)}"
        )


if __name__ == "__main__":
    main()
