"""Everything a process would otherwise do on its first requests, done when it starts.

Without it a fresh API or worker process answers its first ``retrieve`` and ``write`` in
seconds where later ones take tens of milliseconds: the embedder's first run, the offline
extractor's spaCy pipeline (loaded lazily) and Neo4j planning the hot statements land on the
first user. :func:`warm_start`
does them up front:

1. the embedder's first runs (a text as stored texts are embedded, one as questions are);
   offline (no LLM) the extractor's spaCy pipeline starts loading in a thread meanwhile, beside
   the steps after it until the write path needs it;
2. the read statements: :func:`graph.memory.read.warmup.warm_up` (for agents that hold nothing,
   one per size of agent id: a retrieve with keywords and one without, the planner catalog,
   spreading activation and the exact scan), then a few questions of the store's own facts
   (:func:`graph.memory.read.warmup.warm_read_paths`, agents from the largest to the smallest)
   and one through the process's own retriever for three of those agents and the largest of
   each id size: the statements a retrieve runs only when an agent holds facts;
3. offline: the write path, messages of several facts, of one and of none
   (:data:`WARMUP_MESSAGES`) written for each empty agent and for the largest agent of each id
   size through :class:`RollbackExecutor`: every statement runs (so Neo4j plans it,
   for the parameter types a real agent's rows have) and every transaction is rolled back;
   then one message is written and committed for an agent of its own, deleted right after
   (:func:`_committed_write`: the commit's own work). With an LLM it is skipped (it would call
   the LLM);
4. the ``extra`` steps of the layers above (the API: every kind of GraphQL query it serves,
   ``server.warm_api``);
5. the garbage collector: the start-up leaves ~150k objects (models, modules, the warm-up's
   garbage), and the first full collection after it paused a first request for 0.1–0.2 s.
   One full collection now, then :func:`gc.freeze`: what survives lives as long as the process,
   and later full collections no longer walk it.

Steps 2–4 query the database, in two chains at once: step 2 then step 4, beside step 3 (Neo4j
plans a statement on one core; on 2 cores shared with other work, a just-started server's
warm-up took 22.8 s in two chains against 26.7 s in one; docs/benchmarks.md, First answers).
With ``turn`` (the API's worker processes, ``server.start_group``) one process runs them at a
time: the first plans every statement, the
next find the plans cached and only run a retrieve and a write per agent and the API's
queries (their own code paths).

The API reports ready (``/readyz``) only once this has finished; the standalone worker runs it
before it leases its first job. Nothing stays stored; a step that fails is reported, not raised:
the first request then pays for it, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, LiteralString, TypeVar

from graph.agent_deletion import delete_agent
from graph.errors import GraphError
from graph.executor import Executor, Transaction
from graph.memory.facade import Memory
from graph.memory.read.warmup import (
    WARMUP_AGENTS,
    WARMUP_QUERY,
    by_id_size,
    spread,
    warm_read_paths,
    warm_up,
)
from graph.memory.write.extract.offline import load_nlp
from graph.memory.write.pipeline import WritePipeline
from graph.page_cache import agent_sizes
from graph.providers.base import embed_queries

__all__ = [
    "WARMUP_MESSAGE",
    "WARMUP_MESSAGES",
    "RollbackExecutor",
    "Step",
    "WarmStart",
    "warm_start",
]

T = TypeVar("T")
# Questions of the store's own facts, three per agent: the largest, a middling and the smallest.
WARM_QUESTIONS = 9

# Names people, a place, an employer and a time: the extractor and the resolution reads take
# the paths a real message takes.
WARMUP_MESSAGE = "Ana moved to Curitiba last week and started working at Acme with Bruno."
# And messages of one fact and of none: the write statements take lists of rows, and Neo4j
# plans a statement again for a list of another size bucket (none, one, 2-10 rows).
WARMUP_MESSAGES = (WARMUP_MESSAGE, "Ana moved to Recife.", "I love it.")


class _RolledBack(Exception):
    """Raised at the end of a unit of work so its transaction rolls back; carries the result."""

    def __init__(self, result: object) -> None:
        super().__init__("rolled back")
        self.result = result


class RollbackExecutor:
    """An :class:`Executor` whose writes all roll back: each write transaction (and each
    write statement, run as one) does all its work and is then rolled back, so a pipeline
    runs every statement it would run and the database is left as it was. Reads pass
    through. ``statements`` lists the names run inside its transactions."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.statements: list[str] = []

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        if read:
            return await self.inner.run(name, params, read=True)

        async def one(tx: Transaction) -> list[dict[str, Any]]:
            return await tx.run(name, **(params or {}))

        return await self.write(one)

    async def run_text(
        self, query: LiteralString, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        if read:
            return await self.inner.run_text(query, params, read=True)
        raise NotImplementedError("a warm-up runs named statements only")

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        async def rolled_back(tx: Transaction) -> T:
            try:
                result = await work(tx)
            finally:
                self.statements += tx.statements
            raise _RolledBack(result)

        try:
            await self.inner.write(rolled_back)
        except _RolledBack as done:
            return done.result  # type: ignore[return-value]
        raise AssertionError("unreachable: the unit of work always raises")

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        async def recorded(tx: Transaction) -> T:
            try:
                return await work(tx)
            finally:
                self.statements += tx.statements

        return await self.inner.read(recorded)

    async def ping(self) -> bool:
        return await self.inner.ping()

    async def close(self) -> None:
        """The inner executor belongs to the process: it is not closed here."""


@dataclass
class WarmStart:
    """What :func:`warm_start` did: seconds per step, and the steps that failed."""

    seconds: dict[str, float] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    @property
    def total_s(self) -> float:
        return sum(self.seconds.values())


Step = tuple[str, Callable[[], Awaitable[None]]]


async def warm_start(
    memory: Memory,
    *,
    log: Callable[[str], object] | None = None,
    extra: Sequence[Step] = (),
    turn: Callable[[], AbstractAsyncContextManager[bool]] | None = None,
) -> WarmStart:
    """Warm this process's services up (see the module), with the ``extra`` steps of the
    layers above (the API's own requests) after the read statements, beside the write path
    (:func:`_run_chains`). ``turn``: held around the
    steps that query the database (the API's processes take turns: ``server.start_group``;
    the time waiting for it is ``turn``); it yields False when another process has already
    run them (Neo4j holds the plans: this process runs its own code paths once). Never
    raises but for cancellation."""
    report = WarmStart()
    offline = memory.llm is None

    async def embed() -> None:
        await memory.embedder.embed([WARMUP_MESSAGE])  # as stored texts are
        await embed_queries(memory.embedder, [WARMUP_QUERY])  # as questions are

    # The spaCy pipeline loads in a thread from the start, beside the embedder and the read
    # statements (Neo4j's planning runs on another core); the write path waits for it.
    loading = asyncio.ensure_future(asyncio.to_thread(load_nlp)) if offline else None

    async def spacy() -> None:
        if loading is not None:
            await loading

    # The store's agents and their sizes, listed once both database chains need them.
    listing: list[asyncio.Future[list[tuple[str, int]]]] = []

    async def listed() -> list[tuple[str, int]]:
        if not listing:
            listing.append(asyncio.ensure_future(agent_sizes(memory.executor)))
        return await listing[0]

    # False once another process of the group has planned everything (``turn``): this one
    # then only runs its own code paths once (a retrieve and a write per agent).
    plans = [True]

    async def reads() -> None:
        sizes = await listed()
        if plans[0]:
            await warm_up(memory.retriever)
            cfg = memory.retriever.config
            await warm_read_paths(memory.executor, cfg, sizes, questions=WARM_QUESTIONS)
        # The served retriever itself, with the process's model, on agents that hold facts
        # (one of each agent id size among them).
        for agent in dict.fromkeys([*spread(sizes, 3 if plans[0] else 0), *by_id_size(sizes)]):
            with contextlib.suppress(GraphError):  # e.g. an agent of another embedder
                await memory.retriever.retrieve(agent, WARMUP_QUERY)

    async def writes() -> None:
        # The empty agents, then the largest one of each id size: Neo4j keys a plan by its
        # parameters' types and sizes too, and only an agent with entities and facts fills the
        # rows of every statement.
        agents = [*WARMUP_AGENTS, *by_id_size(await listed())]
        await _rolled_back(memory, agents, WARMUP_MESSAGES if plans[0] else WARMUP_MESSAGES[:1])
        if plans[0]:
            await _committed_write(memory)

    local: list[Step] = [("embedder", embed)]
    # Two chains at once: the reads (then the layers' own requests, which read too) beside
    # the write path. Neo4j plans each statement on one core, so two plans are made at a time.
    chains: list[list[Step]] = [[("read statements", reads), *extra]]
    if offline:
        chains.append([("extractor", spacy), ("write path", writes)])
    await _run_steps(local, report, log)
    if turn is None:
        await _run_chains(chains, report, log)
    else:  # one process of the group at a time: the first plans, the others find it planned
        started = time.perf_counter()
        async with turn() as first:
            report.seconds["turn"] = time.perf_counter() - started
            plans[0] = first
            await _run_chains(chains, report, log)
    await _run_steps([("collector", _collector)], report, log)
    return report


async def _rolled_back(memory: Memory, agents: Sequence[str], messages: Sequence[str]) -> None:
    """Write each of ``messages`` for each of ``agents`` through :class:`RollbackExecutor`
    (every statement runs, nothing stays)."""
    writer = memory.writer
    pipeline = WritePipeline(
        RollbackExecutor(memory.executor), writer.embedder, None, writer.config
    )
    for agent in agents:
        for message in messages:
            # best effort: e.g. an agent of another embedder refuses this one's vectors
            with contextlib.suppress(GraphError):
                await pipeline.write(agent, message, "Ana")


async def _committed_write(memory: Memory) -> None:
    """One message written and committed for an agent of its own, which is then deleted: a
    rolled-back transaction never reaches the commit (the indexes' updates, the transaction
    log), and the first user's write paid for that on a just-started server (measured in one
    process after the rest of the warm-up: 449-465 ms, then 233-259 ms with this)."""
    agent = f"hg-{uuid.uuid4().hex[:7]}"  # as short as "demo": the same plan-size bucket
    try:
        await memory.writer.write(agent, WARMUP_MESSAGE, "Ana")
    finally:
        await delete_agent(memory.executor, agent)


async def _collector() -> None:
    gc.collect()
    gc.freeze()


async def _run_chains(
    chains: Sequence[Sequence[Step]], report: WarmStart, log: Callable[[str], object] | None
) -> None:
    """Run the chains concurrently, each one's steps in order; ``report`` lists the steps in
    the chains' order whichever finishes first."""
    for chain in chains:
        for name, _ in chain:
            report.seconds[name] = 0.0
    await asyncio.gather(*(_run_steps(chain, report, log) for chain in chains))


async def _run_steps(
    steps: Sequence[Step], report: WarmStart, log: Callable[[str], object] | None
) -> None:
    """Run each step, timed into ``report``; a failing one is recorded and logged."""
    for name, step in steps:
        started = time.perf_counter()
        try:
            await step()
        except Exception as exc:  # a warm-up must never stop the process
            report.failed[name] = f"{type(exc).__name__}: {exc}"
            if log is not None:
                log(f"warm-up step {name!r} failed (the first request does it instead): {exc}")
        report.seconds[name] = time.perf_counter() - started
