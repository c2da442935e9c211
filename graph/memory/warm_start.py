"""Everything a process would otherwise do on its first requests, done when it starts.

A fresh API or worker process answered its first ``retrieve`` in seconds where later ones take
tens of milliseconds: the embedder's first run, the offline extractor's spaCy pipeline (loaded
lazily) and Neo4j planning the hot statements all landed on the first user. :func:`warm_start`
does them up front, in order:

1. the embedder's first run (one short text);
2. offline (no LLM): the extractor's spaCy pipeline;
3. the read statements (:func:`graph.memory.read.warmup.warm_up`: one retrieve of an agent that
   holds nothing, the bridge and the exact scan);
4. offline: the write path, as a dry run of one message for that agent (extraction, the
   embeddings of its names and facts, the resolution and reconciliation reads in a read
   transaction). A dry run stores nothing; with an LLM it is skipped (it would call the LLM).

The API reports ready (``/readyz``) only once this has finished; the standalone worker runs it
before it leases its first job. It only reads; a step that fails is reported, not raised: the
first request then pays for it, as before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from graph.memory.facade import Memory
from graph.memory.read.warmup import WARMUP_AGENT, warm_up
from graph.memory.write.offline import load_nlp

__all__ = ["WARMUP_MESSAGE", "WarmStart", "warm_start"]

# Names people, a place, an employer and a time: the extractor and the resolution reads take
# the paths a real message takes.
WARMUP_MESSAGE = "Ana moved to Curitiba last week and started working at Acme with Bruno."


@dataclass
class WarmStart:
    """What :func:`warm_start` did: seconds per step, and the steps that failed."""

    seconds: dict[str, float] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    @property
    def total_s(self) -> float:
        return sum(self.seconds.values())


async def warm_start(memory: Memory, *, log: Callable[[str], object] | None = None) -> WarmStart:
    """Warm this process's services up (see the module); never raises but for cancellation."""
    report = WarmStart()
    offline = memory.llm is None

    async def embed() -> None:
        await memory.embedder.embed([WARMUP_MESSAGE])

    async def spacy() -> None:
        await asyncio.to_thread(load_nlp)

    async def reads() -> None:
        await warm_up(memory.retriever)

    async def writes() -> None:
        await memory.writer.write(WARMUP_AGENT, WARMUP_MESSAGE, "Ana", dry_run=True)

    steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [("embedder", embed)]
    if offline:
        steps.append(("extractor", spacy))
    steps.append(("read statements", reads))
    if offline:
        steps.append(("write path", writes))
    for name, step in steps:
        started = time.perf_counter()
        try:
            await step()
        except Exception as exc:  # a warm-up must never stop the process
            report.failed[name] = f"{type(exc).__name__}: {exc}"
            if log is not None:
                log(f"warm-up step {name!r} failed (the first request does it instead): {exc}")
        report.seconds[name] = time.perf_counter() - started
    return report
