"""Corpus sweep: real passages and conversation turns through ``write`` (offline extractor),
counting failed writes by error, with the first failing input of each.

    .venv/bin/python -m tests.bench.sweep                      # every item of the three corpora
    .venv/bin/python -m tests.bench.sweep --every 10 --corpora musique,hotpotqa
    .venv/bin/python -m tests.bench.sweep --every 3 --offset 1   # the items --every 3 skips
    .venv/bin/python -m tests.bench.sweep --llm --corpora musique   # recorded LLM extraction

Each corpus is written into its own throw-away agent (deleted at the end) of the local Neo4j.
``--llm`` writes the MuSiQue passages through the LLM path instead: the extraction call is
answered through the real ``openai`` client by a scripted endpoint replaying a real model's
recorded extraction of that passage; any other call (reconcile, resolution) gets an answer
that is not JSON, which the pipeline must survive.
A write that answers ``success: false`` or raises counts as a failure. Target: 0.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.write import WritePipeline
from graph.progress import progress_bar
from graph.providers import Embedder, MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.settings import Settings
from tests.bench.corpus_texts import CORPORA, Item, recorded_extractions, sample
from tests.fakes import ScriptedLLM

log = logging.getLogger("sweep")


@dataclass
class Sweep:
    """Failures by error kind, with the first input of each."""

    written: int = 0
    facts: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    first: dict[str, Item] = field(default_factory=dict)

    def fail(self, kind: str, item: Item) -> None:
        if kind not in self.first:  # said at once: a long sweep cut short still reports it
            log.warning("new failure %s at %s: %r", kind, item.source, item.text[:160])
        self.failures[kind] += 1
        self.first.setdefault(kind, item)


def replaying(
    executor: Executor, embedder: Embedder, recorded: dict[str, dict[str, Any]]
) -> Callable[[Item], WritePipeline]:
    """A pipeline per item whose LLM replays the item's recorded extraction."""

    def pipe_for(item: Item) -> WritePipeline:
        answer = recorded.get(item.text, {"entities": [], "facts": [], "relations": []})
        llm = ScriptedLLM(by_stage={"Stage: extract_informed": [answer]}, replies=["not json"] * 20)
        return WritePipeline(executor, embedder, llm.chat())

    return pipe_for


async def sweep(
    executor: Executor,
    pipe: WritePipeline | Callable[[Item], WritePipeline],
    items: list[Item],
    progress: bool = True,
    per_agent: int = 250,
) -> Sweep:
    """Write every item and collect the failures: one agent per corpus and ``per_agent``
    consecutive items (a new agent after that keeps writes quick: the sweep looks for failures,
    growth is measured by bench_write)."""
    out = Sweep()
    agents: dict[str, str] = {}
    try:
        for n, item in enumerate(progress_bar(items, desc="write") if progress else items):
            corpus = item.source.split("#")[0].split(" ")[0]
            agent = agents.setdefault(
                f"{corpus}/{n // per_agent}", f"sweep-{corpus}-{uuid.uuid4().hex[:8]}"
            )
            try:
                writer = pipe(item) if callable(pipe) else pipe
                result = await writer.write(agent, item.text, item.speaker)
            except Exception as exc:  # counted, not raised: the sweep finds every kind
                out.fail(type(exc).__name__, item)
                continue
            out.written += 1
            out.facts += len(result.facts_added)
            if not result.success:
                out.fail(result.error or "success: false", item)
    finally:
        for agent in agents.values():
            await delete_agent(executor, agent)
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="write every N-th item")
    parser.add_argument(
        "--offset",
        type=int,
        default=0,
        help="with --every N: start at the offset-th item (0 to N-1)",
    )
    parser.add_argument("--limit", type=int, default=None, help="at most N items per corpus")
    parser.add_argument("--corpora", default=",".join(CORPORA))
    parser.add_argument(
        "--llm",
        action="store_true",
        help="MuSiQue through the LLM path, replaying the recorded extraction",
    )
    parser.add_argument(
        "--per-agent", type=int, default=250, help="consecutive items written into one agent"
    )
    args = parser.parse_args()
    settings = Settings()
    executor = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    embedder = MiniLMEmbedder(find_tokenizer(settings.home))
    await ensure_schema(executor, embedder.dimensions)
    if not 0 <= args.offset < args.every:
        parser.error("--offset must be between 0 and --every - 1")
    items = sample(
        args.every, corpora=tuple(args.corpora.split(",")), limit=args.limit, offset=args.offset
    )
    start = time.perf_counter()
    try:
        pipe: WritePipeline | Callable[[Item], WritePipeline] = (
            replaying(executor, embedder, recorded_extractions())
            if args.llm
            else WritePipeline(executor, embedder, None)
        )
        result = await sweep(executor, pipe, items, per_agent=args.per_agent)
    finally:
        await executor.close()
    took = time.perf_counter() - start
    print(
        f"\n{len(items)} items ({args.corpora}, every {args.every} from {args.offset}) "
        f"in {took:.0f} s "
        f"({len(items) / took:.1f}/s), {result.facts} facts added; "
        f"failed: {sum(result.failures.values())}"
    )
    for kind, count in result.failures.most_common():
        first = result.first[kind]
        print(f"  {count:5d}  {kind}\n         first: {first.source}: {first.text[:160]!r}")


if __name__ == "__main__":
    asyncio.run(main())
