"""Write-pipeline benchmark: ``.venv/bin/python -m tests.bench.bench_write [--messages N]
[--import-facts N] [--full]``, or ``… --growth [--sizes 0,1000,10000] [--large]
[--growth-messages N] [--paths offline,llm]`` for the write-growth run (``write_growth``).

Measures, against the real Neo4j with the real MiniLM embedder:
- pipeline time per message with a zero-latency scripted LLM (LLM time subtracted), median/p95;
- Neo4j round trips per message;
- offline-mode (spaCy) time per message;
- structured-import facts/second at 10k facts (hash embedder = database-bound; MiniLM =
  end-to-end, 1k facts by default, 10k with ``--full``), with a one-transaction-per-fact
  baseline measured in the same run.
Every agent it creates is deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
import uuid
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, WritePipeline
from graph.progress import progress_bar
from graph.providers import Embedder, HashEmbedder, LLMResponse, MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.settings import Settings
from tests.bench.write_growth import run_growth
from tests.fakes import RecordingExecutor, ScriptedLLM

CITIES = ["Curitiba", "Lisbon", "Porto", "Recife", "Santos", "Natal", "Belem", "Manaus"]
ORGS = ["Acme", "Orion Tech", "Vertix", "Globex", "Initech", "Umbrella"]
PEOPLE = ["Ana Souza", "Bruno Lima", "Carla Dias", "Diego Alves", "Elisa Rocha", "Fabio Reis"]


class TimedLLM:
    """Wraps a ChatLLM and accumulates the time spent inside it (to subtract it)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0

    async def complete_json(self, stage: str, system: str, user: str, **kw: Any) -> LLMResponse:
        t = time.perf_counter()
        try:
            return await self.inner.complete_json(stage, system, user, **kw)  # type: ignore[no-any-return]
        finally:
            self.seconds += time.perf_counter() - t


