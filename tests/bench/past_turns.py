"""Past turns: how far a superseded turn should be demoted (``past_turn_factor``).

    .venv/bin/python -m tests.bench.past_turns                  # e5, 24 people, every factor
    .venv/bin/python -m tests.bench.past_turns --embedder minilm --option '{"ranker": "formula"}'

One agent hears 24 people, each over a year: three homes and two jobs, every change said in a
turn and extracted as a fact (FROM_EVENT) that the next change closes (``valid_to``), plus three
turns of lasting facts (a pet, a hobby, a food) and one of small talk with none. The names, places
and dates are generated from a fixed seed. Four questions per person, ranked as LoCoMo's
turns+facts mode ranks them (facts and snippets merged by their scores, no rerank):

* now — "Where does Ana Souza live?", "Where does Ana Souza work?": the current home or job
  (its fact or its turn). R@1, MRR, and how many superseded turns of that person rank above it.
* then — "Where did Ana Souza live before moving to Braga?", "Where did Ana Souza work before
  Orion?": the previous home's or job's turn (its fact is closed, so only the turn holds it).
  R@5, R@10 and whether it is among the 8 best snippets (the default ``topk_events``).

Each ``--factor`` re-runs every question with that ``past_turn_factor`` (1 = no demotion). The
agent is deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.settings import Settings
from tests.bench.locomo import CachedEmbedder
from tests.bench.locomo_e5 import EMBEDDERS, make_embedder

FIRST = [
    "Ana",
    "Bruno",
    "Carla",
    "Diego",
    "Elisa",
    "Fabio",
    "Gabriela",
    "Heitor",
    "Iara",
    "Joao",
    "Karina",
    "Luis",
]
FIRST += [
    "Marta",
    "Nuno",
    "Olivia",
    "Paulo",
    "Quiteria",
    "Rafael",
    "Sofia",
    "Tiago",
    "Ursula",
    "Vitor",
    "Wanda",
    "Xavier",
]
LAST = [
    "Souza",
    "Lima",
    "Costa",
    "Rocha",
    "Alves",
    "Nunes",
    "Prado",
    "Telles",
    "Moura",
    "Viana",
    "Castro",
    "Brito",
]
CITIES = [
    "Curitiba",
    "Recife",
    "Porto",
    "Braga",
    "Lisbon",
    "Madrid",
    "Seville",
    "Lyon",
    "Turin",
    "Ghent",
    "Bergen",
    "Krakow",
]
CITIES += ["Salvador", "Natal", "Coimbra", "Faro", "Bilbao", "Graz"]
JOBS = [
    "Vertix",
    "Orion",
    "Altura",
    "Bentley",
    "Corvo",
    "Dunas",
    "Estrela",
    "Fjord",
    "Granito",
    "Helix",
    "Ipe",
    "Jatoba",
]
LASTING = [
    ("I have a cat called {x}.", "{n} has a cat called {x}", ["Mingau", "Tom", "Nina", "Bolt"]),
    ("On weekends I go {x}.", "{n} goes {x} on weekends", ["surfing", "hiking", "climbing"]),
    ("My favourite food is {x}.", "{n}'s favourite food is {x}", ["feijoada", "ramen", "paella"]),
]
SMALL_TALK = "What a rainy week it has been, I barely left the house."
BASE = {"enable_reranker": False, "topk_facts": 20, "topk_events": 20, "min_score": 0.0}
FACTORS = (1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2)


@dataclass
class Question:
    kind: str  # "now" | "then"
    text: str
    targets: set[str]  # item ids that answer it (a fact and its turn, or a turn)
    stale: set[str] = field(default_factory=set)  # the person's superseded turns


@dataclass
class Story:
    entities: list[StructuredEntity] = field(default_factory=list)
    events: list[StructuredEvent] = field(default_factory=list)
    facts: list[StructuredFact] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def _said(story: Story, name: str, text: str, fact: str | None, at: datetime, until: Any) -> str:
    """One turn and, with ``fact``, the fact extracted from it (closed at ``until``)."""
    eid = str(uuid.uuid4())
    story.events.append(StructuredEvent(text, name, at, eid))
    if fact is not None:
        story.facts.append(
            StructuredFact(
                fact, name, id=f"{eid}-f", event_ids=[eid], created_at=at, valid_from=at,
                valid_to=until,
            )
        )  # fmt: skip
    return eid


def _person(story: Story, rng: random.Random, name: str, start: datetime) -> None:
    homes, jobs = rng.sample(CITIES, 3), rng.sample(JOBS, 2)
    home_at = [start, start + timedelta(days=90), start + timedelta(days=200)]
    job_at = [start + timedelta(days=10), start + timedelta(days=150)]
    home_says = ["I live in {x}.", "I moved to {x} last month.", "We just moved to {x}!"]
    h = [
        _said(story, name, say.format(x=city), f"{name} lives in {city}", at, nxt)
        for say, city, at, nxt in zip(home_says, homes, home_at, [*home_at[1:], None], strict=True)
    ]
    job_says = ["I work at {x} as an engineer.", "I left my old job and joined {x}."]
    j = [
        _said(story, name, say.format(x=job), f"{name} works at {job}", at, nxt)
        for say, job, at, nxt in zip(job_says, jobs, job_at, [job_at[1], None], strict=True)
    ]
    for i, (say, fact, options) in enumerate(LASTING):
        x = rng.choice(options)
        _said(story, name, say.format(x=x), fact.format(n=name, x=x), start + timedelta(days=30 + i * 40), None)  # fmt: skip
    _said(story, name, SMALL_TALK, None, start + timedelta(days=60), None)
    stale = {h[0], h[1], j[0]}
    story.questions += [
        Question("now", f"Where does {name} live?", {h[2], f"{h[2]}-f"}, stale),
        Question("now", f"Where does {name} work?", {j[1], f"{j[1]}-f"}, stale),
        Question("then", f"Where did {name} live before moving to {homes[2]}?", {h[1]}),
        Question("then", f"Where did {name} work before {jobs[1]}?", {j[0]}),
    ]
    story.entities.append(StructuredEntity(name, "person"))


def make_story(people: int, seed: int = 7) -> Story:
    rng = random.Random(seed)
    story = Story()
    names = [f"{f} {rng.choice(LAST)}" for f in FIRST[:people]]
    for i, name in enumerate(names):
        _person(story, rng, name, datetime(2025, 1, 6, 18, tzinfo=UTC) + timedelta(days=3 * i))
    story.entities += [StructuredEntity(c, "place") for c in CITIES]
    story.entities += [StructuredEntity(j, "organization") for j in JOBS]
    return story


@dataclass
class Tally:
    now: int = 0
    now_r1: float = 0.0
    now_rr: float = 0.0
    stale_above: int = 0
    then: int = 0
    then_r5: float = 0.0
    then_r10: float = 0.0
    then_shown: float = 0.0

    def add(self, q: Question, ranked: list[str], snippets: list[str]) -> None:
        first = next((i for i, item in enumerate(ranked) if item in q.targets), None)
        if q.kind == "now":
            self.now += 1
            self.now_r1 += first == 0
            self.now_rr += 0.0 if first is None else 1.0 / (first + 1)
            above = ranked if first is None else ranked[:first]
            self.stale_above += sum(item in q.stale for item in above)
        else:
            self.then += 1
            self.then_r5 += first is not None and first < 5
            self.then_r10 += first is not None and first < 10
            self.then_shown += bool(q.targets & set(snippets[:8]))

    def row(self, factor: float, ms: float) -> str:
        n, t = max(1, self.now), max(1, self.then)
        return (
            f"{factor:>6.2f} {self.now_r1 / n:7.3f} {self.now_rr / n:7.3f} "
            f"{self.stale_above / n:9.2f} {self.then_r5 / t:7.3f} {self.then_r10 / t:7.3f} "
            f"{self.then_shown / t:9.3f} {ms:8.1f}"
        )


async def measure(
    retriever: Retriever, agent: str, story: Story, factor: float, extra: dict[str, Any]
) -> tuple[Tally, float]:
    tally, spent = Tally(), 0.0
    options = {**BASE, **extra, "past_turn_factor": factor}
    for q in progress_bar(story.questions, desc=f"factor {factor}", unit="q"):
        t = time.perf_counter()
        result = await retriever.retrieve(agent, q.text, options=options)
        spent += time.perf_counter() - t
        items = [(f.scores.final, f.id) for f in result.facts]
        items += [(e.score, e.id) for e in result.events]
        ranked = [i for _, i in sorted(items, key=lambda x: -x[0])][:20]
        tally.add(q, ranked, [e.id for e in result.events])
    return tally, 1000 * spent / max(1, len(story.questions))


async def main(
    people: int, factors: list[float], embedder_name: str, extra: dict[str, Any]
) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    embedder = CachedEmbedder(make_embedder(embedder_name, settings))
    await ensure_schema(ex, embedder.dimensions)
    story = make_story(people)
    agent = f"bench-past-turns-{uuid.uuid4().hex[:6]}"
    try:
        await remember(
            ex, embedder, agent, entities=story.entities, events=story.events, facts=story.facts
        )
        retriever = Retriever(ex, embedder)
        await measure(retriever, agent, story, 1.0, extra)  # plans every statement first
        rows = [(f, *(await measure(retriever, agent, story, f, extra))) for f in factors]
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"\npast turns — {people} people, {len(story.events)} turns, {len(story.facts)} "
            f"facts ({sum(f.valid_to is not None for f in story.facts)} closed), "
            f"{len(story.questions)} questions; embedder {embedder.name}; options {extra or '{}'}; "
            f"load average {load}"
        )
        print(
            f"{'factor':>6} {'now R@1':>7} {'now MRR':>7} {'stale>ans':>9} {'then R@5':>7} "
            f"{'then R@10':>7} {'then shown':>9} {'ms/q':>8}"
        )
        for factor, tally, ms in rows:
            print(tally.row(factor, ms))
    finally:
        await delete_agent(ex, agent)
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=24, help=f"at most {len(FIRST)}")
    parser.add_argument("--factor", type=float, action="append", help="default: " + str(FACTORS))
    parser.add_argument("--embedder", choices=EMBEDDERS, default=None)
    parser.add_argument("--option", default="{}", help="extra retrieve options (JSON)")
    args = parser.parse_args()
    asyncio.run(
        main(
            min(args.people, len(FIRST)),
            args.factor or list(FACTORS),
            args.embedder or Settings().embedder,
            json.loads(args.option),
        )
    )
