"""Scale benchmark: many agents and a million facts in one Neo4j.

    .venv/bin/python -m tests.bench.scale                  # 1,000 x 1,000 + 10 x 100,000 (~2M)
    .venv/bin/python -m tests.bench.scale --agents 100 --big-agents 2 --big-facts 20000

Imports ``--agents`` agents of ``--facts`` facts and ``--big-agents`` agents of
``--big-facts`` facts through structured ``remember`` (caller-supplied clustered vectors, UNWIND
batches of ``--batch-size``; entities and relations declared: about one person per 25 facts,
each working somewhere, living somewhere and knowing one or two others), then reports:

- import rate (facts, entities, relations per second) for the small and the big agents;
- store and index sizes on disk (``<home>/neo4j/data``), counts, the heap and page cache the
  server runs with;
- single-client retrieve p50/p95 for small agents (a sample) and the big ones;
- a small "probe" agent's p95 on the database as it was before the import (empty
  neighbours when the database starts empty) and after it: the neighbours' cost (target 1.5x);
- retrieve throughput with ``--clients`` concurrent clients (16);
- offline writes (spaCy, no LLM) with 1, 4 and 16 concurrent clients: messages/s and p95.

Agents have fixed ids (``scale-s-0001`` ...) and facts fixed ids. They are deleted at the end
unless ``--keep`` is given: a later run (and ``tests.bench.first_pass``) then finds them
imported and skips the import; ``python -m tests.bench.cleanup --prefix scale-`` deletes them. The import stops
scheduling new work after ``--max-import-minutes`` and the run goes on with what is stored.
Run it on a server with memory to match (``HIPPOGRAPH_NEO4J_HEAP`` / ``_PAGECACHE``, see
docs/scaling.md). Figures depend on the machine's load: compare ratios from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.remember import remember
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.composition import connect_executor
from server.settings import Settings
from tests.bench.scale_corpus import (
    DIM,
    ScaleEmbedder,
    cast_for,
    entities_and_relations,
    fact_chunks,
)
from tests.bench.scale_measure import (
    Latency,
    mib,
    offline_writes,
    retrieve_latency,
    retrieve_throughput,
    store_sizes,
    warm_offline,
)
from tests.cypher import load_query

PROBE = "scale-probe"


@dataclass
class Imported:
    """What one import phase stored and how long it took."""

    agents: int = 0
    skipped: int = 0
    facts: int = 0
    entities: int = 0
    relations: int = 0
    seconds: float = 0.0
    stopped: bool = False

    def rates(self) -> str:
        s = max(self.seconds, 1e-9)
        return (
            f"{self.facts / s:,.0f} facts/s, {self.entities / s:,.0f} entities/s, "
            f"{self.relations / s:,.0f} relations/s ({self.facts:,} facts in {self.seconds:,.0f} s"
            f", {self.agents} agents imported, {self.skipped} already there"
            f"{', stopped by the time budget' if self.stopped else ''})"
        )


@dataclass
class Run:
    args: argparse.Namespace
    ex: Executor
    embedder: ScaleEmbedder = field(default_factory=ScaleEmbedder)
    deadline: float = 0.0
    figures: dict[str, Any] = field(default_factory=dict)


async def agent_facts(ex: Executor, agent: str) -> int:
    return int(
        (await ex.run_text(load_query("count_agent_facts"), {"agent_id": agent}))[0]["facts"]
    )


async def import_agent(run: Run, agent: str, n: int, out: Imported, bar: Any) -> None:
    """One agent through ``remember``: entities and relations with the first chunk of facts,
    then the rest ``--chunk`` facts per call (each call ``--batch-size`` rows per
    transaction). An agent already holding its facts is skipped."""
    if await agent_facts(run.ex, agent) >= n:
        out.skipped += 1
        bar.update(n)
        return
    cast = cast_for(agent, n)
    entities, relations = entities_and_relations(agent, cast)
    for i, facts in enumerate(fact_chunks(agent, cast, n, run.args.chunk)):
        if time.perf_counter() > run.deadline:
            out.stopped = True
            return
        res = await remember(
            run.ex,
            run.embedder,
            agent,
            entities if i == 0 else (),
            facts,
            relations if i == 0 else (),
            batch_size=run.args.batch_size,
        )
        if not res.complete:
            raise RuntimeError(f"import of {agent} incomplete: {res.error}")
        out.facts += res.facts_added
        out.entities += res.entities_total if i == 0 else 0
        out.relations += res.relations
        bar.update(len(facts))
    out.agents += 1


async def import_phase(run: Run, agents: list[tuple[str, int]], label: str) -> Imported:
    """Agents imported by ``--import-clients`` concurrent callers (the seconds are wall time)."""
    out = Imported()
    queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
    for a in agents:
        queue.put_nowait(a)
    bar = progress_bar(total=sum(n for _, n in agents), desc=f"import {label}", unit="fact")

    async def worker() -> None:
        while not queue.empty() and time.perf_counter() < run.deadline:
            agent, n = queue.get_nowait()
            await import_agent(run, agent, n, out, bar)
        if not queue.empty():
            out.stopped = True

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(run.args.import_clients)))
    bar.close()
    out.seconds = time.perf_counter() - started
    return out


async def main(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings()
    ex = connect_executor(settings)
    run = Run(args, ex)
    await ensure_schema(ex, DIM)
    small = [(f"scale-s-{i:04d}", args.facts) for i in range(args.agents)]
    big = [(f"scale-b-{i:02d}", args.big_facts) for i in range(args.big_agents)]
    probe = [(PROBE, args.facts)]
    f = run.figures
    f["server"] = {"heap": settings.neo4j_heap, "pagecache": settings.neo4j_pagecache}
    try:
        before = await store_sizes(ex, settings.neo4j_home / "neo4j", settings.neo4j_database)
        f["before_facts"] = before["counts"]["facts"]
        run.deadline = time.perf_counter() + 600
        await import_phase(run, probe, "probe agent")
        # A server just started answers its first queries slowly (plans compiled, the JIT and
        # caches cold): warm it up, untimed, so "before" is not a cold-start figure.
        await retrieve_latency(ex, run.embedder, probe, args.probe_queries, "warm-up", "warm")
        f["probe_before"] = await retrieve_latency(
            ex, run.embedder, probe, args.probe_queries, "probe (before)", "probe"
        )
        run.deadline = time.perf_counter() + args.max_import_minutes * 60
        f["import_small"] = await import_phase(run, small, f"{len(small)} x {args.facts:,}")
        f["import_big"] = await import_phase(run, big, f"{len(big)} x {args.big_facts:,}")
        f["sizes"] = await store_sizes(ex, settings.neo4j_home / "neo4j", settings.neo4j_database)
        step = max(1, len(small) // args.sample_agents)
        sample = small[::step][: args.sample_agents]
        f["probe_after"] = await retrieve_latency(
            ex, run.embedder, probe, args.probe_queries, "probe (after)", "probe"
        )
        f["small"] = await retrieve_latency(ex, run.embedder, sample, args.queries, "small")
        if big:
            f["big"] = await retrieve_latency(ex, run.embedder, big, args.big_queries, "big")
        f["throughput"] = await retrieve_throughput(
            ex, run.embedder, sample + big, args.clients, args.throughput_seconds
        )
        writers = [a for a, _ in small[1::step]] or [PROBE]
        await warm_offline(ex, run.embedder, writers[0])
        f["writes"] = {
            c: await offline_writes(ex, run.embedder, writers, c, args.write_messages)
            for c in (1, 4, 16)
            if c <= len(writers)
        }
    finally:
        if args.keep:
            print(
                "agents kept (--keep); `python -m tests.bench.cleanup --prefix scale-` deletes them"
            )
        else:
            for agent, _ in progress_bar([*probe, *small, *big], desc="delete agents"):
                await delete_agent(ex, agent)
        await ex.close()
    report(run)
    return f


def report(run: Run) -> None:
    f, a = run.figures, run.args
    sizes = f.get("sizes", {})
    counts = sizes.get("counts", {})
    print(f"\nscale: {a.agents} x {a.facts:,} facts + {a.big_agents} x {a.big_facts:,} facts")
    print(f"  database before import: {f.get('before_facts', 0):,} facts")
    for key in ("import_small", "import_big"):
        if key in f:
            print(f"  import {key[7:]:5}  {f[key].rates()}")
    if counts:
        print(
            "  stored: "
            + ", ".join(f"{k} {int(v):,}" for k, v in counts.items())
            + f"\n  store on disk {mib(sizes['store_bytes'])} (transaction logs "
            f"{mib(sizes['tx_log_bytes'])}), "
            f"{sizes['store_bytes'] / max(1, int(counts['facts'])):,.0f} bytes per fact"
        )
        for ix in sizes["indexes"]:
            if ix["bytes"]:
                segments = f", {ix['segments']} Lucene segments" if ix.get("segments") else ""
                print(f"    index {ix['name']:32} {ix['type']:9} {mib(ix['bytes'])}{segments}")
        print(f"  server settings: {sizes['settings']}")
    lat: dict[str, Latency] = {
        k: f[k] for k in ("probe_before", "probe_after", "small", "big") if k in f
    }
    for k, v in lat.items():
        print(f"  retrieve {k:13} {v.row()}")
    if "probe_before" in lat and "probe_after" in lat:
        ratio = lat["probe_after"].p95 / max(1e-9, lat["probe_before"].p95)
        print(f"  probe p95 after / before: {ratio:.2f}x (target <= 1.5x)")
    for k in ("small", "big"):
        if k in lat:
            ok = "meets" if lat[k].p95 <= 60 else "misses"
            print(f"  {k} agents p95 {lat[k].p95:.1f} ms {ok} the 60 ms target")
    if "throughput" in f:
        qps, under = f["throughput"]
        print(f"  retrieve throughput x{a.clients}: {qps:.1f} q/s, {under.row()}")
    for c, (mps, w) in f.get("writes", {}).items():
        print(f"  offline writes x{c:<2}  {mps:5.1f} messages/s, {w.row()}")


def as_json(figures: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in figures.items():
        if isinstance(v, Latency):
            out[k] = {"p50": v.p50, "p95": v.p95, "n": len(v.times)}
        elif isinstance(v, Imported):
            out[k] = v.__dict__
        elif k == "throughput":
            out[k] = {"qps": v[0], "p50": v[1].p50, "p95": v[1].p95}
        elif k == "writes":
            out[k] = {str(c): {"mps": m, "p50": w.p50, "p95": w.p95} for c, (m, w) in v.items()}
        else:
            out[k] = v
    return out


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", type=int, default=1_000, help="small agents")
    ap.add_argument("--facts", type=int, default=1_000, help="facts per small agent")
    ap.add_argument("--big-agents", type=int, default=10)
    ap.add_argument("--big-facts", type=int, default=100_000, help="facts per big agent")
    ap.add_argument("--batch-size", type=int, default=1_000, help="rows per transaction")
    ap.add_argument("--chunk", type=int, default=10_000, help="facts per remember call")
    ap.add_argument("--import-clients", type=int, default=2, help="agents imported at once")
    ap.add_argument("--max-import-minutes", type=float, default=60.0)
    ap.add_argument("--sample-agents", type=int, default=20, help="small agents queried")
    ap.add_argument("--queries", type=int, default=10, help="queries per sampled small agent")
    ap.add_argument("--big-queries", type=int, default=40, help="queries per big agent")
    ap.add_argument("--probe-queries", type=int, default=60)
    ap.add_argument("--clients", type=int, default=16, help="concurrent retrieve clients")
    ap.add_argument("--throughput-seconds", type=float, default=30.0)
    ap.add_argument("--write-messages", type=int, default=48, help="messages per write level")
    ap.add_argument(
        "--keep", action="store_true", help="keep the bench agents (a later run reuses them)"
    )
    # Deleting at the end is the default now; the flag is still accepted.
    ap.add_argument("--drop", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    return ap.parse_args(argv)


def cli() -> None:
    args = parse()
    figures = asyncio.run(main(args))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(as_json(figures), fh, indent=2, default=str)


if __name__ == "__main__":
    cli()
