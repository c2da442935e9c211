"""What tracing costs: ``.venv/bin/python -m tests.bench.bench_tracing [--messages N]
[--rounds N]``. Against the real Neo4j with the configured embedder, on an agent of its own
(deleted at the end): offline writes and retrieves, CPU seconds per call, with tracing off (no
provider: the API's no-op) and on (the SDK with a batch processor whose exporter drops the
spans, so the figure is the cost of recording, not of a network), the two interleaved round by
round so the machine's drift hits both alike. Prints medians and the on/off ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from graph import tracing
from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.progress import progress_bar
from server.composition import build_memory
from server.settings import Settings

PEOPLE = ["Ana Souza", "Bruno Lima", "Carla Dias", "Diego Alves"]
CITIES = ["Curitiba", "Lisbon", "Porto", "Recife", "Santos"]


class Dropped(SpanExporter):
    """Counts the spans and sends them nowhere."""

    def __init__(self) -> None:
        self.spans = 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.spans += len(spans)
        return SpanExportResult.SUCCESS


async def cpu_of(call: Callable[[], Awaitable[object]]) -> float:
    started = time.process_time()
    await call()
    return time.process_time() - started


async def off_path_us(calls: int = 20_000) -> float:
    """Microseconds a traced call adds with tracing off (the wrapper's check and a stage
    mark), measured on a coroutine that does nothing."""

    async def bare(_self: object, agent_id: str) -> None:
        return None

    traced = tracing.traced("bench")(bare)
    tracing.install(None)
    best = {}
    for name, fn in (("bare", bare), ("traced", traced)):
        started = time.perf_counter()
        for _ in range(calls):
            await fn(None, "a")
            tracing.stage_span("bench.stage", 0, 0, {})
        best[name] = (time.perf_counter() - started) / calls
    return (best["traced"] - best["bare"]) * 1e6


async def main(messages: int, rounds: int) -> None:
    settings = Settings()
    executor = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    memory = build_memory(settings, executor=executor)
    agent = f"bench-tracing-{uuid.uuid4().hex[:8]}"
    exporter = Dropped()
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    cpu: dict[tuple[str, str], list[float]] = {}
    try:
        await memory.writer.write(agent, "Warm-up: Ana lives in Curitiba.", "Ana")
        await memory.retriever.retrieve(agent, "Where does Ana live?")
        bar = progress_bar(total=rounds * 2, desc="tracing off/on")
        for r in range(rounds):
            for mode in ("off", "on") if r % 2 == 0 else ("on", "off"):
                tracing.install(provider if mode == "on" else None)
                for i in range(messages):
                    text = f"{PEOPLE[i % 4]} moved to {CITIES[(i + r) % 5]} (note {r}.{i})."
                    cpu.setdefault(("write", mode), []).append(
                        await cpu_of(lambda t=text: memory.writer.write(agent, t, "Ana"))
                    )
                    question = f"Where does {PEOPLE[i % 4]} live?"
                    cpu.setdefault(("retrieve", mode), []).append(
                        await cpu_of(lambda q=question: memory.retriever.retrieve(agent, q))
                    )
                bar.update(1)
        bar.close()
    finally:
        tracing.install(None)
        provider.shutdown()
        await delete_agent(executor, agent)
        await memory.close()
    print(
        f"\nCPU ms per call, median of {rounds * messages} per cell; embedder {settings.embedder}"
    )
    print("| call | tracing off | tracing on | on / off |")
    print("|---|---|---|---|")
    for call in ("write", "retrieve"):
        off = statistics.median(cpu[(call, "off")]) * 1000
        on = statistics.median(cpu[(call, "on")]) * 1000
        print(f"| {call} | {off:.1f} | {on:.1f} | {on / off:.3f} |")
    print(f"spans recorded while on: {exporter.spans}")
    extra = await off_path_us()
    retrieve_ms = statistics.median(cpu[("retrieve", "off")]) * 1000
    print(
        f"tracing off adds {extra:.2f} µs per call: {extra / 10 / retrieve_ms:.5f} % of a "
        f"retrieve's CPU"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--messages", type=int, default=10, help="writes and retrieves per half-round"
    )
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    asyncio.run(main(args.messages, args.rounds))
