"""Synthetic bulk import rate: ``.venv/bin/python -m tests.bench.bench_import_synthetic
[--facts N] [--agents A] [--entities-per-fact K] [--batch-size N] [--profile]``.

Imports ``--facts`` facts per agent for ``--agents`` fresh agents through ``remember`` with
caller-supplied vectors (random unit vectors of the configured embedder's size, made before
the clock starts), so the figure is the database-bound rate a large import can expect. Every
fact has a subject and ``K`` mentioned entities drawn from a pool of ``N / 5`` names per
agent, and one relation between its subject and its first mentioned entity. Prints facts/s,
entities/s and relations/s over all agents (``--profile``: seconds per statement, in commits
and in Python); the agents are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
import uuid

from graph.agent_deletion import delete_agent
from graph.memory.remember import BATCH_SIZE
from graph.memory.services import Admin
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.composition import build_embedder, connect_executor
from server.settings import Settings
from tests.bench.bench_import import Meter, MeteredExecutor, print_profile

WORDS = [
    "river",
    "harbour",
    "council",
    "museum",
    "railway",
    "festival",
    "library",
    "bridge",
    "school",
    "market",
    "orchestra",
    "village",
    "mountain",
    "island",
    "factory",
    "college",
    "church",
    "theatre",
    "airport",
    "stadium",
    "garden",
]


def _vector(rng: random.Random, dims: int) -> list[float]:
    v = [rng.gauss(0.0, 1.0) for _ in range(dims)]
    norm = sum(x * x for x in v) ** 0.5 or 1.0
    return [x / norm for x in v]


def corpus(
    n_facts: int, k: int, dims: int, seed: int
) -> tuple[list[StructuredEntity], list[StructuredFact], list[StructuredRelation]]:
    """One agent's synthetic import (names, texts and vectors from ``seed``)."""
    rng = random.Random(seed)
    names = [f"{rng.choice(WORDS).title()} {i}" for i in range(max(2, n_facts // 5))]
    entities = [StructuredEntity(n, "thing", embedding=_vector(rng, dims)) for n in names]
    facts, relations = [], []
    for i in range(n_facts):
        subject, *others = rng.sample(names, k + 1)
        text = f"{subject} is near the {rng.choice(WORDS)} of {others[0]} (record {i})."
        facts.append(
            StructuredFact(text, subject, entities=others, id=None, embedding=_vector(rng, dims))
        )
        relations.append(StructuredRelation(subject, others[0], "near"))
    return entities, facts, relations


async def run(args: argparse.Namespace) -> None:
    settings = Settings()
    ex = connect_executor(settings)
    embedder = build_embedder(settings)
    await ensure_schema(ex, embedder.dimensions)
    meter = Meter()
    admin = Admin(MeteredExecutor(ex, meter) if args.profile else ex, embedder, pii_mode="off")
    data = [
        corpus(args.facts, args.entities_per_fact, embedder.dimensions, seed)
        for seed in range(args.agents)
    ]
    agents = [f"bench-synth-{uuid.uuid4().hex[:8]}" for _ in range(args.agents)]
    bar = progress_bar(total=args.agents * args.facts, unit="fact", desc="remember")
    facts = entities = relations = 0
    try:
        t = time.perf_counter()
        for agent, (ents, fs, rels) in zip(agents, data, strict=True):
            res = await admin.remember(agent, ents, fs, rels, batch_size=args.batch_size)
            facts += res.facts_added
            entities += res.entities_total
            relations += res.relations
            bar.update(len(fs))
        seconds = time.perf_counter() - t
        bar.close()
    finally:
        for agent in agents:
            await delete_agent(ex, agent)
        await ex.close()
    print(
        f"\nsynthetic import: {args.agents} agent(s) x {args.facts} facts, caller vectors, "
        f"batch {args.batch_size}\n"
        f"  seconds      {seconds:.1f}\n"
        f"  facts/s      {facts / seconds:.0f}\n"
        f"  entities/s   {entities / seconds:.0f}\n"
        f"  relations/s  {relations / seconds:.0f}"
    )
    if args.profile:
        print_profile(meter, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", type=int, default=10_000, help="facts per agent")
    ap.add_argument("--agents", type=int, default=1)
    ap.add_argument("--entities-per-fact", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    ap.add_argument("--profile", action="store_true", help="seconds per statement, commits")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
