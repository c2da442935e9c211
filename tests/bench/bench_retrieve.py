"""Retrieve latency (no rerank): p50/p95 at 10k facts for one agent, with 100 agents sharing
10k facts, the exact-scan vs index-over-fetch crossover, and the PROFILE of the slowest Cypher.

    .venv/bin/python -m tests.bench.bench_retrieve            # 10k facts, 3 repetitions
    .venv/bin/python -m tests.bench.bench_retrieve --repeats 1 --queries 20   # a quick look
    .venv/bin/python -m tests.bench.bench_retrieve --large    # 100k facts as well

Each scenario runs ``--repeats`` times (default 3) and the table of spreads gives min, median
and max of p50 and p95 over the repetitions with their ratio to the bare-index floor measured in
the same run (a bare vector call and a bare full-text call after every timed question): on a
shared machine one repetition's p95 alone says little.

Data is synthetic but shaped like real memory: 200 people / 60 organisations / 40 places with
RELATES_TO edges, facts about a subject linked (ABOUT) to a second entity, clustered embeddings
(50 topics, so similarities look like a sentence model's: ~0.5 within a topic), imported with
structured ``remember``. Queries mix named-entity questions, topical questions and Portuguese.
Figures depend on the machine's load (the dev box is 2 shared cores): compare ratios measured
in the same run, not absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import statistics
import time
import uuid
from collections.abc import Sequence
from typing import Any, LiteralString, cast

import numpy as np

import cypher
from graph.agent_deletion import delete_agent
from graph.executor import Executor, Neo4jExecutor, connect
from graph.memory.read import RetrieveConfig, Retriever
from graph.memory.read.search import Scope, SearchStats, semantic_facts
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.settings import Settings
from tests.cypher import load_query
from tests.fakes import WrappedExecutor

DIM, TOPICS = 384, 50
_WORD_TEXT = (
    "coffee hiking budget launch roadmap guitar marathon python recipe garden invoice "
    "vacation contract hiring design review migration football painting chess dentist "
    "apartment wedding course kafka neo4j graph salary mentor podcast cycling"
)
WORDS = _WORD_TEXT.split()


class TopicEmbedder:
    """Deterministic clustered vectors: the topic is picked from the text's first topic word."""

    name, dimensions = "bench-topics", DIM

    def __init__(self) -> None:
        rng = np.random.default_rng(11)
        self.topics = [v / np.linalg.norm(v) for v in rng.normal(size=(TOPICS, DIM))]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            seed = int(hashlib.sha1(text.encode()).hexdigest()[:8], 16)
            rng = np.random.default_rng(seed)
            topic = next((WORDS.index(w) for w in text.lower().split() if w in WORDS), seed)
            v = self.topics[topic % TOPICS] + 0.9 * rng.normal(size=DIM) / np.sqrt(DIM) * 2
            out.append((v / np.linalg.norm(v)).tolist())
        return out


class TimingExecutor(WrappedExecutor):
    """Records the duration of every named statement (to find the slowest one); ``raw`` is
    the driver-backed executor underneath (PROFILE and the decoding probe talk to its
    driver)."""

    def __init__(self, inner: Neo4jExecutor) -> None:
        super().__init__(inner)
        self.raw = inner
        self.timings: dict[str, list[float]] = {}
        self.slowest: dict[str, tuple[float, dict[str, Any]]] = {}

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        t = time.perf_counter()
        try:
            return await super().run(name, params, read=read)
        finally:
            ms = (time.perf_counter() - t) * 1000
            self.timings.setdefault(name, []).append(ms)
            if ms > self.slowest.get(name, (-1.0, {}))[0]:
                self.slowest[name] = (ms, params or {})


