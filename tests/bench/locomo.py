"""LoCoMo evidence-recall benchmark of the read pipeline (offline: no LLM, no rerank).

    .venv/bin/python -m tests.bench.locomo ../shared/bench/locomo/locomo-dev.json
    .venv/bin/python -m tests.bench.locomo DATA.json --mode facts --ablate

For every conversation (one agent each) the per-session ``observation`` facts are imported with
structured ``remember`` (subject = the speaker, valid_from/created_at = the session date,
evidence dia_id kept aside) and every turn becomes an Event. Each fact is also linked to the
entities it mentions, found by the offline write path's extractor and entity resolution
(``locomo_parts.link_entities``; ``--no-link-entities``: the speaker only, as before), so the
graph signals have entities to walk. For each question of categories 1-4 three rankers produce
one list of facts + events:

(a) Hippograph ``retrieve`` (planner, semantic + keyword + graph signals, spreading activation, formula;
    facts and events merged by their scores),
(b) plain vector top-k: exact cosine over the same facts and events,
(c) BM25 only: full-text over the same facts and events (raw Lucene scores, same keywords),
(d) vector + BM25 reciprocal-rank fusion (k = 60): what Graphiti's ``search()`` does, as an
    in-process stand-in (the real Graphiti run is ``tests.bench.peers``).

Modes: ``facts`` ranks the observation facts only; ``turns+facts`` ranks facts and turns
together; ``both`` (default) reports each from the same import and the same retrieve calls.
``--ablate`` re-runs retrieve with each signal switched off in turn
and prints R@10 per mode plus on how many conversations the change helps / hurts.

An item hits when its dia_id is in the question's evidence. Reported: evidence recall@5/@10/@20
(share of evidence dia_ids found in the top k), MRR (first hit) and session recall@5/@10 (share
of the evidence's sessions — "D3:12" is in the conversation's third — with an evidence turn
held by an item of the top k: the measure published raw-retrieval systems report). The dataset
is CC BY-NC: it is read from the given path and never copied. ``--conversations N`` / ``--questions N`` bound
the run; the default is everything (~2-3 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from neo4j.exceptions import TransientError

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact, StructuredRelation
from graph.progress import progress_bar
from graph.providers import Embedder, embed_queries, similarity_floor
from graph.schema import ensure_schema
from server.settings import Settings
from tests.bench.locomo_e5 import (
    EMBEDDERS,
    RESCORED,
    RescoreCost,
    make_embedder,
    make_rescorer,
    rescored_hits,
    warm,
)
from tests.bench.locomo_parts import (  # re-exported for tests.bench.peers
    KS,
    Metrics,
    bm25_baseline,
    bm25_hits,
    by_mode,
    link_entities,
    rrf,
    top,
    vector_baseline,
    vector_hits,
)

__all__ = [
    "KS",
    "Conversation",
    "Metrics",
    "bm25_baseline",
    "evidence_ids",
    "hippograph",
    "load_conversation",
    "vector_baseline",
]

MODES = ("facts", "turns+facts")
T = TypeVar("T")
# Facts mode keeps every candidate (min_score 0, large top-k) so the benchmark also sees the
# candidate pool's recall (the ceiling of any re-ordering); the metrics cut at 5/10/20. With
# turns, top-k stays 20: which snippets survive depends on the facts returned (provenance).
BASE_OPTIONS: dict[str, dict[str, Any]] = {
    "facts": {"enable_reranker": False, "topk_facts": 500, "topk_events": 0, "min_score": 0.0},
    "turns+facts": {
        "enable_reranker": False,
        "topk_facts": 20,
        "topk_events": 20,
        "min_score": 0.0,
    },
}
# Ablation: each signal off in turn (options of RetrieveConfig).
ABLATIONS: dict[str, dict[str, Any]] = {
    "full (default)": {},
    "- keyword": {"enable_keyword": False},
    "- graph BFS": {"enable_graph": False},
    "- importance": {"weights": {"importance": 0.0}},
    "+ keyword w/o names": {"keyword_names": False},
    "- temporal window": {"weights": {"temporal": 0.0}},
    "- semantic weight": {"weights": {"semantic": 0.0}},
    "- lift to source turn": {"weights": {"provenance": 0.0}},
    # no information on LoCoMo (one speaker entity, one age per session): expected 0
    "- recency": {"weights": {"recency": 0.0}},
    "- confidence": {"confidence_weight": 0.0},
    "- pattern": {"pattern_boost_max": 0.0, "enable_aggregation": False},
    "- planner expansion": {"enable_expansion": False},
    "- spreading activation": {"activation_seeds": 0},
}


class CachedEmbedder:
    """Memoises vectors so the rankers embed each question once (queries and stored text
    apart: e5 embeds them with different prefixes)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dimensions = inner, inner.name, inner.dimensions
        self.similarity_floor = similarity_floor(inner)
        for name in ("query_floor", "language_gap"):  # the retriever's scale (read_options)
            if hasattr(inner, name):
                setattr(self, name, getattr(inner, name))
        self.cache: dict[str, list[float]] = {}
        self.query_cache: dict[str, list[float]] = {}

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for text, vec in zip(missing, await self.inner.embed(missing), strict=True):
                self.cache[text] = vec
        return [self.cache[t] for t in texts]

    async def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.query_cache]
        if missing:
            for text, vec in zip(missing, await embed_queries(self.inner, missing), strict=True):
                self.query_cache[text] = vec
        return [self.query_cache[t] for t in texts]


