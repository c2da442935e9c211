"""Write growth: the same messages written into agents that already hold 0, 1k, 10k (and, with
``--large``, 100k) entities and facts. Run through ``python -m tests.bench.bench_write --growth``.

Every agent is pre-filled first (``remember`` with caller-supplied vectors, see
``growth_corpus``), so each size is measured against the same database. Then, per size and path
(offline spaCy extraction; LLM path with a scripted OpenAI-compatible endpoint on loopback whose
answers come from the offline extractor, LLM time subtracted), the messages are written one
after another and the write trace gives per-stage milliseconds (median and p95): extraction,
embedding, resolution, reconciliation, commit, and the rest (guard, event log, context read).
A few more messages are then written through a ``PROFILE`` executor: database hits per message
(by statement, the largest listed) and round trips. The agents are deleted at the end.
"""

from __future__ import annotations

import os
import statistics
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import Neo4jExecutor
from graph.memory.remember import remember
from graph.memory.write import WritePipeline
from graph.progress import progress_bar
from graph.providers import Embedder, LLMResponse
from server.composition import build_llm
from server.settings import Settings
from tests.bench.corpus_texts import BENCH, hotpotqa
from tests.bench.growth_corpus import TableEmbedder, build_prefill
from tests.bench.profiling import ProfilingExecutor
from tests.bench.scripted_endpoint import ScriptedEndpoint
from tests.fakes import WrappedExecutor

__all__ = ["GROWTH_STAGES", "run_growth"]

SPEAKER = "Rafael"
# Trace steps (graph/memory/write/pipeline.py, sequence.py) → reported stage; "commit" is the
# offline transaction's COMMIT (its reads, decisions and statements are the steps before it).
GROWTH_STAGES = {
    "extraction": ("extraction",),
    "embedding": ("embedding",),
    "resolution": ("resolution",),
    "reconcile": ("reconcile",),
    "commit": ("upsert", "commit"),
    "other": ("guard", "event", "context"),
}
LLM_STAGE = {
    "extract_informed": "extraction",
    "extract": "extraction",
    "resolve_entities": "resolution",
    "reconcile": "reconcile",
}
FIRST_PERSON = [
    "I moved to Lisbon in 2019 after finishing my degree. My sister Carla still lives in Porto. "
    "She works as a nurse at Santa Maria hospital. We talk on the phone every Sunday. "
    "Next month I am visiting her with my dog Bolt.",
    "I started a new job at Vertix last week. My manager is Ana Souza. The office is near the "
    "river in Alcantara. I take the tram to work every morning. The coffee there is terrible.",
    "My friend Diego Alves is getting married in June. The wedding is in Recife. I bought "
    "plane tickets yesterday. Diego met his fiancee Julia at a climbing gym. I will give a "
    "short speech at the dinner.",
    "I have been learning to play the guitar since March. My teacher Bruno Lima is very "
    "patient. We practise bossa nova songs. I want to play at my mother's birthday. She loves "
    "Tom Jobim.",
    "Last weekend I went hiking in Sintra with Elisa Rocha. We walked for six hours. Elisa "
    "twisted her ankle near the castle. A ranger helped us get down. I am sore today.",
    "I am allergic to shellfish, so I avoid the seafood restaurants in Cascais. My favourite "
    "food is feijoada. My grandmother taught me her recipe. I cook it for friends on "
    "holidays. Fabio Reis says mine is the best.",
]


