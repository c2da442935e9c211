"""LoCoMo evidence-recall benchmark of the read pipeline (offline: no LLM, no rerank).

    .venv/bin/python -m tests.bench.locomo /work/shared/bench/locomo/locomo-dev.json

For every conversation (one agent each) the per-session ``observation`` facts are imported with
structured ``remember`` (subject = the speaker, valid_from/created_at = the session date,
evidence dia_id kept aside) and every turn becomes an Event. For each question of categories
1-4 three rankers produce one list of facts + events:

(a) Hippograph ``retrieve`` (planner, semantic + keyword + graph signals, activation, formula;
    facts and events merged by their scores),
(b) plain vector top-k: exact cosine over the same facts and events,
(c) BM25 only: full-text over the same facts and events (raw Lucene scores, same keywords).

An item hits when its dia_id is in the question's evidence. Reported: evidence recall@5/@10/@20
(share of evidence dia_ids found in the top k) and MRR (first hit). The dataset is CC BY-NC:
it is read from the given path and never copied. ``--conversations N`` / ``--questions N`` bound
the run; the default is everything (~2-3 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.admin import delete_agent
from graph.executor import Executor, connect
from graph.memory.read import Retriever
from graph.memory.read.planner import keywords, lucene_query
from graph.memory.read.search import index_min_score
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact, remember
from graph.progress import progress_bar
from graph.providers import Embedder, MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.settings import Settings

KS = (5, 10, 20)


class CachedEmbedder:
    """Memoises query vectors so the three rankers embed each question once."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dimensions = inner, inner.name, inner.dimensions
        self.cache: dict[str, list[float]] = {}

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for text, vec in zip(missing, await self.inner.embed(missing), strict=True):
                self.cache[text] = vec
        return [self.cache[t] for t in texts]


def parse_session_date(raw: str) -> datetime:
    """"1:56 pm on 8 May, 2023" → aware datetime (UTC)."""
    return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def evidence_ids(raw: Sequence[str]) -> set[str]:
    out: set[str] = set()
    for item in raw:
        out.update(p for p in re.split(r"[;,\s]+", item) if p)
    return out


@dataclass
class Conversation:
    agent_id: str
    facts: list[StructuredFact] = field(default_factory=list)
    events: list[StructuredEvent] = field(default_factory=list)
    speakers: list[str] = field(default_factory=list)
    dia_of: dict[str, set[str]] = field(default_factory=dict)  # item id → dia ids
    questions: list[dict[str, Any]] = field(default_factory=list)


def load_conversation(sample: dict[str, Any], run: str) -> Conversation:
    conv = sample["conversation"]
    c = Conversation(agent_id=f"bench-locomo-{sample['sample_id']}-{run}",
                     speakers=[conv["speaker_a"], conv["speaker_b"]])
    dates: dict[str, datetime] = {}
    event_of_dia: dict[str, str] = {}
    for key, value in conv.items():
        m = re.fullmatch(r"session_(\d+)", key)
        if not m or not isinstance(value, list):
            continue
        when = parse_session_date(conv[f"{key}_date_time"])
        dates[m.group(1)] = when
        for i, turn in enumerate(value):
            text = turn["text"]
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            eid = str(uuid.uuid4())
            c.events.append(StructuredEvent(text=text, speaker=turn["speaker"], id=eid,
                                            occurred_at=when + timedelta(seconds=i),
                                            source="locomo"))
            c.dia_of[eid] = {turn["dia_id"]}
            event_of_dia[turn["dia_id"]] = eid
    for key, per_speaker in sample["observation"].items():
        when = dates[re.search(r"session_(\d+)", key).group(1)]  # type: ignore[union-attr]
        for speaker, items in per_speaker.items():
            for text, dia in items:
                fid = str(uuid.uuid4())
                dias = evidence_ids(dia if isinstance(dia, list) else [dia])
                # provenance: the observation was extracted from these turns (FROM_EVENT)
                sources = [event_of_dia[d] for d in sorted(dias) if d in event_of_dia]
                c.facts.append(StructuredFact(text=text, subject=speaker, id=fid, speaker=speaker,
                                              created_at=when, valid_from=when,
                                              confidence=0.9, event_ids=sources))
                c.dia_of[fid] = dias
    c.questions = [q for q in sample["qa"] if q["category"] in (1, 2, 3, 4)]
    return c


@dataclass
class Metrics:
    recall: dict[int, float] = field(default_factory=lambda: dict.fromkeys(KS, 0.0))
    rr: float = 0.0
    n: int = 0
    ms: float = 0.0

    def add(self, ranked: list[str], dia_of: dict[str, set[str]], evidence: set[str],
            ms: float) -> None:
        self.n += 1
        self.ms += ms
        for k in KS:
            found: set[str] = set()
            for item in ranked[:k]:
                found |= dia_of.get(item, set()) & evidence
            self.recall[k] += len(found) / len(evidence)
        for rank, item in enumerate(ranked, 1):
            if dia_of.get(item, set()) & evidence:
                self.rr += 1.0 / rank
                break

    def row(self, name: str) -> str:
        n = max(1, self.n)
        cells = " ".join(f"{self.recall[k] / n:9.3f}" for k in KS)
        return f"{name:<22} {cells} {self.rr / n:8.3f} {self.ms / n:9.1f}"


