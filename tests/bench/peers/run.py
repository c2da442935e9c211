"""Orchestration of the peers benchmark: load, rank, measure, report (see the package docstring)."""

from __future__ import annotations

import re
import sys
import uuid
from dataclasses import dataclass, replace
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact
from graph.progress import progress_bar
from tests.bench.locomo import Conversation, evidence_ids, load_conversation
from tests.bench.peers.fusion import scaled_copies
from tests.bench.peers.graphiti_peer import GraphitiPeer
from tests.bench.peers.rankers import Ranker, VectorTable, timed
from tests.bench.peers.report import RankerStats

GRAPHITI = "graphiti search()"
MODES = ("facts only", "facts + turns")
LATENCY_RANKERS = ("hippograph", GRAPHITI, "vector top-k", "bm25 (neo4j full-text)")
WARMUP = 3


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@dataclass
class Corpus:
    """One LoCoMo conversation loaded twice: facts only, and facts + turns (separate agents)."""

    facts: Conversation
    turns: Conversation
    group: str  # Graphiti group id (facts only)
    all_questions: list[str]  # every question of categories 1-4 (for the latency table)


def build_corpora(
    samples: list[dict[str, Any]], run: str, max_questions: int | None
) -> list[Corpus]:
    corpora = []
    for sample in samples:
        facts = load_conversation(sample, f"{run}f")
        facts.events = []
        facts.facts = [replace(f, event_ids=[]) for f in facts.facts]
        turns = load_conversation(sample, f"{run}t")
        every = [q["question"] for q in facts.questions]
        turns.questions = facts.questions = facts.questions[:max_questions]
        group = re.sub(r"[^A-Za-z0-9_-]", "_", f"locomo_{sample['sample_id']}_{run}")
        corpora.append(Corpus(facts, turns, group, every))
    return corpora


def graphiti_facts(facts: list[StructuredFact], table: VectorTable) -> list[dict[str, Any]]:
    return [
        {
            "id": f.id,
            "text": f.text,
            "speaker": f.subject,
            "vec": table.vectors[f.text],
            "valid_at": f.valid_from.isoformat() if f.valid_from else None,
        }
        for f in facts
    ]


async def import_all(
    ex: Executor, table: VectorTable, corpora: list[Corpus], peer: GraphitiPeer | None
) -> None:
    convs = [c for corpus in corpora for c in (corpus.facts, corpus.turns)]
    total = sum(len(c.facts) + len(c.events) + len(c.speakers) for c in convs)
    with progress_bar(total=total, desc="import hippograph") as bar:
        for c in convs:
            base = bar.n

            def progress(n: int, _total: int, base: int = base) -> None:
                bar.update(base + n - bar.n)

            await remember(
                ex,
                table,
                c.agent_id,
                facts=c.facts,
                events=c.events,
                entities=[StructuredEntity(s, "person") for s in c.speakers],
                progress=progress,
            )
    if peer is not None:
        n_facts = sum(len(c.facts.facts) for c in corpora)
        with progress_bar(total=n_facts, desc="import graphiti") as bar:
            for corpus in corpora:
                speakers = [{"name": s, "vec": table.vectors[s]} for s in corpus.facts.speakers]
                await peer.load(corpus.group, speakers, graphiti_facts(corpus.facts.facts, table))
                bar.update(len(corpus.facts.facts))


