"""Agent-scoped vector search with many agents sharing one index: exact scan of the agent's
facts vs over-fetch of the global index vs in-index filtered search (Neo4j 2026.01+).

    .venv/bin/python -m tests.bench.bench_agent_vectors                       # 1,000 x 60 + 20 x 2,000 facts
    .venv/bin/python -m tests.bench.bench_agent_vectors --small 1000x100 --large 0x0 --queries 30

Facts are imported with caller vectors (clustered, 384 dimensions, like a sentence model's),
all visible. For a sample of small and large agents each strategy is forced through
``search.semantic_facts`` (the retrieve path's semantic signal): p50/p95 in ms, db hits of the
statement's last round (PROFILE), and recall@10 against the exact scan. A strategy the server
lacks (filtered search on 5.26) is skipped. The facts are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import uuid
from typing import Any

import numpy as np

from graph.executor import Neo4jExecutor, connect
from graph.memory.read.search import Scope, SearchStats, semantic_facts
from graph.progress import progress_bar
from graph.schema import ensure_schema
from graph.vector_search import detect
from server.settings import Settings
from tests.cypher import load_query

DIM, TOPICS, LIMIT = 384, 50, 10
STRATEGIES = {  # name: (exact_max, cap, filtered)
    "exact scan": (10**9, 20_000, False),
    "over-fetch": (0, 200_000, False),
    "filtered search": (0, 20_000, True),
}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def sizes(text: str) -> tuple[int, int]:
    agents, facts = text.lower().split("x")
    return int(agents), int(facts)


class Vectors:
    def __init__(self, seed: int = 7) -> None:
        self.rng = np.random.default_rng(seed)
        topics = self.rng.normal(size=(TOPICS, DIM))
        self.topics = topics / np.linalg.norm(topics, axis=1, keepdims=True)

    def draw(self, n: int) -> np.ndarray:
        picks = self.topics[self.rng.integers(0, TOPICS, size=n)]
        v = picks + 1.8 * self.rng.normal(size=(n, DIM)) / np.sqrt(DIM)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


async def load(ex: Neo4jExecutor, prefix: str, groups: list[tuple[str, int, int]]) -> None:
    vec = Vectors()
    total = sum(a * f for _, a, f in groups)
    bar = progress_bar(total=total, desc="import", unit="fact")
    rows: list[dict[str, Any]] = []
    for tag, agents, facts in groups:
        for a in range(agents):
            agent = f"{prefix}{tag}{a}"
            for i, v in enumerate(vec.draw(facts)):
                rows.append(
                    {
                        "id": f"{agent}-{i}",
                        "agent_id": agent,
                        "text": f"fact {i}",
                        "embedding": v.tolist(),
                    }
                )
                if len(rows) >= 2_000:
                    await ex.run_text(load_query("vector_facts"), {"rows": rows})
                    bar.update(len(rows))
                    rows = []
    if rows:
        await ex.run_text(load_query("vector_facts"), {"rows": rows})
        bar.update(len(rows))
    bar.close()


async def profile_hits(ex: Neo4jExecutor, name: str, params: dict[str, Any]) -> int:
    import cypher

    text = cypher.load(name)
    body = text.split("CYPHER 25", 1)
    query = f"CYPHER 25 PROFILE {body[1]}" if len(body) == 2 else f"PROFILE {text}"
    async with ex.driver.session(database=ex.database) as session:
        result = await session.run(query, params)  # type: ignore[arg-type]
        summary = await result.consume()

    def hits(plan: Any) -> int:
        return int(plan.get("dbHits", 0)) + sum(hits(c) for c in plan.get("children", []))

    return hits(summary.profile)


async def measure(
    ex: Neo4jExecutor, agent: str, count: int, total: int, queries: int, filtered_ok: bool
) -> dict[str, dict[str, float]]:
    vec = Vectors(seed=hash(agent) & 0xFFFF)
    out: dict[str, dict[str, float]] = {}
    qs = [v.tolist() for v in vec.draw(queries)]
    truth: list[set[str]] = []
    for name, (exact_max, cap, filtered) in STRATEGIES.items():
        if filtered and not filtered_ok:
            continue
        times, recall, stats = [], [], SearchStats()
        for i, q in enumerate(qs):
            scope = Scope(agent_id=agent, as_of=None, vector=q, min_confidence=0.0)
            stats = SearchStats()
            t = time.perf_counter()
            got = await semantic_facts(
                ex, scope, limit=LIMIT, min_cosine=-1.0, agent_facts=count, total_facts=total,
                exact_max=exact_max, cap=cap, stats=stats, filtered=filtered,
            )  # fmt: skip
            times.append((time.perf_counter() - t) * 1000)
            ids = {f.id for f in got}
            if name == "exact scan":
                truth.append(ids)
            recall.append(len(ids & truth[i]) / max(1, len(truth[i])))
        k = stats.rounds[-1] if stats.rounds else 0
        statement = {
            "exact": "read/semantic_facts_exact",
            "index": "read/semantic_facts_index",
            "search": "read/semantic_facts_search",
        }[stats.strategy.split("+")[-1]]
        params = scope.params(k=k, min_score=0.0, limit=LIMIT)
        out[name] = {
            "p50": statistics.median(times),
            "p95": pct(times, 0.95),
            "hits": await profile_hits(ex, statement, params),
            "recall": statistics.mean(recall),
            "k": k,
        }
        out[name]["strategy"] = stats.strategy  # type: ignore[assignment]
    return out


async def cleanup(ex: Neo4jExecutor, prefix: str) -> None:
    query = load_query("vector_facts_cleanup")
    while (await ex.run_text(query, {"prefix": prefix, "batch": 10_000}))[0]["deleted"]:
        pass


async def main(small: str, large: str, queries: int, sample: int, keep: bool) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    try:
        await ensure_schema(ex, DIM, timeout_s=600)
        form = await detect(ex)
        version = (await ex.run("schema/components", read=True))[0]["version"]
        await cleanup(ex, "bav-")  # leftovers of an interrupted run
        prefix = f"bav-{uuid.uuid4().hex[:6]}-"
        groups = [("s", *sizes(small)), ("l", *sizes(large))]
        groups = [g for g in groups if g[1] and g[2]]
        total = sum(a * f for _, a, f in groups)
        t = time.perf_counter()
        await load(ex, prefix, groups)
        await ensure_schema(ex, DIM, timeout_s=1800)  # waits until the vector index is ONLINE
        print(f"Neo4j {version}: {total} facts, {sum(a for _, a, _ in groups)} agents, "
              f"import + index {time.perf_counter() - t:.0f} s; filtered search: {form.filtered}")  # fmt: skip
        rng = random.Random(3)
        print(f"\n{'agents x facts':<16} {'strategy':<16} {'p50 ms':>7} {'p95 ms':>7} "
              f"{'db hits':>9} {'last k':>7} {'recall@10':>9}")  # fmt: skip
        for tag, agents, facts in groups:
            picks = rng.sample(range(agents), min(sample, agents))
            merged: dict[str, dict[str, list[float]]] = {}
            for a in progress_bar(picks, desc=f"{agents}x{facts}"):
                got = await measure(ex, f"{prefix}{tag}{a}", facts, total, queries, form.filtered)
                for name, row in got.items():
                    for key, value in row.items():
                        if key != "strategy":
                            merged.setdefault(name, {}).setdefault(key, []).append(float(value))
            for name, cols in merged.items():
                print(f"{agents}x{facts:<12} {name:<16} {statistics.median(cols['p50']):>7.1f} "
                      f"{statistics.median(cols['p95']):>7.1f} {statistics.median(cols['hits']):>9.0f} "
                      f"{statistics.median(cols['k']):>7.0f} {statistics.mean(cols['recall']):>9.2f}")  # fmt: skip
        if not keep:
            await cleanup(ex, prefix)
    finally:
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", default="1000x60", help="agents x facts of the small agents")
    parser.add_argument("--large", default="20x2000", help="agents x facts of the large agents")
    parser.add_argument(
        "--queries", type=int, default=20, help="timed queries per agent and strategy"
    )
    parser.add_argument("--sample", type=int, default=5, help="agents measured per group")
    parser.add_argument("--keep", action="store_true", help="leave the facts in the database")
    args = parser.parse_args()
    asyncio.run(main(args.small, args.large, args.queries, args.sample, args.keep))