def _message(i: int) -> tuple[str, dict[str, Any]]:
    person, org, city = PEOPLE[i % 6], ORGS[(i // 6) % 6], CITIES[(i // 3) % 8]
    text = f"{person} works at {org} and lives in {city}. Note {i}: likes topic {i % 11}."
    answer = {
        "entities": [
            {"name": person, "type": "person"},
            {"name": org, "type": "organization"},
            {"name": city, "type": "place"},
        ],
        "facts": [
            {"subject": person, "text": f"{person} works at {org}", "confidence": 0.95},
            {"subject": person, "text": f"{person} lives in {city}", "confidence": 0.95},
            {"subject": person, "text": f"{person} likes topic {i % 11}", "confidence": 0.8},
        ],
        "relations": [
            {"source": person, "target": org, "type": "works_at"},
            {"source": person, "target": city, "type": "lives_in"},
        ],
    }
    return text, answer


def _reconcile(body: dict[str, Any]) -> dict[str, Any]:
    user = json.loads(body["messages"][1]["content"])
    return {
        "decisions": [
            {
                "index": f["index"],
                "action": "UPDATE",
                "target_id": f["existing"][0]["id"],
                "reason": "newer",
            }
            for f in user["facts"]
        ]
    }


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def bench_llm_path(ex: Executor, embedder: Embedder, n: int) -> dict[str, float]:
    agent = f"bench-write-{uuid.uuid4().hex[:8]}"
    rec = RecordingExecutor(ex)
    msgs = [_message(i) for i in range(n)]
    scripted = ScriptedLLM(
        by_stage={
            "Stage: extract_informed": [a for _, a in msgs],
            "Stage: reconcile": [_reconcile] * n,  # not asked now
            "Stage: resolve_entities": [{"matches": []}] * n,
        }
    )
    llm = TimedLLM(scripted.chat())
    pipe = WritePipeline(rec, embedder, llm)
    times, trips = [], []
    try:
        for text, _ in progress_bar(msgs, desc="llm-path messages"):
            rec.reset()
            llm.seconds = 0.0
            t = time.perf_counter()
            res = await pipe.write(agent, text, "Rafael")
            times.append((time.perf_counter() - t - llm.seconds) * 1000)
            trips.append(rec.round_trips)
            assert res.success, res.error
    finally:
        await delete_agent(ex, agent)
    return {
        "median_ms": statistics.median(times),
        "p95_ms": _pct(times, 0.95),
        "round_trips": statistics.mean(trips),
        "max_round_trips": max(trips),
        "llm_calls": scripted.calls / n,
    }


async def bench_offline(ex: Executor, embedder: Embedder, n: int) -> dict[str, float]:
    agent = f"bench-write-{uuid.uuid4().hex[:8]}"
    pipe = WritePipeline(ex, embedder, None)
    await pipe.write(agent, "warm up the spaCy model please", "Rafael", dry_run=True)
    times = []
    try:
        for i in progress_bar(range(n), desc="offline messages"):
            text, _ = _message(i)
            t = time.perf_counter()
            await pipe.write(agent, text.replace(PEOPLE[i % 6], "I"), "Rafael")
            times.append((time.perf_counter() - t) * 1000)
    finally:
        await delete_agent(ex, agent)
    return {"median_ms": statistics.median(times), "p95_ms": _pct(times, 0.95)}


async def bench_import(ex: Executor, embedder: Embedder, n: int, batch: int) -> float:
    agent = f"bench-write-{uuid.uuid4().hex[:8]}"
    ents = [StructuredEntity(p, "person") for p in PEOPLE]
    facts = [
        StructuredFact(
            f"{PEOPLE[i % 6]} noted item {i} about {CITIES[i % 8]}", PEOPLE[i % 6], [CITIES[i % 8]]
        )
        for i in range(n)
    ]
    bar = progress_bar(total=0, desc=f"import {n} ({embedder.name}, batch {batch})")

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    t = time.perf_counter()
    try:
        res = await remember(ex, embedder, agent, ents, facts, progress=progress, batch_size=batch)
        assert res.facts_added == n
        return n / (time.perf_counter() - t)
    finally:
        bar.close()
        await delete_agent(ex, agent)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--messages", type=int, default=30)
    ap.add_argument("--offline-messages", type=int, default=15)
    ap.add_argument("--import-facts", type=int, default=10_000)
    ap.add_argument("--full", action="store_true", help="MiniLM import at --import-facts too")
    ap.add_argument(
        "--growth",
        action="store_true",
        help="write growth: the same messages into pre-filled agents",
    )
    ap.add_argument(
        "--sizes", default="0,1000,10000", help="growth: entities (and facts) pre-filled per agent"
    )
    ap.add_argument("--large", action="store_true", help="growth: add a 100k agent")
    ap.add_argument(
        "--growth-messages", type=int, default=20, help="growth: timed messages per size and path"
    )
    ap.add_argument(
        "--profiled-messages",
        type=int,
        default=3,
        help="growth: messages written under PROFILE per size and path",
    )
    ap.add_argument("--paths", default="offline,llm", help="growth: offline and/or llm")
    args = ap.parse_args()
    s = Settings()
    ex = connect(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database)
    minilm = MiniLMEmbedder(find_tokenizer(s.home))
    hasher = HashEmbedder(384)
    if args.growth:
        sizes = sorted(
            {int(x) for x in args.sizes.split(",")} | ({100_000} if args.large else set())
        )
        try:
            await ensure_schema(ex, 384)
            await run_growth(
                ex,
                minilm,
                sizes,
                args.growth_messages,
                args.profiled_messages,
                [p for p in args.paths.split(",") if p],
            )
        finally:
            await ex.close()
        return
    try:
        await ensure_schema(ex, 384)
        llm = await bench_llm_path(ex, minilm, args.messages)
        off = await bench_offline(ex, minilm, args.offline_messages)
        fps_hash = await bench_import(ex, hasher, args.import_facts, 500)
        base_n = 150
        fps_base = await bench_import(ex, hasher, base_n, 1)
        mini_n = args.import_facts if args.full else min(1_000, args.import_facts)
        fps_mini = await bench_import(ex, minilm, mini_n, 500)
    finally:
        await ex.close()
    rows = [
        ("LLM path, pipeline ms/message (LLM excluded), median", f"{llm['median_ms']:.1f}"),
        ("LLM path, pipeline ms/message (LLM excluded), p95", f"{llm['p95_ms']:.1f}"),
        (
            "Neo4j round trips/message (mean / max)",
            f"{llm['round_trips']:.2f} / {llm['max_round_trips']}",
        ),
        ("LLM calls/message (scripted, zero latency)", f"{llm['llm_calls']:.2f}"),
        ("offline (spaCy) ms/message, median", f"{off['median_ms']:.1f}"),
        ("offline (spaCy) ms/message, p95", f"{off['p95_ms']:.1f}"),
        (f"remember facts/s at {args.import_facts} (hash embedder, UNWIND 500)", f"{fps_hash:.0f}"),
        (f"remember facts/s at {base_n} (hash, 1 tx per fact: baseline)", f"{fps_base:.0f}"),
        ("  batched / per-fact baseline", f"{fps_hash / fps_base:.1f}x"),
        (f"remember facts/s at {mini_n} (MiniLM, UNWIND 500)", f"{fps_mini:.0f}"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"\n{'metric'.ljust(width)} | value")
    print(f"{'-' * width}-+-------")
    for name, value in rows:
        print(f"{name.ljust(width)} | {value}")


if __name__ == "__main__":
    asyncio.run(main())
