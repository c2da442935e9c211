"""Bulk import benchmark: ``.venv/bin/python -m tests.bench.bench_import [--limit N] [--vectors]
[--triple-facts] [--batch-size N] [--profile] [--keep]``.

Imports the MuSiQue passages of ``shared/bench/multihop`` with a real LLM's recorded entities
and triples into ONE fresh agent, through ``Admin.remember`` — the call behind the GraphQL
``remember`` mutation and ``hippograph remember`` — with the configured embedder (MiniLM by
default) against the real Neo4j:

- every passage is a fact (its title the subject, its recorded entities mentioned);
- every recorded entity is declared (type ``thing``), every triple is a relation whose evidence
  is its passage; ``--triple-facts`` also stores each triple as a fact about its subject (what
  the LLM write path makes of it);
- ``--vectors``: the caller supplies every vector (computed before the clock starts, with the
  same embedder), so the figure is the database-bound rate.

Prints seconds, passages/s, facts/s, entities/s, relations/s, round trips (executor calls) and
statements; ``--profile`` adds where the seconds went (embedding, each statement, the rest).
The agent is deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from graph.agent_deletion import delete_agent
from graph.executor import Executor, Transaction
from graph.memory.remember import BATCH_SIZE
from graph.memory.services import Admin
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.progress import progress_bar
from graph.providers import Embedder
from graph.schema import ensure_schema
from server.composition import build_embedder, connect_executor
from server.settings import Settings
from tests.bench.corpus_texts import BENCH
from tests.fakes import WrappedExecutor

T = TypeVar("T")


@dataclass
class Corpus:
    entities: list[StructuredEntity]
    facts: list[StructuredFact]
    relations: list[StructuredRelation]
    passages: int


def load_corpus(limit: int | None, triple_facts: bool) -> Corpus:
    """The MuSiQue passages with their recorded extraction as structured import lists."""
    docs = json.loads((BENCH / "multihop/musique-openie-gpt35.json").read_text())["docs"]
    docs = docs[:limit] if limit else docs
    entities: dict[str, StructuredEntity] = {}
    facts: list[StructuredFact] = []
    relations: list[StructuredRelation] = []
    for i, doc in enumerate(docs):
        triples = [
            t
            for t in doc["extracted_triples"]
            if isinstance(t, list)
            and len(t) == 3
            and all(isinstance(x, str) and x.strip() for x in t)
        ]
        names = [
            n
            for n in dict.fromkeys(
                [*doc["extracted_entities"], *(x for t in triples for x in (t[0], t[2]))]
            )
            if isinstance(n, str) and n.strip()
        ]
        for n in names:
            entities.setdefault(n.casefold(), StructuredEntity(name=n, type="thing"))
        pid = f"musique-{i}"
        facts.append(
            StructuredFact(
                text=f"{doc['title']}\n{doc['text']}",
                subject=doc["title"],
                entities=names[:100],
                id=pid,
                source_context="musique",
            )
        )
        for s, p, o in triples:
            relations.append(StructuredRelation(source=s, target=o, type=p, evidence_fact_id=pid))
            if triple_facts:
                facts.append(
                    StructuredFact(
                        text=f"{s} {p} {o}.", subject=s, entities=[o], source_context="musique"
                    )
                )
    return Corpus(list(entities.values()), facts, relations, len(docs))


@dataclass
class Meter:
    """Seconds per statement name and in the embedder, executor calls."""

    statements: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    calls: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    embed_s: float = 0.0
    embed_texts: int = 0
    tx_s: float = 0.0  # whole transactions: their statements, commit and session


class TimedTx:
    """A transaction whose ``run`` is timed per statement name."""

    def __init__(self, tx: Transaction, meter: Meter) -> None:
        self.tx, self.meter = tx, meter

    async def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        t = time.perf_counter()
        try:
            return await self.tx.run(name, **params)
        finally:
            self.meter.statements[name] += time.perf_counter() - t
            self.meter.calls[name] += 1


class MeteredExecutor(WrappedExecutor):
    """Counts executor calls (round trips) and times every statement of a unit of work."""

    def __init__(self, inner: Executor, meter: Meter) -> None:
        super().__init__(inner)
        self.meter = meter

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.round_trips += 1
        t = time.perf_counter()
        try:
            return await self.inner.write(lambda tx: work(TimedTx(tx, self.meter)))  # type: ignore[arg-type]
        finally:
            self.meter.tx_s += time.perf_counter() - t

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.round_trips += 1
        t = time.perf_counter()
        try:
            return await self.inner.read(lambda tx: work(TimedTx(tx, self.meter)))  # type: ignore[arg-type]
        finally:
            self.meter.tx_s += time.perf_counter() - t


class TimedEmbedder:
    """The configured embedder, with the seconds spent in it counted."""

    def __init__(self, inner: Embedder, meter: Meter) -> None:
        self.inner, self.meter = inner, meter
        self.name, self.dimensions = inner.name, inner.dimensions

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        t = time.perf_counter()
        try:
            return await self.inner.embed(texts)
        finally:
            self.meter.embed_s += time.perf_counter() - t
            self.meter.embed_texts += len(texts)


async def with_vectors(corpus: Corpus, embedder: Embedder) -> Corpus:
    """The corpus with caller-supplied vectors (entity names, fact texts)."""
    ent_vecs = await embedder.embed([e.name for e in corpus.entities])
    fact_vecs = await embedder.embed([f.text for f in corpus.facts])
    return replace(
        corpus,
        entities=[replace(e, embedding=v) for e, v in zip(corpus.entities, ent_vecs, strict=True)],
        facts=[replace(f, embedding=v) for f, v in zip(corpus.facts, fact_vecs, strict=True)],
    )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings()
    corpus = load_corpus(args.limit, args.triple_facts)
    meter = Meter()
    inner = connect_executor(settings)
    ex = MeteredExecutor(inner, meter)
    base = build_embedder(settings)
    await ensure_schema(inner, base.dimensions)
    if args.vectors:
        t = time.perf_counter()
        corpus = await with_vectors(corpus, base)
        print(f"(caller vectors computed in {time.perf_counter() - t:.1f} s, not timed)")
    embedder = TimedEmbedder(base, meter)
    admin = Admin(ex, embedder, pii_mode=settings.pii_mode)
    agent = f"bench-import-{uuid.uuid4().hex[:8]}"
    bar = progress_bar(total=0, unit="row", desc="remember")

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        t = time.perf_counter()
        result = await admin.remember(
            agent,
            corpus.entities,
            corpus.facts,
            corpus.relations,
            progress=progress,
            batch_size=args.batch_size,
        )
        seconds = time.perf_counter() - t
        bar.close()
        if args.repeat:  # the same import again: everything known, nothing duplicated
            t = time.perf_counter()
            again = await admin.remember(
                agent, corpus.entities, corpus.facts, corpus.relations, batch_size=args.batch_size
            )
            print(
                f"re-import: {time.perf_counter() - t:.2f} s, "
                f"facts added {again.facts_added}, unchanged {again.facts_unchanged}"
            )
    finally:
        if not args.keep:
            await delete_agent(inner, agent)
        await inner.close()
    out = {
        "passages": corpus.passages,
        "facts": len(corpus.facts),
        "entities": result.entities_total,
        "relations": result.relations,
        "seconds": round(seconds, 2),
        "passages_per_s": round(corpus.passages / seconds, 1),
        "facts_per_s": round(result.facts_added / seconds, 1),
        "entities_per_s": round(result.entities_total / seconds, 1),
        "relations_per_s": round(result.relations / seconds, 1),
        "round_trips": ex.round_trips,
        "statements": sum(meter.calls.values()),
        "embed_s": round(meter.embed_s, 2),
        "embedded_texts": meter.embed_texts,
        "complete": result.complete,
    }
    rows = [(k, v) for k, v in out.items()]
    width = max(len(k) for k, _ in rows)
    print(
        f"\nbulk import of {corpus.passages} MuSiQue passages "
        f"({'caller vectors' if args.vectors else base.name}, batch {args.batch_size}"
        f"{', triple facts' if args.triple_facts else ''})"
    )
    for k, v in rows:
        print(f"  {k.ljust(width)}  {v}")
    if args.profile:
        print_profile(meter, seconds)
    return out


def print_profile(meter: Meter, seconds: float) -> None:
    """Where the seconds of a metered import went: embedding, each statement, the commits
    (a transaction's time beyond its statements) and the rest (Python)."""
    stmt_s = sum(meter.statements.values())
    commit_s = meter.tx_s - stmt_s
    print("\nwhere the seconds went")
    print(f"  {'embedding'.ljust(28)} {meter.embed_s:7.2f} s  ({meter.embed_texts} texts)")
    for name, s in sorted(meter.statements.items(), key=lambda kv: -kv[1]):
        print(f"  {name.ljust(28)} {s:7.2f} s  ({meter.calls[name]} calls)")
    print(f"  {'commits, sessions'.ljust(28)} {commit_s:7.2f} s")
    rest = seconds - meter.embed_s - meter.tx_s
    print(f"  {'rest (Python)'.ljust(28)} {rest:7.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="first N passages only")
    ap.add_argument("--vectors", action="store_true", help="caller-supplied vectors")
    ap.add_argument(
        "--triple-facts",
        action="store_true",
        help="also store every triple as a fact about its subject",
    )
    ap.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    ap.add_argument("--profile", action="store_true", help="seconds per statement and embedding")
    ap.add_argument("--repeat", action="store_true", help="time a second, identical import")
    ap.add_argument("--keep", action="store_true", help="keep the agent (default: delete it)")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args()
    out = asyncio.run(run(args))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)


if __name__ == "__main__":
    main()