async def hippograph(retriever: Retriever, agent: str, question: str) -> list[str]:
    result = await retriever.retrieve(agent, question, options={
        "enable_reranker": False, "topk_facts": 20, "topk_events": 20, "min_score": 0.0})
    items = [(f.scores.final, f.id) for f in result.facts]
    items += [(e.score, e.id) for e in result.events]
    return [i for _, i in sorted(items, key=lambda x: -x[0])][:20]


async def vector_baseline(ex: Executor, agent: str, vec: list[float]) -> list[str]:
    common = {"agent_id": agent, "vector": vec, "as_of": None, "limit": 20,
              "min_score": index_min_score(-1.0)}
    facts, events = await asyncio.gather(
        ex.run("read/semantic_facts_exact", {**common, "min_confidence": 0.0}, read=True),
        ex.run("read/semantic_events_exact", common, read=True))
    items = [(r["score"], r["fact"]["id"]) for r in facts]
    items += [(r["score"], r["event"]["id"]) for r in events]
    return [i for _, i in sorted(items, key=lambda x: -x[0])][:20]


async def bm25_baseline(ex: Executor, agent: str, question: str, vec: list[float]) -> list[str]:
    q = lucene_query(keywords(question, limit=32))
    if not q:
        return []
    common = {"agent_id": agent, "q": q, "k": 100_000, "vector": vec, "as_of": None,
              "limit": 20}
    facts, events = await asyncio.gather(
        ex.run("read/keyword_facts", {**common, "min_confidence": 0.0}, read=True),
        ex.run("read/keyword_events", common, read=True))
    items = [(r["score"], r["fact"]["id"]) for r in facts[0]["rows"]]
    items += [(r["score"], r["event"]["id"]) for r in events[0]["rows"]]
    return [i for _, i in sorted(items, key=lambda x: -x[0])][:20]


async def main(path: str, max_convs: int | None, max_questions: int | None) -> None:
    settings = Settings()
    ex = connect(settings.bolt_uri, settings.neo4j_user,
                 settings.neo4j_password.get_secret_value(), settings.neo4j_database)
    embedder = CachedEmbedder(MiniLMEmbedder(find_tokenizer(settings.home)))
    await ensure_schema(ex, embedder.dimensions)
    with open(path, encoding="utf-8") as fh:
        samples = json.load(fh)[:max_convs]
    run = uuid.uuid4().hex[:6]
    convs = [load_conversation(s, run) for s in samples]
    if max_questions is not None:
        for c in convs:
            c.questions = c.questions[:max_questions]
    started = time.perf_counter()
    try:
        total = sum(len(c.facts) + len(c.events) for c in convs)
        with progress_bar(total=total, desc="import (remember)", unit="item") as bar:
            for c in convs:
                done = [0]

                def progress(n: int, _total: int, done: list[int] = done) -> None:
                    bar.update(n - done[0])
                    done[0] = n

                await remember(ex, embedder, c.agent_id, facts=c.facts, events=c.events,
                               entities=[StructuredEntity(s, "person") for s in c.speakers],
                               progress=progress)
        import_s = time.perf_counter() - started
        questions = [(c, q) for c in convs for q in c.questions]
        await embedder.embed([q["question"] for _, q in questions])
        retriever = Retriever(ex, embedder)
        names = ("hippograph", "vector top-k", "bm25")
        metrics = {n: Metrics() for n in names}
        for c, q in progress_bar(questions, desc="questions", unit="q"):
            evidence = evidence_ids(q["evidence"])
            if not evidence:
                continue
            vec = (await embedder.embed([q["question"]]))[0]
            for name in names:
                t = time.perf_counter()
                if name == "hippograph":
                    ranked = await hippograph(retriever, c.agent_id, q["question"])
                elif name == "vector top-k":
                    ranked = await vector_baseline(ex, c.agent_id, vec)
                else:
                    ranked = await bm25_baseline(ex, c.agent_id, q["question"], vec)
                metrics[name].add(ranked, c.dia_of, evidence, (time.perf_counter() - t) * 1000)
        n_facts = sum(len(c.facts) for c in convs)
        n_events = sum(len(c.events) for c in convs)
        print(f"\nLoCoMo evidence recall — {len(convs)} conversations, {n_facts} observation "
              f"facts, {n_events} turns as events, {metrics['hippograph'].n} questions "
              f"(categories 1-4); import {import_s:.0f} s")
        print(f"{'ranker':<22} {'recall@5':>9} {'recall@10':>9} {'recall@20':>9} {'MRR':>8} "
              f"{'ms/query':>9}")
        for name in names:
            print(metrics[name].row(name))
        h = metrics["hippograph"].recall[10]
        for name in names[1:]:
            other = metrics[name].recall[10]
            print(f"recall@10 hippograph / {name}: {h / other if other else float('inf'):.3f}")
        print(f"total {time.perf_counter() - started:.0f} s")
    finally:
        for c in convs:
            await delete_agent(ex, c.agent_id)
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="locomo JSON (e.g. /work/shared/bench/locomo/locomo-dev.json)")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--questions", type=int, default=None, help="per conversation")
    args = parser.parse_args()
    asyncio.run(main(args.path, args.conversations, args.questions))