async def evaluate(
    corpora: list[Corpus], table: VectorTable, rankers: dict[str, Ranker], peer: GraphitiPeer | None
) -> dict[str, dict[str, RankerStats]]:
    names = [*rankers, *([GRAPHITI] if peer else [])]
    stats = {mode: {n: RankerStats() for n in names} for mode in MODES}
    questions = [(c, q) for c in corpora for q in c.facts.questions if evidence_ids(q["evidence"])]
    for corpus, q in questions[:WARMUP]:  # warm caches and JIT before timing
        vec = table.vectors[q["question"]]
        for ranker in rankers.values():
            await ranker(corpus.turns.agent_id, q["question"], vec)
        if peer:
            await peer.search(corpus.group, q["question"], vec)
    with progress_bar(total=len(questions), desc="questions") as bar:
        for corpus, q in questions:
            evidence, vec = evidence_ids(q["evidence"]), table.vectors[q["question"]]
            for mode, conv in zip(MODES, (corpus.facts, corpus.turns), strict=True):
                for name, ranker in rankers.items():
                    ranked, ms = await timed(ranker, conv.agent_id, q["question"], vec)
                    stats[mode][name].add(ranked, conv.dia_of, evidence, ms)
            if peer:  # Graphiti holds facts only: the same ranking serves both modes
                ids, ms = await peer.search(corpus.group, q["question"], vec)
                for mode in MODES:
                    stats[mode][GRAPHITI].add(ids, corpus.facts.dia_of, evidence, ms)
            bar.update()
    return stats


async def scale_latency(
    ex: Executor,
    table: VectorTable,
    corpus: Corpus,
    size: int,
    run: str,
    rankers: dict[str, Ranker],
    peer: GraphitiPeer | None,
    n_questions: int,
    repeats: int = 3,
) -> list[dict[str, RankerStats]]:
    """Latency with ``size`` facts in one agent/group: the conversation's facts padded with
    suffixed copies (each copy's vector a near-copy of its original's, the same for every
    ranker: ``fusion.copy_vector``). The questions are asked ``repeats`` times: one stats
    dict per repetition (for the spread of p50 and p95)."""
    by_id = {f.id: f for f in corpus.facts.facts}
    copies = scaled_copies([(str(f.id), f.text) for f in corpus.facts.facts], size)
    facts = []
    for _new_id, text, base_id in copies:
        table.alias(text, by_id[base_id].text)
        facts.append(replace(by_id[base_id], id=str(uuid.uuid4()), text=text))
    agent, group = f"bench-peers-scale{size}-{run}", f"scale{size}_{run}"
    try:
        with progress_bar(total=len(facts), desc=f"import hippograph ({size:,} facts)") as bar:
            await remember(
                ex,
                table,
                agent,
                facts=facts,
                entities=[StructuredEntity(s, "person") for s in corpus.facts.speakers],
                progress=lambda n, _t: bar.update(n - bar.n),
            )
        if peer:
            with progress_bar(total=len(facts), desc=f"import graphiti ({size:,} facts)") as bar:
                speakers = [{"name": s, "vec": table.vectors[s]} for s in corpus.facts.speakers]
                for start in range(0, len(facts), 5000):
                    chunk = facts[start : start + 5000]
                    payload = [{**g, "vec": table.vector(g["text"])} for g in _light(chunk)]
                    await peer.load(group, speakers, payload)
                    bar.update(len(chunk))
        questions = corpus.all_questions[: n_questions + WARMUP]
        reps = []
        with progress_bar(total=len(questions) * repeats, desc=f"latency at {size:,} facts") as bar:
            for _ in range(repeats):
                stats = {n: RankerStats() for n in (*rankers, *([GRAPHITI] if peer else []))}
                for i, question in enumerate(questions):
                    vec = table.vectors[question]
                    for name, ranker in rankers.items():
                        _, ms = await timed(ranker, agent, question, vec)
                        if i >= WARMUP:
                            stats[name].add_latency(ms)
                    if peer:
                        _, ms = await peer.search(group, question, vec)
                        if i >= WARMUP:
                            stats[GRAPHITI].add_latency(ms)
                    bar.update()
                reps.append(stats)
        return reps
    finally:
        await delete_agent(ex, agent)


def _light(facts: list[StructuredFact]) -> list[dict[str, Any]]:
    return [
        {
            "id": f.id,
            "text": f.text,
            "speaker": f.subject,
            "valid_at": f.valid_from.isoformat() if f.valid_from else None,
        }
        for f in facts
    ]