def parse_session_date(raw: str) -> datetime:
    """ "1:56 pm on 8 May, 2023" → aware datetime (UTC)."""
    return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def evidence_ids(raw: Sequence[str]) -> set[str]:
    out: set[str] = set()
    for item in raw:
        out.update(p for p in re.split(r"[;,\s]+", item) if p)
    return out


@dataclass
class Conversation:
    agent_id: str
    label: str = ""
    facts: list[StructuredFact] = field(default_factory=list)
    events: list[StructuredEvent] = field(default_factory=list)
    speakers: list[str] = field(default_factory=list)
    dia_of: dict[str, set[str]] = field(default_factory=dict)  # item id → dia ids
    questions: list[dict[str, Any]] = field(default_factory=list)
    # entities the facts mention besides the speakers, and their relationships (link_all)
    entities: list[StructuredEntity] = field(default_factory=list)
    relations: list[StructuredRelation] = field(default_factory=list)


def load_conversation(sample: dict[str, Any], run: str) -> Conversation:
    conv = sample["conversation"]
    c = Conversation(
        agent_id=f"bench-locomo-{sample['sample_id']}-{run}",
        label=str(sample["sample_id"]),
        speakers=[conv["speaker_a"], conv["speaker_b"]],
    )
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
            c.events.append(
                StructuredEvent(
                    text=text,
                    speaker=turn["speaker"],
                    id=eid,
                    occurred_at=when + timedelta(seconds=i),
                    source="locomo",
                )
            )
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
                c.facts.append(
                    StructuredFact(
                        text=text,
                        subject=speaker,
                        id=fid,
                        speaker=speaker,
                        created_at=when,
                        valid_from=when,
                        confidence=0.9,
                        event_ids=sources,
                    )
                )
                c.dia_of[fid] = dias
    c.questions = [q for q in sample["qa"] if q["category"] in (1, 2, 3, 4)]
    return c


def facts_only(c: Conversation) -> Conversation:
    """The same conversation as another agent holding the observation facts only (no turns,
    no FROM_EVENT provenance): what a facts-only peer is given."""
    facts = [dataclasses.replace(f, id=str(uuid.uuid4()), event_ids=[]) for f in c.facts]
    dia_of = {new.id: c.dia_of[old.id] for old, new in zip(c.facts, facts, strict=True)}
    return Conversation(
        agent_id=c.agent_id + "-facts",
        label=c.label,
        facts=facts,
        speakers=c.speakers,
        dia_of=dia_of,
        questions=c.questions,
        entities=c.entities,
        relations=c.relations,
    )


def link_all(convs: list[Conversation]) -> int:
    """Entity-link every conversation's facts (``locomo_parts.link_entities``: the offline
    extractor and entity resolution of the write path); returns the facts linked."""
    linked = 0
    for c in progress_bar(convs, desc="link entities (offline extractor)", unit="conv"):
        links = link_entities(c.facts, c.speakers)
        c.entities, c.relations = links.entities, links.relations
        linked += links.linked_facts
    return linked


