"""Measurements of the scale benchmark (``tests.bench.scale``): retrieve latency for one
client, retrieve throughput for many, offline writes for 1/4/16 clients, store and index
sizes on disk and the Neo4j memory settings in use."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.executor import Executor
from graph.memory.read import RetrieveConfig, Retriever
from graph.memory.write import WritePipeline
from graph.progress import progress_bar
from graph.runtime.java import VECTOR_API_OPTION
from tests.bench.scale_corpus import ScaleEmbedder, cast_for, messages, queries
from tests.cypher import load_query

MEMORY_SETTINGS = (
    "server.memory.heap.initial_size",
    "server.memory.heap.max_size",
    "server.memory.pagecache.size",
    "dbms.memory.transaction.total.max",
    "db.memory.transaction.max",
)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


@dataclass
class Latency:
    """Milliseconds of a series of calls."""

    times: list[float]

    @property
    def p50(self) -> float:
        return statistics.median(self.times) if self.times else 0.0

    @property
    def p95(self) -> float:
        return pct(self.times, 0.95)

    def row(self) -> str:
        return f"p50 {self.p50:6.1f} ms | p95 {self.p95:6.1f} ms | n {len(self.times)}"


def retriever(ex: Executor, embedder: ScaleEmbedder) -> Retriever:
    """A long-lived retriever as the API holds one (counts cached), no reranker."""
    return Retriever(ex, embedder, None, RetrieveConfig.of(enable_reranker=False))


async def retrieve_latency(
    ex: Executor,
    embedder: ScaleEmbedder,
    agents: list[tuple[str, int]],
    per_agent: int,
    label: str,
    salt: str = "",
) -> Latency:
    """One client, one query at a time: ``per_agent`` questions to each (agent, facts); each
    agent's first two questions warm its plans and counts and are not timed."""
    r = retriever(ex, embedder)
    plan = [(a, q) for a, n in agents for q in queries(a, cast_for(a, n), per_agent + 2, salt)]
    warm = {a: 0 for a, _ in agents}
    times: list[float] = []
    for agent, q in progress_bar(plan, desc=f"retrieve {label}", unit="q"):
        t = time.perf_counter()
        await r.retrieve(agent, q)
        if warm[agent] < 2:
            warm[agent] += 1
            continue
        times.append((time.perf_counter() - t) * 1000)
    return Latency(times)


async def retrieve_throughput(
    ex: Executor,
    embedder: ScaleEmbedder,
    agents: list[tuple[str, int]],
    clients: int,
    seconds: float,
) -> tuple[float, Latency]:
    """``clients`` concurrent callers asking random agents for ``seconds``: queries/s and the
    latency under that load."""
    r = retriever(ex, embedder)
    rng = random.Random(7)
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    bar = progress_bar(total=None, desc=f"retrieve x{clients} clients", unit="q")

    async def client(i: int) -> None:
        local = random.Random(rng.random() + i)
        while time.perf_counter() < deadline:
            agent, n = local.choice(agents)
            q = queries(agent, cast_for(agent, n), 1, f"tp{local.random()}")[0]
            t = time.perf_counter()
            await r.retrieve(agent, q)
            times.append((time.perf_counter() - t) * 1000)
            bar.update(1)

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    bar.close()
    return len(times) / (time.perf_counter() - started), Latency(times)


async def offline_writes(
    ex: Executor, embedder: ScaleEmbedder, agents: list[str], clients: int, total: int
) -> tuple[float, Latency]:
    """``total`` messages through the offline write path (no LLM), split over ``clients``
    concurrent callers, each writing to its own agent: messages/s and per-message latency."""
    pipe = WritePipeline(ex, embedder, None)
    per = max(1, total // clients)
    times: list[float] = []
    bar = progress_bar(total=per * clients, desc=f"offline writes x{clients}", unit="msg")

    async def client(agent: str) -> None:
        for text in messages(agent + f"-c{clients}", per):
            t = time.perf_counter()
            res = await pipe.write(agent, text, "User")
            times.append((time.perf_counter() - t) * 1000)
            bar.update(1)
            if not res.success:
                raise RuntimeError(f"offline write failed: {res.error}")

    started = time.perf_counter()
    await asyncio.gather(*(client(a) for a in agents[:clients]))
    bar.close()
    return len(times) / (time.perf_counter() - started), Latency(times)


async def warm_offline(ex: Executor, embedder: ScaleEmbedder, agent: str) -> None:
    """Load the spaCy model before anything is timed."""
    await WritePipeline(ex, embedder, None).write(
        agent, "I like coffee in Lisbon.", "User", dry_run=True
    )


def du(path: Path) -> int:
    """Bytes of the files under ``path`` (0 when it does not exist)."""
    if not path.exists():
        return 0
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


async def store_sizes(ex: Executor, neo4j_home: Path, database: str) -> dict[str, Any]:
    """Counts (count store), bytes of the store, of the transaction logs and of each index
    directory (``schema/index/<provider>/<index id>``), and the memory settings in use."""
    counts = (await ex.run_text(load_query("scale_sizes"), {}, read=True))[0]
    db_dir = neo4j_home / "data" / "databases" / database
    index_dirs = {
        int(d.name): d
        for provider in (db_dir / "schema" / "index").glob("*")
        for d in provider.glob("*")
        if d.name.isdigit()
    }
    indexes = []
    for row in await ex.run_text(load_query("scale_indexes"), {}, read=True):
        d = index_dirs.get(int(row["id"]))
        # Lucene-backed indexes (vector, full-text) keep segments: a search visits each one
        segments = len(list(d.glob("*/*.si"))) if d else 0
        indexes.append({**row, "bytes": du(d) if d else None, "segments": segments})
    try:
        rows = await ex.run_text(
            load_query("scale_settings"), {"names": list(MEMORY_SETTINGS)}, read=True
        )
        settings = {r["name"]: r["value"] for r in rows}
    except Exception as exc:  # a server that refuses SHOW SETTINGS: say so
        settings = {"error": str(exc)[:120]}
    try:  # the JVM: Lucene's vector distances use SIMD only with the Vector API module on
        jvm = (await ex.run_text(load_query("server_jvm"), {}, read=True))[0]
        settings["java"] = jvm["version"]
        settings["vector_api"] = VECTOR_API_OPTION in jvm["arguments"]
    except Exception as exc:  # a server that refuses JMX queries: say so
        settings["java"] = f"unknown ({str(exc)[:80]})"
    return {
        "counts": counts,
        "store_bytes": du(db_dir),
        "tx_log_bytes": du(neo4j_home / "data" / "transactions" / database),
        "indexes": indexes,
        "settings": settings,
    }


def mib(n: int | None) -> str:
    return "-" if n is None else f"{n / 2**20:,.2f} MiB"