def synthetic_memory(
    n_facts: int, rng: random.Random
) -> tuple[list[StructuredEntity], list[StructuredFact], list[StructuredRelation]]:
    people = [f"Person{i} Surname{i % 37}" for i in range(200)]
    orgs = [f"Org{i} Corp" for i in range(60)]
    places = [f"City{i}" for i in range(40)]
    entities = (
        [StructuredEntity(p, "person") for p in people]
        + [StructuredEntity(o, "organization") for o in orgs]
        + [StructuredEntity(c, "place") for c in places]
    )
    relations = [StructuredRelation(p, rng.choice(orgs), "works_at") for p in people]
    relations += [StructuredRelation(p, rng.choice(places), "lives_in") for p in people]
    relations += [StructuredRelation(p, rng.choice(people), "knows") for p in people[:150]]
    facts = []
    for i in range(n_facts):
        subject = rng.choice(people)
        other = rng.choice(orgs + places + people)
        w1, w2 = rng.sample(WORDS, 2)
        facts.append(
            StructuredFact(
                f"{subject} talked about {w1} and {w2} with {other} (note {i})",
                subject,
                entities=[other],
                confidence=rng.choice([0.6, 0.8, 0.95]),
                importance=rng.random(),
                reinforcement_count=rng.randint(1, 5),
            )
        )
    return entities, facts, relations


def queries(rng: random.Random, n: int) -> list[str]:
    out = []
    for i in range(n):
        p = f"Person{rng.randrange(200)} Surname{rng.randrange(37)}"
        w = rng.choice(WORDS)
        out.append(
            [
                f"What did {p} say about {w}?",
                f"who talked about {w} and {rng.choice(WORDS)}",
                f"O que o {p} falou sobre {w}?",
                f"tell me everything about {p}",
            ][i % 4]
        )
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def load(
    ex: Executor, embedder: TopicEmbedder, agents: list[str], n_facts: int, rng: random.Random
) -> None:
    per_agent = n_facts // len(agents)
    with progress_bar(
        total=n_facts, desc=f"import {n_facts} facts / {len(agents)} agent(s)", unit="fact"
    ) as progress:
        for agent in agents:
            entities, facts, relations = synthetic_memory(per_agent, rng)
            await remember(
                ex,
                embedder,
                agent,
                entities=entities,
                facts=facts,
                relations=relations,
                batch_size=1000,
            )
            progress.update(per_agent)


STAGES = ("plan", "signals")
# Spreading activation starts from the semantic hits alongside the signals statement (its
# measured time overlaps it), and the learned ranker is part of python: both shown beside the
# stages, not added to them.
INNER = ("activation", "ranker")


async def measure(
    ex: TimingExecutor,
    embedder: TopicEmbedder,
    agent: str,
    label: str,
    rng: random.Random,
    n: int,
    **options: Any,
) -> dict[str, Any]:
    retriever = Retriever(ex, embedder, None, RetrieveConfig.of(enable_reranker=False, **options))
    qs = queries(rng, n)
    for q in qs[:4]:  # warm the query-plan cache
        await retriever.retrieve(agent, q)
    ex.timings.clear()
    ex.slowest.clear()
    times: list[float] = []
    stages: dict[str, list[float]] = {s: [] for s in (*STAGES, "python", *INNER)}
    floor_vector = (await embedder.embed([FLOOR_QUERY]))[0]
    floor_times: list[float] = []
    for q in progress_bar(qs, desc=f"retrieve {label}", unit="q"):
        t = time.perf_counter()
        result = await retriever.retrieve(agent, q)
        total = (time.perf_counter() - t) * 1000
        times.append(total)
        floor_times.append(await bare_pair(ex.raw, floor_vector))
        spent = 0.0
        for stage in STAGES:
            ms = float(result.trace.get(stage, {}).get("ms", 0.0))
            stages[stage].append(ms)
            spent += ms
        stages["python"].append(max(0.0, total - spent))
        for stage in INNER:
            stages[stage].append(float(result.trace.get(stage, {}).get("ms", 0.0)))
    return {
        "p50": statistics.median(times),
        "p95": pct(times, 0.95),
        "n": len(times),
        "times": times,
        "floor_times": floor_times,
        "stages": {k: statistics.median(v) for k, v in stages.items()},
    }