class _TimedLLM:
    """A ChatLLM wrapper adding up the time spent inside each stage's calls."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name = inner, inner.name
        self.seconds: Counter[str] = Counter()

    async def complete_json(self, stage: str, system: str, user: str, **kw: Any) -> LLMResponse:
        t = time.perf_counter()
        try:
            return await self.inner.complete_json(stage, system, user, **kw)  # type: ignore[no-any-return]
        finally:
            self.seconds[LLM_STAGE.get(stage, "other")] += time.perf_counter() - t


@dataclass
class Measured:
    """One (size, path) cell: ms per stage and per message, round trips, db hits."""

    stages: dict[str, list[float]] = field(default_factory=dict)
    total: list[float] = field(default_factory=list)
    trips: list[int] = field(default_factory=list)
    hits: Counter[str] = field(default_factory=Counter)
    profiled: int = 0


def messages(n: int) -> list[str]:
    """``n`` messages: 5-sentence HotpotQA passages (when shared/bench is there; else the
    first-person messages alone) with a first-person message after every third."""
    corpus = BENCH / "multihop" / "hotpotqa-corpus.json"
    passages = (
        [item.text for _, item in zip(range(n), hotpotqa(), strict=False)]
        if n and corpus.is_file()
        else []
    )
    out: list[str] = []
    for i, text in enumerate(passages):
        out.append(text)
        if i % 3 == 2:
            out.append(FIRST_PERSON[(i // 3) % len(FIRST_PERSON)])
    while len(out) < n:
        out.append(FIRST_PERSON[len(out) % len(FIRST_PERSON)])
    return out[:n]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


async def _write_all(
    pipe: WritePipeline,
    agent: str,
    texts: list[str],
    llm: _TimedLLM | None,
    out: Measured,
    desc: str,
    timed: bool,
) -> None:
    for text in progress_bar(texts, desc=desc, unit="msg"):
        if llm is not None:
            llm.seconds.clear()
        trips = pipe.executor.round_trips  # type: ignore[attr-defined]
        t = time.perf_counter()
        res = await pipe.write(agent, text, SPEAKER, verbose=True)
        elapsed = time.perf_counter() - t
        assert res.success, res.error
        if not timed:
            out.profiled += 1
            continue
        llm_s = llm.seconds if llm is not None else Counter[str]()
        out.total.append((elapsed - sum(llm_s.values())) * 1000)
        out.trips.append(pipe.executor.round_trips - trips)  # type: ignore[attr-defined]
        by_step = {s["stage"]: s["ms"] for s in res.trace or []}
        for stage, steps in GROWTH_STAGES.items():
            ms = sum(by_step.get(s, 0.0) for s in steps) - llm_s.get(stage, 0.0) * 1000
            out.stages.setdefault(stage, []).append(max(ms, 0.0))


async def _measure(
    ex: Neo4jExecutor,
    embedder: Embedder,
    llm: Any,
    agent: str,
    texts: list[str],
    extra: list[str],
    label: str,
) -> Measured:
    out = Measured()
    timed = _TimedLLM(llm) if llm is not None else None
    pipe = WritePipeline(WrappedExecutor(ex), embedder, timed)
    await _write_all(pipe, agent, texts, timed, out, f"{label} write", True)
    prof = ProfilingExecutor(ex)
    await _write_all(
        WritePipeline(prof, embedder, timed), agent, extra, timed, out, f"{label} profile", False
    )
    out.hits = prof.hits
    return out


def _report(results: dict[tuple[int, str], Measured]) -> None:
    sizes = sorted({s for s, _ in results})
    paths = sorted({p for _, p in results})
    stages = [*GROWTH_STAGES, "total"]
    for path in paths:
        print(f"\n{path} path, ms per message, median / p95 (LLM time excluded)")
        print("prefill   | " + " | ".join(f"{s:>15}" for s in stages) + " | trips | db hits")
        for size in sizes:
            m = results[(size, path)]
            cells = [
                f"{statistics.median(m.stages[s]):6.1f} / {_pct(m.stages[s], 0.95):6.1f}"
                for s in GROWTH_STAGES
            ]
            cells.append(f"{statistics.median(m.total):6.1f} / {_pct(m.total, 0.95):6.1f}")
            hits = sum(m.hits.values()) / max(m.profiled, 1)
            print(
                f"{size:>9} | "
                + " | ".join(f"{c:>15}" for c in cells)
                + f" | {statistics.mean(m.trips):5.1f} | {hits:8.0f}"
            )
        base = statistics.median(results[(sizes[0], path)].total)
        top = statistics.median(results[(sizes[-1], path)].total)
        print(
            f"p50 at {sizes[-1]} ÷ p50 at {sizes[0]}: {top / base:.2f}x; "
            f"offline throughput at {sizes[0]}: {1000 / base:.1f} msg/s"
            if path == "offline"
            else f"p50 at {sizes[-1]} ÷ p50 at {sizes[0]}: {top / base:.2f}x"
        )
    print("\ndb hits per message by statement (largest prefill, top 8)")
    big = sizes[-1]
    for path in paths:
        m = results[(big, path)]
        top8 = ", ".join(f"{n} {h / max(m.profiled, 1):.0f}" for n, h in m.hits.most_common(8))
        print(f"  {path}: {top8}")


async def run_growth(
    ex: Neo4jExecutor,
    embedder: Embedder,
    sizes: list[int],
    n_messages: int,
    n_profiled: int,
    paths: list[str],
) -> None:
    """Pre-fill one agent per size, then measure every (size, path); agents are deleted."""
    run = uuid.uuid4().hex[:6]
    texts = messages(n_messages + n_profiled)
    timed_texts, extra = texts[:n_messages], texts[n_messages:]
    agents = {(size, path): f"bench-growth-{path}-{size}-{run}" for size in sizes for path in paths}
    results: dict[tuple[int, str], Measured] = {}
    print(
        f"load average {os.getloadavg()[0]:.1f}; sizes {sizes}; {n_messages} timed + "
        f"{n_profiled} profiled messages per size and path"
    )
    try:
        for (size, path), agent in agents.items():
            if size == 0:
                continue
            pre = build_prefill(size, SPEAKER)
            table = TableEmbedder(embedder, pre.base_of)
            await table.prepare()
            bar = progress_bar(total=0, desc=f"prefill {size} ({path})")

            def progress(done: int, total: int, bar: Any = bar) -> None:
                bar.total = total
                bar.update(done - bar.n)

            t = time.perf_counter()
            res = await remember(
                ex,
                table,
                agent,
                pre.entities,
                pre.facts,
                pre.relations,
                progress=progress,
                batch_size=1000,
            )
            bar.close()
            assert res.complete, res.error
            print(f"prefill {size}: {time.perf_counter() - t:.1f} s")
        endpoint = ScriptedEndpoint() if "llm" in paths else None
        if endpoint is not None:
            endpoint.__enter__()
        try:
            llm = None
            if endpoint is not None:
                llm = build_llm(
                    Settings().model_copy(
                        update={"llm_base_url": endpoint.base_url("growth"), "llm_max_retries": 0}
                    )
                )
            # Warm the models (spaCy, tokenizer) outside the timings.
            await WritePipeline(ex, embedder, None).write(
                f"bench-growth-warm-{run}", "warm up the models please", SPEAKER, dry_run=True
            )
            for (size, path), agent in agents.items():
                results[(size, path)] = await _measure(
                    ex,
                    embedder,
                    llm if path == "llm" else None,
                    agent,
                    timed_texts,
                    extra,
                    f"{path} {size}",
                )
        finally:
            if endpoint is not None:
                endpoint.__exit__(None, None, None)
    finally:
        for agent in agents.values():
            await delete_agent(ex, agent)
    _report(results)