async def patient(make: Callable[[], Awaitable[T]], tries: int = 4) -> T:
    """Retry a read when the shared server is out of transaction memory (other benchmarks'
    load); the driver's own retries give up after 15 s."""
    for attempt in range(tries):
        try:
            return await make()
        except TransientError:
            if attempt == tries - 1:
                raise
            await asyncio.sleep(5.0 * (attempt + 1))
    raise AssertionError("unreachable")


async def hippograph(
    retriever: Retriever,
    agent: str,
    question: str,
    options: dict[str, Any] | None = None,
    mode: str = "turns+facts",
) -> list[str]:
    """One retrieve call → the ranked ids of the mode (facts, or facts and snippets merged by
    their scores)."""
    result = await patient(
        lambda: retriever.retrieve(
            agent, question, options={**BASE_OPTIONS[mode], **(options or {})}
        )
    )
    items = [(f.scores.final, f.id) for f in result.facts]
    if mode == "turns+facts":
        items += [(e.score, e.id) for e in result.events]
    return top(items, 10**6 if mode == "facts" else 20)


async def load_all(ex: Executor, embedder: CachedEmbedder, convs: list[Conversation]) -> None:
    total = sum(len(c.facts) + len(c.events) for c in convs)
    with progress_bar(total=total, desc="import (remember)", unit="item") as shown:
        for c in convs:
            done = [0]

            def progress(n: int, _total: int, done: list[int] = done) -> None:
                shown.update(n - done[0])
                done[0] = n

            await remember(
                ex,
                embedder,
                c.agent_id,
                facts=c.facts,
                events=c.events,
                entities=[*(StructuredEntity(s, "person") for s in c.speakers), *c.entities],
                relations=c.relations,
                progress=progress,
            )


Questions = list[tuple[Conversation, dict[str, Any], set[str]]]
Table = dict[str, dict[str, Metrics]]  # mode → ranker → metrics
NAMES = ("hippograph", "vector top-k", "bm25", "vector+bm25 rrf")


UNLINKED = "hippograph unlinked"