FLOOR_QUERY, FLOOR_TEXT = "what about coffee and hiking", "coffee OR hiking"
FLOOR_VECTOR, FLOOR_FULLTEXT = load_query("bench_floor_vector"), load_query("bench_floor_fulltext")


async def bare_pair(ex: Executor, vector: list[float]) -> float:
    """Ms of one bare vector call (k=100) plus one bare full-text call (k=100): the floor,
    sampled right after each timed question so that it sees the same load and the same index
    state (segments being merged after an import) as the question."""
    t = time.perf_counter()
    await ex.run_text(FLOOR_VECTOR, {"vector": vector, "k": 100}, read=True)
    await ex.run_text(FLOOR_FULLTEXT, {"q": FLOOR_TEXT, "k": 100}, read=True)
    return (time.perf_counter() - t) * 1000


async def floors(ex: Executor, embedder: TopicEmbedder) -> dict[str, float]:
    """Median ms of a bare vector index call and a bare full-text call (the physical floor of
    the two index signals: no agent filter, no projection)."""
    vec = (await embedder.embed([FLOOR_QUERY]))[0]
    out: dict[str, float] = {}
    for label, query, params in (
        ("vector index k=100", FLOOR_VECTOR, {"vector": vec, "k": 100}),
        ("vector index k=1000", FLOOR_VECTOR, {"vector": vec, "k": 1000}),
        (
            "full-text k=100",
            FLOOR_FULLTEXT,
            {"q": FLOOR_TEXT, "k": 100},
        ),
        (
            "full-text k=1000",
            FLOOR_FULLTEXT,
            {"q": FLOOR_TEXT, "k": 1000},
        ),
    ):
        ts = []
        for _ in range(12):
            t = time.perf_counter()
            await ex.run_text(query, params, read=True)
            ts.append((time.perf_counter() - t) * 1000)
        out[label] = statistics.median(ts[2:])
    return out


async def embed_cost() -> float | None:
    """Median ms to embed one query with the real MiniLM (None without the tokenizer)."""
    try:
        from graph.providers import MiniLMEmbedder
        from graph.providers.embedders import find_tokenizer

        real = MiniLMEmbedder(find_tokenizer(Settings().home))
    except Exception:  # the bench runs without the model too
        return None
    ts = []
    for i in range(12):
        t = time.perf_counter()
        await real.embed([f"what did Person{i} say about coffee and hiking last week?"])
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts[2:])


async def decoding(ex: TimingExecutor) -> None:
    """Per statement: client time (driver, network, decoding) vs the server's own time, on
    the slowest call's parameters."""
    print(
        f"\n{'statement (slowest call replayed)':<36} {'client ms':>9} {'server ms':>9} "
        f"{'driver+decode':>13} {'rows':>5}"
    )
    for name in sorted(ex.timings, key=lambda n: -pct(ex.timings[n], 0.95)):
        query = cast(LiteralString, cypher.load(name))
        async with ex.raw.driver.session(
            database=ex.raw.database, default_access_mode="READ"
        ) as session:
            t = time.perf_counter()
            result = await session.run(query, ex.slowest[name][1])
            rows = [r async for r in result]
            summary = await result.consume()
            client = (time.perf_counter() - t) * 1000
        server = float((summary.result_available_after or 0) + (summary.result_consumed_after or 0))
        print(f"{name:<36} {client:9.1f} {server:9.1f} {client - server:13.1f} {len(rows):5d}")


async def crossover(
    ex: Executor, embedder: TopicEmbedder, agent: str, n_facts: int, total: int
) -> tuple[float, float]:
    """Median ms of the semantic signal by exact scan vs by index over-fetch for this agent."""
    vec = (await embedder.embed([FLOOR_QUERY]))[0]
    scope = Scope(agent, None, vec, 0.55)
    out = []
    for exact_max in (10**9, 0):
        ts = []
        for _ in range(12):
            t = time.perf_counter()
            await semantic_facts(
                ex,
                scope,
                limit=60,
                min_cosine=0.2,
                agent_facts=n_facts,
                total_facts=total,
                exact_max=exact_max,
                cap=20_000,
                stats=SearchStats(),
            )
            ts.append((time.perf_counter() - t) * 1000)
        out.append(statistics.median(ts[2:]))
    return out[0], out[1]


def print_profile(plan: Any, depth: int = 0) -> None:
    args = plan.get("args", {})
    print(
        f"{'  ' * depth}{plan['operatorType']:<28} rows={plan.get('rows', '?'):<7} "
        f"dbHits={plan.get('dbHits', '?'):<8} {str(args.get('Details', ''))[:90]}"
    )
    for child in plan.get("children", []):
        print_profile(child, depth + 1)


def db_hits(plan: Any) -> int:
    return int(plan.get("dbHits", 0)) + sum(db_hits(c) for c in plan.get("children", []))


def entity_fact_rows(plan: Any) -> int:
    """Rows of the operators reading an entity's facts ((e)<-[:ABOUT]-(f)): the traversal."""
    details = str(plan.get("args", {}).get("Details", ""))
    own = (
        int(plan.get("rows", 0))
        if (
            plan["operatorType"].startswith("Expand")
            and details.startswith("(e)<-[")
            and ":ABOUT]-(f)" in details
        )
        else 0
    )
    return own + sum(entity_fact_rows(c) for c in plan.get("children", []))


async def profile_bounds(ex: TimingExecutor, scenario: str) -> list[str]:
    """db hits of read/signals on the scenario's slowest call's parameters, with the graph
    read bounds and with them lifted (every entity's facts read and sorted, as before)."""
    if "read/signals" not in ex.slowest:
        return []
    params = ex.slowest["read/signals"][1]
    lifted = {**params, "graph_budget": 10**9, "graph_scan": 10**9}
    lines = []
    for label, p in (("bounds on (default)", params), ("bounds off (before)", lifted)):
        query = cast(LiteralString, "PROFILE " + cypher.load("read/signals"))
        async with ex.raw.driver.session(database=ex.raw.database) as session:
            result = await session.run(query, p)
            summary = await result.consume()
        if summary.profile:
            lines.append(
                f"  {scenario:<30} {label:<20} db hits {db_hits(summary.profile):>8}"
                f"   entity->fact rows (traversal) "
                f"{entity_fact_rows(summary.profile):>6}"
            )
    return lines


async def profile_slowest(ex: TimingExecutor) -> None:
    name = max(ex.timings, key=lambda n: pct(ex.timings[n], 0.95))
    print(
        f"\nslowest statement by p95: {name} "
        f"(p50 {statistics.median(ex.timings[name]):.1f} ms, "
        f"p95 {pct(ex.timings[name], 0.95):.1f} ms)"
    )
    for other in sorted(ex.timings, key=lambda n: -pct(ex.timings[n], 0.95)):
        print(
            f"  {other:<36} p50 {statistics.median(ex.timings[other]):7.1f}  "
            f"p95 {pct(ex.timings[other], 0.95):7.1f}  calls {len(ex.timings[other])}"
        )
    # PROFILE (a bench-only prefix on a statement loaded from its file) of the three hottest.
    for hot in sorted(ex.timings, key=lambda n: -pct(ex.timings[n], 0.95))[:3]:
        query = cast(LiteralString, "PROFILE " + cypher.load(hot))
        async with ex.raw.driver.session(database=ex.raw.database) as session:
            result = await session.run(query, ex.slowest[hot][1])  # the slowest call's params
            summary = await result.consume()
        if summary.profile:
            print(
                f"\nPROFILE {hot} (slowest call's parameters; {db_hits(summary.profile)} db hits)"
            )
            print_profile(summary.profile)