async def compare(
    ex: Executor,
    embedder: CachedEmbedder,
    questions: Questions,
    mode: str,
    twins: dict[str, Conversation] | None = None,
    rescore: tuple[Any, RescoreCost] | None = None,
) -> dict[str, Metrics]:
    """Every ranker on every question of one mode (its conversations are that mode's agents).
    ``twins``: agent id → the same conversation imported without entity links (an extra row,
    ``--unlinked-row``: before / after the entity-linked import in one run); ``rescore``
    (rescorer, cost) adds the ``hippograph + rescore`` ranker."""
    retriever = Retriever(ex, embedder)
    rescoring = Retriever(ex, embedder, rescorer=rescore[0]) if rescore else None
    table = {
        n: Metrics()
        for n in (
            *NAMES[:1],
            *([UNLINKED] if twins else []),
            *NAMES[1:],
            *((RESCORED,) if rescore else ()),
        )
    }
    counts = {
        c.agent_id: (await ex.run("read/agent_counts", {"agent_id": c.agent_id}))[0]
        for c, _, _ in questions
    }
    for c, q, evidence in progress_bar(questions, desc=f"questions ({mode})", unit="q"):
        vec = (await embedder.embed_query([q["question"]]))[0]
        t = time.perf_counter()
        ours = await hippograph(retriever, c.agent_id, q["question"], {}, mode)
        ms = {"hippograph": (time.perf_counter() - t) * 1000}
        t = time.perf_counter()
        vector = by_mode(await patient(partial(vector_hits, ex, c.agent_id, vec)))
        ms["vector top-k"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        bm25 = by_mode(
            await patient(
                partial(bm25_hits, ex, c.agent_id, q["question"], vec, counts[c.agent_id])
            )
        )
        ms["bm25"] = (time.perf_counter() - t) * 1000
        ms["vector+bm25 rrf"] = ms["vector top-k"] + ms["bm25"]
        lists = {
            "hippograph": ours,
            "vector top-k": vector[mode],
            "bm25": bm25[mode],
            "vector+bm25 rrf": rrf(vector[mode], bm25[mode]),
        }
        if rescoring is not None and rescore is not None:
            t = time.perf_counter()
            lists[RESCORED] = await patient(
                partial(
                    rescored_hits,
                    rescoring,
                    c.agent_id,
                    q["question"],
                    BASE_OPTIONS[mode],
                    mode,
                    rescore[1],
                )
            )
            ms[RESCORED] = (time.perf_counter() - t) * 1000
        for name in table:
            if name != UNLINKED:
                table[name].add(lists[name], c.dia_of, evidence, ms[name], c.label, q["category"])
        if twins:
            twin = twins[c.agent_id]
            t = time.perf_counter()
            plain = await hippograph(retriever, twin.agent_id, q["question"], {}, mode)
            table[UNLINKED].add(
                plain,
                twin.dia_of,
                evidence,
                (time.perf_counter() - t) * 1000,
                c.label,
                q["category"],
            )
    return table


def print_table(table: Table, labels: list[str], modes: Sequence[str]) -> None:
    for mode in modes:
        rows = table[mode]
        print(f"\nmode {mode}")
        print(
            f"{'ranker':<24} {'recall@5':>9} {'recall@10':>9} {'recall@20':>9} {'MRR':>8} "
            f"{'sess R@5':>9} {'sess R@10':>9} {'ms/query':>9}"
        )
        for name, m in rows.items():
            print(m.row(name))
        print("recall@10/MRR by category:")
        for name, m in rows.items():
            print(f"  {name:<22} {m.by_category()}")
        ours = rows["hippograph"]
        if mode == "facts":
            print(
                f"hippograph candidate pool: recall {ours.pool / max(1, ours.n):.3f} over "
                f"{ours.pool_size / max(1, ours.n):.0f} items/question (the ceiling of any "
                "re-ordering of what the signals found)"
            )
            print(f"  candidate pool recall by category: {ours.pool_by_category()}")
        h = rows["hippograph"].r(10)
        print(
            "recall@10 hippograph minus: "
            + ", ".join(
                f"{name} {100 * (h - m.r(10)):+.1f} pts"
                for name, m in rows.items()
                if name != "hippograph"
            )
        )
        print("per-conversation recall@10:")
        print(f"  {'conversation':<16} " + " ".join(f"{n[:14]:>14}" for n in rows))
        for label in labels:
            print(f"  {label:<16} " + " ".join(f"{m.conv_r10(label):14.3f}" for m in rows.values()))


async def ablate(
    ex: Executor,
    embedder: CachedEmbedder,
    per_mode_questions: dict[str, Questions],
    labels: list[str],
    variants: dict[str, dict[str, Any]],
    concurrency: int = 1,
    rescorer: Any = None,
) -> None:
    """Each variant's row is printed as soon as it is measured (a long run that is stopped
    keeps what it printed). With ``rescorer`` every variant re-scores (``--variant`` can
    switch it off or tune it: ``enable_rescore``, ``rescore_weight``)."""
    retriever = Retriever(ex, embedder, rescorer=rescorer)
    modes = list(per_mode_questions)
    base: dict[str, Metrics] | None = None
    gate = asyncio.Semaphore(concurrency)
    print(
        "\nablation (hippograph retrieve; Δ = change of recall@10 vs the first row; "
        "convs +/- = conversations where recall@10 rises / falls by > 0.5 pt)"
    )
    head = " ".join(f"{'R@10 ' + m:>17} {'Δ pts':>6} {'MRR':>6} {'convs +/-':>9}" for m in modes)
    print(f"{'variant':<24} {head} {'ms/q':>7}", flush=True)
    for label, options in variants.items():
        per_mode: dict[str, Metrics] = {}
        for mode, questions in per_mode_questions.items():
            m = per_mode[mode] = Metrics()

            async def one(
                q: dict[str, Any],
                c: Conversation,
                mode: str = mode,
                options: dict[str, Any] = options,
            ) -> tuple[list[str], float]:
                async with gate:
                    t = time.perf_counter()
                    ranked = await hippograph(retriever, c.agent_id, q["question"], options, mode)
                    return ranked, (time.perf_counter() - t) * 1000

            # Questions run ``concurrency`` at a time (wall time only: each ranking is the
            # same as run alone); metrics are added in question order.
            with progress_bar(
                total=len(questions), desc=f"ablate {label} ({mode})", unit="q"
            ) as shown:
                for start in range(0, len(questions), 50):
                    chunk = questions[start : start + 50]
                    outs = await asyncio.gather(*(one(q, c) for c, q, _ in chunk))
                    for (c, q, evidence), (ranked, ms) in zip(chunk, outs, strict=True):
                        m.add(ranked, c.dia_of, evidence, ms, c.label, q["category"])
                    shown.update(len(chunk))
        base = base or per_mode
        cells = []
        for mode in modes:
            m, b = per_mode[mode], base[mode]
            up = sum(m.conv_r10(i) > b.conv_r10(i) + 0.005 for i in labels)
            down = sum(m.conv_r10(i) < b.conv_r10(i) - 0.005 for i in labels)
            cells.append(
                f"{m.r(10):17.3f} {100 * (m.r(10) - b.r(10)):+6.1f} "
                f"{m.rr / max(1, m.n):6.3f} {f'{up}/{down}':>9}"
            )
        first = per_mode[modes[0]]
        print(f"{label:<24} {' '.join(cells)} {first.ms / max(1, first.n):7.1f}", flush=True)
        for mode in modes:
            print(f"  {mode} R@10/MRR by category: {per_mode[mode].by_category()}", flush=True)
        if "facts" in per_mode:
            m = per_mode["facts"]
            print(
                f"  facts candidate pool recall {m.pool / max(1, m.n):.3f} "
                f"({m.pool_size / max(1, m.n):.0f} items/q): {m.pool_by_category()}",
                flush=True,
            )


async def main(
    path: str,
    max_convs: int | None,
    max_questions: int | None,
    every: int,
    mode: str,
    do_ablate: bool,
    extra: dict[str, dict[str, Any]],
    ablate_every: int = 1,
    concurrency: int = 1,
    compare_rankers: bool = True,
    link: bool = True,
    unlinked_row: bool = False,
    embedder_name: str = "minilm",
    rescorer_name: str | None = None,
) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    embedder = CachedEmbedder(make_embedder(embedder_name, settings))
    rescorer = make_rescorer(rescorer_name, embedder)
    await ensure_schema(ex, embedder.dimensions)
    with open(path, encoding="utf-8") as fh:
        samples = json.load(fh)[:max_convs]
    run = uuid.uuid4().hex[:6]
    convs = [load_conversation(s, run) for s in samples]
    for c in convs:
        c.questions = c.questions[:max_questions][::every]
    linked = link_all(convs) if link else 0
    modes = MODES if mode == "both" else (mode,)
    agents = {"facts": [facts_only(c) for c in convs], "turns+facts": convs}
    loaded = [c for m in modes for c in agents[m]]
    twins: dict[str, dict[str, Conversation]] = {m: {} for m in modes}
    if link and unlinked_row:
        plain = [load_conversation(s, run + "u") for s in samples]
        for p, c in zip(plain, convs, strict=True):
            p.questions = c.questions
        plain_agents = {"facts": [facts_only(p) for p in plain], "turns+facts": plain}
        for m in modes:
            twins[m] = {c.agent_id: p for c, p in zip(agents[m], plain_agents[m], strict=True)}
            loaded += plain_agents[m]
    started = time.perf_counter()
    try:
        await load_all(ex, embedder, loaded)
        import_s = time.perf_counter() - started
        per_mode: dict[str, Questions] = {}
        for m in modes:
            qs = [(c, q, evidence_ids(q["evidence"])) for c in agents[m] for q in c.questions]
            per_mode[m] = [x for x in qs if x[2]]
        t = time.perf_counter()
        await embedder.embed_query([q["question"] for _, q, _ in per_mode[modes[0]]])
        query_s = time.perf_counter() - t
        costs = {m: RescoreCost() for m in modes}
        if rescorer is not None:
            for m in modes:
                await warm(rescorer, [f.text for c in agents[m] for f in c.facts], costs[m])
        table = (
            {
                m: await compare(
                    ex,
                    embedder,
                    per_mode[m],
                    m,
                    twins[m],
                    (rescorer, costs[m]) if rescorer else None,
                )
                for m in modes
            }
            if compare_rankers
            else {}
        )
        n_facts = sum(len(c.facts) for c in convs)
        n_events = sum(len(c.events) for c in convs)
        load_avg = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"\nLoCoMo evidence recall — {len(convs)} conversations, {n_facts} observation "
            f"facts, {n_events} turns, {len(per_mode[modes[0]])} questions (categories 1-4); "
            f"import {import_s:.0f} s; load average {load_avg}"
        )
        print(
            f"entity links: {'on' if link else 'off (--no-link-entities)'}; {linked} facts "
            f"mention an entity besides their subject, "
            f"{sum(len(c.entities) for c in convs)} entities, "
            f"{sum(len(c.relations) for c in convs)} relationships"
        )
        print(
            "mode facts: an agent holding the facts only; mode turns+facts: an agent holding "
            "facts and turns (events), both ranked together"
        )
        print(
            f"embedder {embedder.name} ({embedder.dimensions}-d); questions embedded in "
            f"{query_s:.1f} s ({len(embedder.query_cache) / max(query_s, 1e-9):.1f}/s)"
            + (f"; rescorer {rescorer.name}" if rescorer else "")
        )
        if rescorer is not None and table:
            for m in modes:
                print(costs[m].line(m))
        labels = [c.label for c in convs]
        if table:
            print_table(table, labels, modes)
        if do_ablate or extra:
            variants = {**(ABLATIONS if do_ablate else {"full (default)": {}}), **extra}
            sampled = {m: qs[::ablate_every] for m, qs in per_mode.items()}
            print(
                f"\nablation on every {ablate_every}th question ({len(sampled[modes[0]])} per mode)"
            )
            await ablate(ex, embedder, sampled, labels, variants, concurrency, rescorer)
        print(f"total {time.perf_counter() - started:.0f} s")
    finally:
        for c in loaded:
            await delete_agent(ex, c.agent_id)
        await ex.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="locomo JSON (e.g. ../shared/bench/locomo/locomo-dev.json)")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--questions", type=int, default=None, help="per conversation")
    parser.add_argument(
        "--every", type=int, default=1, help="every Nth question only (quicker ablations)"
    )
    parser.add_argument("--mode", choices=("facts", "turns+facts", "both"), default="both")
    parser.add_argument("--ablate", action="store_true", help="print the ablation table")
    parser.add_argument(
        "--ablate-every",
        type=int,
        default=1,
        help="ablation on every Nth question only (it runs retrieve per variant)",
    )
    parser.add_argument(
        "--no-compare", action="store_true", help="skip the rankers' table (ablation only)"
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="ablation questions in flight at once (wall time only; ms/q then includes queueing)",
    )
    parser.add_argument(
        "--no-link-entities",
        action="store_true",
        help="import each fact linked to its speaker only (the earlier import; "
        "default: linked to the entities it mentions, as the write path "
        "links the facts it extracts)",
    )
    parser.add_argument(
        "--unlinked-row",
        action="store_true",
        help="also import every conversation without entity links and add its "
        "default retrieve as a row of the rankers' table",
    )
    parser.add_argument(
        "--embedder",
        default=None,
        help=f"the embedder of every ranker, one of {', '.join(EMBEDDERS)} (default: the "
        "configured one, HIPPOGRAPH_EMBEDDER); a comma list runs one after the other",
    )
    parser.add_argument(
        "--rescorer",
        choices=EMBEDDERS[1:],
        default=None,
        help="add the ranker 'hippograph + rescore' (top facts re-scored by it)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="LABEL=JSON",
        help="extra retrieve options to compare, e.g. 'hops1={\"max_hops\": 1}'",
    )
    args = parser.parse_args()
    extra = {v.split("=", 1)[0]: json.loads(v.split("=", 1)[1]) for v in args.variant}
    names = (args.embedder or Settings().embedder).split(",")
    if unknown := [n for n in names if n not in EMBEDDERS]:
        parser.error(f"unknown embedder {unknown[0]!r}")
    for name in names:
        if len(names) > 1:
            print(f"\n===== embedder {name} =====", flush=True)
        asyncio.run(
            main(
                args.path,
                args.conversations,
                args.questions,
                args.every,
                args.mode,
                args.ablate,
                extra,
                args.ablate_every,
                args.concurrency,
                not args.no_compare,
                not args.no_link_entities,
                args.unlinked_row,
                name,
                args.rescorer if args.rescorer != name else None,
            )
        )