# The paths compared in one run, interleaved: the default (the learned ranker's order), the
# hand formula's order (what the learned ranker costs), and the default with the graph read
# bounds lifted (graph_read_budget / hub_scan_factor so large that every entity's facts are
# read and sorted, as before the bounds; spreading activation's activation_read_budget so
# large that it reads all its activation_entities).
PATHS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("one", "read/signals, one statement", {}),
    ("formula", "read/signals, the formula's order", {"ranker": "formula"}),
    (
        "unbounded",
        "read/signals, graph bounds off",
        {"graph_read_budget": 100, "hub_scan_factor": 100, "activation_read_budget": 100_000},
    ),
)


async def both_paths(
    ex: TimingExecutor, embedder: TopicEmbedder, agent: str, label: str, seed: int, n: int
) -> list[tuple[str, dict[str, Any]]]:
    """Every path of ``PATHS``, same queries, interleaved in time (each measured twice, first
    halves then second halves): a load change during the run hits all alike."""
    half = max(1, n // 2)
    out: dict[str, list[dict[str, Any]]] = {key: [] for key, _, _ in PATHS}
    timings: dict[str, list[float]] = {}
    slowest: dict[str, tuple[float, dict[str, Any]]] = {}
    for part in range(2):
        for key, _, options in PATHS:
            out[key].append(
                await measure(
                    ex,
                    embedder,
                    agent,
                    f"{label} {key}",
                    random.Random(seed + part),
                    half,
                    **options,
                )
            )
            if key != "one":  # the statement list and PROFILE show the shipped path
                continue
            # measure() clears the statement timings after its warm-up: keep every part's
            for name, values in ex.timings.items():
                timings.setdefault(name, []).extend(values)
            for name, (ms, params) in ex.slowest.items():
                if ms > slowest.get(name, (-1.0, {}))[0]:
                    slowest[name] = (ms, params)
    ex.timings, ex.slowest = timings, slowest
    rows = []
    for key, name, _ in PATHS:
        times = [t for r in out[key] for t in r["times"]]
        stages = {
            k: statistics.median([r["stages"][k] for r in out[key]]) for k in out[key][0]["stages"]
        }
        rows.append(
            (
                f"{label}: {name}",
                {
                    "p50": statistics.median(times),
                    "p95": pct(times, 0.95),
                    "n": len(times),
                    "stages": stages,
                    "floor": statistics.median([t for r in out[key] for t in r["floor_times"]]),
                },
            )
        )
    return rows


async def repeated(
    ex: TimingExecutor,
    embedder: TopicEmbedder,
    agent: str,
    label: str,
    rng: random.Random,
    n: int,
    repeats: int,
) -> list[tuple[str, dict[str, Any]]]:
    """``both_paths`` ``repeats`` times (fresh queries each time): every row keeps the p50 and
    p95 of each repetition (``spread``), its own p50/p95 being their medians."""
    reps = [
        await both_paths(ex, embedder, agent, label, rng.randrange(10**6), n)
        for _ in range(repeats)
    ]
    rows = []
    for i, (name, first) in enumerate(reps[0]):
        p50s = [rep[i][1]["p50"] for rep in reps]
        p95s = [rep[i][1]["p95"] for rep in reps]
        stages = {
            k: statistics.median([rep[i][1]["stages"][k] for rep in reps]) for k in first["stages"]
        }
        rows.append(
            (
                name,
                {
                    "p50": statistics.median(p50s),
                    "p95": statistics.median(p95s),
                    "n": sum(rep[i][1]["n"] for rep in reps),
                    "stages": stages,
                    "spread": {"p50": p50s, "p95": p95s},
                    "floor": statistics.median([rep[i][1]["floor"] for rep in reps]),
                },
            )
        )
    return rows


def spread(values: list[float]) -> str:
    return f"{min(values):6.1f} {statistics.median(values):6.1f} {max(values):6.1f}"


async def main(
    large: bool,
    n_queries: int,
    sizes_arg: list[int] | None = None,
    crowd_max: int = 10_000,
    repeats: int = 3,
) -> None:
    settings = Settings()
    base = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    ex = TimingExecutor(base)
    embedder = TopicEmbedder()
    await ensure_schema(ex, DIM)
    rng = random.Random(5)
    run = uuid.uuid4().hex[:6]
    sizes = sizes_arg or ([10_000, 100_000] if large else [10_000])
    created: list[str] = []
    rows = []
    bounds: list[str] = []
    retrieve_timings: dict[str, list[float]] = {}
    retrieve_slowest: dict[str, tuple[float, dict[str, Any]]] = {}

    def keep() -> None:  # what retrieve ran (not the crossover probes that follow)
        for name, values in ex.timings.items():
            retrieve_timings.setdefault(name, []).extend(values)
        for name, (ms, params) in ex.slowest.items():
            if ms > retrieve_slowest.get(name, (-1.0, {}))[0]:
                retrieve_slowest[name] = (ms, params)

    try:
        before = int((await ex.run("read/agent_counts", {"agent_id": ""}))[0]["total_facts"])
        if before:
            print(
                f"note: the database already holds {before} facts of other agents. An agent "
                "searched by over-fetch of the shared index (Neo4j 5.26) asks it for more hits "
                "the smaller its share, so its figures are not those of an agent alone; a "
                "fresh database gives those"
            )
        small = f"bench-retrieve-{run}-solo-1000"
        created.append(small)
        await load(ex, embedder, [small], 1000, rng)
        total = int((await ex.run("read/agent_counts", {"agent_id": small}))[0]["total_facts"])
        exact, index = await crossover(ex, embedder, small, 1000, total)
        print(
            f"semantic signal at 1000 facts/agent: exact scan {exact:.1f} ms, "
            f"index over-fetch {index:.1f} ms"
        )
        for size in sizes:
            solo = f"bench-retrieve-{run}-solo-{size}"
            created.append(solo)
            await load(ex, embedder, [solo], size, rng)
            total = int((await ex.run("read/agent_counts", {"agent_id": solo}))[0]["total_facts"])
            print(f"1 agent, {size} facts: the database holds {total} facts")
            rows += await repeated(
                ex, embedder, solo, f"1 agent, {size} facts", rng, n_queries, repeats
            )
            bounds += await profile_bounds(ex, f"1 agent, {size} facts")
            keep()
            exact, index = await crossover(ex, embedder, solo, size, total)
            print(
                f"semantic signal at {size} facts/agent: exact scan {exact:.1f} ms, "
                f"index over-fetch {index:.1f} ms"
            )
            if size > crowd_max:
                continue
            crowd = [f"bench-retrieve-{run}-crowd{size}-{i}" for i in range(100)]
            created += crowd
            await load(ex, embedder, crowd, size, rng)
            total = int(
                (await ex.run("read/agent_counts", {"agent_id": crowd[0]}))[0]["total_facts"]
            )
            rows += await repeated(
                ex, embedder, crowd[0], f"100 agents sharing {size} facts", rng, n_queries, repeats
            )
            bounds += await profile_bounds(ex, f"100 agents sharing {size}")
            keep()
            exact, index = await crossover(ex, embedder, crowd[0], size // 100, total)
            print(
                f"semantic signal at {size // 100} facts/agent among {total} facts: exact "
                f"scan {exact:.1f} ms, index over-fetch {index:.1f} ms"
            )
        load_avg = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"\nload average {load_avg} (2 shared cores: compare figures of the same run)")
        print(
            f"{'scenario':<58} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}   median ms of: "
            + " ".join(f"{s:>10}" for s in (*STAGES, "python", *INNER))
        )
        for label, r in rows:
            print(
                f"{label:<58} {r['p50']:8.1f} {r['p95']:8.1f} {r['n']:8d}   {'':13} "
                + " ".join(f"{r['stages'][s]:10.1f}" for s in (*STAGES, "python", *INNER))
            )
        print(
            "(stages are sequential: plan = catalog read ‖ query embedding (here a synthetic "
            "embedder, ~0 ms); signals = read/signals, or every signal statement "
            "concurrently; python = ranking, formatting, the rest; activation starts "
            "alongside signals; ranker = the learned ranker's features and model, in python)"
        )
        embed = await embed_cost()
        print(
            "query embedding (MiniLM, runs concurrently with the plan): "
            + (f"{embed:.1f} ms" if embed is not None else "tokenizer not installed")
        )
        floor = await floors(ex, embedder)
        print(
            "physical floor (bare index calls on the whole database): "
            + ", ".join(f"{k} {v:.1f} ms" for k, v in floor.items())
        )
        bare = floor["vector index k=100"] + floor["full-text k=100"]
        print(
            f"ratio to the floor (bare vector k=100 + bare full-text k=100, one statement each; "
            f"here at the end {bare:.1f} ms; a real query adds the MiniLM embedding above). The "
            "ratios use the floor sampled after every timed question of the scenario (its "
            "median, 'floor ms'), which sees the same load and index state as the questions:"
        )
        for label, r in rows:
            print(
                f"  {label:<58} floor {r['floor']:5.1f} ms  p50 {r['p50'] / r['floor']:5.1f}x  "
                f"p95 {r['p95'] / r['floor']:5.1f}x  (with the end floor: p50 "
                f"{r['p50'] / bare:5.1f}x  p95 {r['p95'] / bare:5.1f}x)"
            )
        print(
            f"\nspread over {repeats} repetitions of each scenario (ms, min median max; "
            "ratio = median / the scenario's floor):"
        )
        print(
            f"{'scenario':<66} {'p50 min    med    max':>22} {'p95 min    med    max':>22} "
            f"{'floor':>6} {'p50 x':>6} {'p95 x':>6}"
        )
        for label, r in rows:
            s = r["spread"]
            print(
                f"{label:<66} {spread(s['p50']):>22} {spread(s['p95']):>22} "
                f"{r['floor']:6.1f} {r['p50'] / r['floor']:6.1f} {r['p95'] / r['floor']:6.1f}"
            )
        ex.timings, ex.slowest = retrieve_timings, retrieve_slowest
        await profile_slowest(ex)
        print(
            "\nread/signals PROFILE on each scenario's slowest call's parameters, graph read "
            "bounds on / off:"
        )
        print("\n".join(bounds))
        await decoding(ex)
    finally:
        await cleanup(base, created)
        await base.close()


async def cleanup_leftovers() -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    rows = await ex.run_text(load_query("read_agents_with_prefix"), {"prefix": "bench-retrieve-"})
    print(f"{len(rows)} leftover bench agents, {sum(r['facts'] for r in rows)} facts")
    await cleanup(ex, [r["agent_id"] for r in rows])
    await ex.close()


async def cleanup(ex: Executor, agents: list[str]) -> None:
    """Delete the bench agents; facts in batches (one 100k-fact transaction would exceed the
    server's transaction memory limit)."""
    for agent in progress_bar(agents, desc="cleanup", unit="agent"):
        while (
            await ex.run_text(
                load_query("read_delete_facts_batch"), {"agent_id": agent, "batch": 5000}
            )
        )[0]["deleted"]:
            pass
        await delete_agent(ex, agent)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="retrieve latency benchmark")
    parser.add_argument("--large", action="store_true", help="also 100k facts (slow)")
    parser.add_argument(
        "--queries", type=int, default=60, help="timed queries per scenario and path"
    )
    parser.add_argument(
        "--sizes",
        default="",
        help="facts per agent, comma-separated (default 10000; --large adds 100000)",
    )
    parser.add_argument(
        "--crowd-max",
        type=int,
        default=10_000,
        help="the 100-agents scenario only for sizes up to this",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="repetitions of each scenario (min/median/max of p50 and p95)",
    )
    parser.add_argument(
        "--cleanup",
        action="store_true",
        help="only delete agents left by an interrupted run, then exit",
    )
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()] or None
    asyncio.run(
        cleanup_leftovers()
        if args.cleanup
        else main(args.large, args.queries, sizes, args.crowd_max, args.repeats)
    )
