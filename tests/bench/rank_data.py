"""Labelled candidate lists for the learned ranker, from every development benchmark: each
question's whole candidate pool as ``retrieve`` saw it (every fact and turn, its feature row),
which candidates hold the question's evidence, and exact vector top-k's recall of the same
question in the same run.

    .venv/bin/python -m tests.bench.rank_data [--out .bench/rank] [--only locomo,musique,...]
        [--limit-questions N] [--keep] [--reuse]

Benchmarks (data in ../shared/bench): ``locomo`` (the 5 dev conversations; lists of both modes,
``facts`` and ``turns+facts``, from one import), ``musique`` (50 questions over the 1,890
passages, ``triples``: the recorded LLM's entities and relations through bulk ``remember``),
``musique-offline`` and ``hotpotqa-offline`` (every passage through ``write`` with the offline
extractor), ``pira`` (the 225 validation questions in English and in Portuguese against an
English, a Portuguese and a mixed memory: six directions). Each list is written to
``<out>/<bench>.npz`` (rows) and ``<out>/<bench>.json`` (lists: group, direction, the
evidence units of each candidate, the gold units, vector's recall); ``tests.bench.rank_train``
trains and cross-validates on them.

The imports take most of the time (e5 embeds about 15 texts/s on this machine): ``--keep``
keeps each benchmark's agent and records it in ``<out>/agents.json``, ``--reuse`` asks those
agents again (after a feature change, say) without importing. ``python -m tests.bench.rank_data
--cleanup`` deletes the kept agents.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.read import Retriever
from graph.memory.read.ranker import FEATURES, FeatureTable, QueryView
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.composition import build_embedder
from server.settings import Settings
from tests.bench import locomo
from tests.bench.locomo_parts import by_mode, vector_hits
from tests.bench.multihop import Imported, import_triples, import_writes, load_vectors
from tests.bench.multihop_parts import Passage, load_corpus, load_openie, load_questions, select

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "bench"
BENCHES = ("locomo", "musique", "musique-offline", "hotpotqa-offline", "pira")
KS = (2, 5, 10, 20)
# Output options: every candidate stays in the list (no cut), no reranker; the ranking itself
# is retrieve's default. With turns, events are kept as deep as facts.
OPTIONS = {"enable_reranker": False, "topk_facts": 500, "min_score": 0.0, "ranker": "learned"}
LOCOMO_OPTIONS = {
    "facts": {**OPTIONS, "topk_events": 0},
    "turns+facts": {**OPTIONS, "topk_events": 60},
}
MULTIHOP_OPTIONS = {**OPTIONS, "topk_events": 60}


@dataclass
class Lists:
    """One benchmark's labelled lists: the rows of every list stacked, and per list its
    metadata."""

    bench: str
    rows: list[np.ndarray] = field(default_factory=list)
    meta: list[dict[str, Any]] = field(default_factory=list)

    def add(
        self,
        table: FeatureTable,
        units: dict[str, Sequence[str]],
        gold: Sequence[str],
        meta: dict[str, Any],
        passages: bool = False,
    ) -> None:
        """One question's pool: ``units`` maps an item id to the evidence units it holds
        (dia ids, passages), ``gold`` the question's; ``passages``: keep every candidate's
        units too (passage recall counts distinct passages, gold or not)."""
        gold_set = set(gold)
        self.rows.append(table.values.astype(np.float32))
        record = {
            **meta,
            "gold": sorted(gold_set),
            "units": [sorted(set(units.get(c.id, ())) & gold_set) for c in table.candidates],
            "turn": [int(c.is_turn) for c in table.candidates],
            # a fact's source turns among the candidates (retrieve drops a turn whose fact it
            # returns: its evidence would only repeat)
            "sources": _sources(table),
        }
        if passages:
            record["passages"] = [list(units.get(c.id, ())) for c in table.candidates]
        self.meta.append(record)

    def save(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        x = np.concatenate(self.rows) if self.rows else np.zeros((0, len(FEATURES)), np.float32)
        np.savez_compressed(out / f"{self.bench}.npz", x=x)
        doc = {"bench": self.bench, "features": list(FEATURES), "lists": self.meta}
        (out / f"{self.bench}.json").write_text(json.dumps(doc))
        print(f"{self.bench}: {len(self.meta)} lists, {x.shape[0]} rows → {out}", flush=True)


def _sources(table: FeatureTable) -> list[list[int]]:
    at = {c.id: i for i, c in enumerate(table.candidates) if c.is_turn}
    return [
        [] if c.is_turn else [at[e] for e in getattr(c.item, "event_ids", ()) if e in at]
        for c in table.candidates
    ]


class Recorder:
    """The retriever's observer: keeps the last feature table it saw."""

    def __init__(self) -> None:
        self.table: FeatureTable | None = None

    def __call__(self, table: FeatureTable, view: QueryView) -> None:
        self.table = table

    def take(self) -> FeatureTable:
        assert self.table is not None, "retrieve ran without the learned ranker"
        table, self.table = self.table, None
        return table


def recall(
    ranked: Sequence[str], units: dict[str, Sequence[str]], gold: set[str], k: int, by_unit: bool
) -> float:
    """Share of ``gold`` among the first ``k`` ranked items (``by_unit``: the first ``k``
    distinct units, as passage recall counts)."""
    if not gold:
        return 0.0
    found: set[str] = set()
    seen: set[str] = set()
    taken = 0
    for item in ranked:
        mine = set(units.get(item, ()))
        if by_unit:
            new = mine - seen
            if not new:
                continue
            seen |= new
            taken += len(new)
        else:
            taken += 1
        found |= mine & gold
        if taken >= k:
            break
    return len(found & gold) / len(gold)


@dataclass
class Kept:
    """The agents a ``--keep`` run left, for ``--reuse``."""

    path: Path
    agents: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Kept:
        return cls(path, json.loads(path.read_text()) if path.exists() else {})

    def put(self, bench: str, record: dict[str, Any]) -> None:
        self.agents[bench] = record
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.agents))


async def _patient(make: Callable[[], Awaitable[Any]]) -> Any:
    return await locomo.patient(make)


async def collect_locomo(ctx: Context) -> list[Lists]:
    """Both LoCoMo modes from one import of the five dev conversations."""
    samples = json.loads((DATA / "locomo" / "locomo-dev.json").read_text())
    kept = ctx.kept.agents.get("locomo") if ctx.reuse else None
    run = kept["run"] if kept else uuid.uuid4().hex[:6]
    convs = [locomo.load_conversation(s, run) for s in samples]
    if kept:  # the stored items' ids (a new load makes new ones)
        twins = []
        for c, dia_of in zip(convs, kept["dia_of"], strict=True):
            c.dia_of = {k: set(v) for k, v in dia_of["turns+facts"].items()}
            facts = {k: set(v) for k, v in dia_of["facts"].items()}
            twins.append(dataclasses.replace(c, agent_id=c.agent_id + "-facts", dia_of=facts))
    else:
        locomo.link_all(convs)
        twins = [locomo.facts_only(c) for c in convs]
        await locomo.load_all(ctx.ex, ctx.embedder, [*twins, *convs])
        ctx.created += [c.agent_id for c in [*twins, *convs]]
        if ctx.keep:
            ctx.kept.put(
                "locomo",
                {
                    "run": run,
                    "agents": [c.agent_id for c in [*twins, *convs]],
                    "dia_of": [
                        {
                            "turns+facts": {k: sorted(v) for k, v in c.dia_of.items()},
                            "facts": {k: sorted(v) for k, v in t.dia_of.items()},
                        }
                        for c, t in zip(convs, twins, strict=True)
                    ],
                },
            )
    out = []
    for mode, agents in (("facts", twins), ("turns+facts", convs)):
        lists = Lists(f"locomo-{'facts' if mode == 'facts' else 'turns'}")
        questions = [
            (c, q, locomo.evidence_ids(q["evidence"]))
            for c in agents
            for q in c.questions[: ctx.limit]
        ]
        for c, q, evidence in progress_bar(questions, desc=f"locomo {mode}", unit="q"):
            if not evidence:
                continue
            table = await ctx.ask(c.agent_id, q["question"], LOCOMO_OPTIONS[mode])
            vec = (await ctx.embedder.embed_query([q["question"]]))[0]
            vector = by_mode(await _patient(lambda a=c.agent_id, v=vec: vector_hits(ctx.ex, a, v)))
            units = {k: sorted(v) for k, v in c.dia_of.items()}
            lists.add(
                table,
                units,
                sorted(evidence),
                {
                    "group": c.label,
                    "direction": mode,
                    "category": q["category"],
                    "vector": {
                        f"R@{k}": recall(vector[mode], units, evidence, k, False) for k in KS
                    },
                },
            )
        out.append(lists)
    return out


async def _multihop_agent(
    ctx: Context, bench: str, passages: list[Passage], make: Callable[[str], Awaitable[Imported]]
) -> tuple[str, dict[str, list[int]]]:
    kept = ctx.kept.agents.get(bench) if ctx.reuse else None
    if kept:
        return kept["agent"], {k: list(v) for k, v in kept["passages_of"].items()}
    agent = f"bench-rank-{bench}-{uuid.uuid4().hex[:6]}"
    ctx.created.append(agent)
    imp = await make(agent)
    if ctx.keep:
        ctx.kept.put(bench, {"agent": agent, "passages_of": imp.passages_of})
    return agent, imp.passages_of


async def _ask_passages(
    ctx: Context,
    lists: Lists,
    agent: str,
    questions: Sequence[Any],
    passages_of: dict[str, list[int]],
    meta: Callable[[int], dict[str, Any]],
) -> None:
    vectors = await load_vectors(ctx.ex, agent, passages_of)
    units = {k: [str(p) for p in v] for k, v in passages_of.items()}
    for i, q in enumerate(progress_bar(list(questions), desc=lists.bench, unit="q")):
        table = await ctx.ask(agent, q.text, MULTIHOP_OPTIONS)
        qvec = np.asarray((await ctx.embedder.embed_query([q.text]))[0], dtype=np.float32)
        dense = vectors.scores(qvec)
        ranked = sorted(dense, key=lambda p: (-dense[p], p))
        gold = {str(p) for p in q.gold}
        passage_units = {str(p): [str(p)] for p in ranked}
        vector = {
            f"R@{k}": recall([str(p) for p in ranked], passage_units, gold, k, True) for k in KS
        }
        lists.add(table, units, sorted(gold), {**meta(i), "vector": vector}, passages=True)


async def collect_multihop(ctx: Context, bench: str) -> list[Lists]:
    name, mode = [*bench.split("-"), "triples"][:2]
    folder = DATA / "multihop"
    corpus = load_corpus(json.loads((folder / f"{name}-corpus.json").read_text()))
    questions = load_questions(json.loads((folder / f"{name}-dev.json").read_text()), corpus)
    corpus, questions = select(corpus, questions, ctx.limit, ctx.passages)
    openie_path = folder / "musique-openie-gpt35.json"

    async def make(agent: str) -> Imported:
        if mode == "triples":
            openie = load_openie(json.loads(openie_path.read_text()))
            return await import_triples(ctx.ex, ctx.embedder, agent, corpus, openie)
        return await import_writes(ctx.ex, ctx.embedder, agent, corpus, mode, ctx.settings, None)

    agent, passages_of = await _multihop_agent(ctx, bench, corpus, make)
    lists = Lists(bench)
    await _ask_passages(
        ctx,
        lists,
        agent,
        questions,
        passages_of,
        lambda i: {"group": f"{name}:{i}", "direction": mode},
    )
    return [lists]


async def collect_pira(ctx: Context) -> list[Lists]:
    """Six directions: English and Portuguese questions against three memories."""
    folder = DATA / "bilingual"
    lists = Lists("pira")
    for memory in ("en", "pt", "mixed"):
        corpus = load_corpus(json.loads((folder / f"pira-corpus-{memory}.json").read_text()))

        async def make(agent: str, corpus: list[Passage] = corpus) -> Imported:
            return await import_writes(
                ctx.ex, ctx.embedder, agent, corpus, "offline", ctx.settings, None
            )

        agent, passages_of = await _multihop_agent(ctx, f"pira-{memory}", corpus, make)
        for lang in ("en", "pt"):
            raw = json.loads((folder / f"pira-validation-q{lang}-corpus-{memory}.json").read_text())
            questions = load_questions(raw, corpus)[: ctx.limit]
            # a question and its translation are one group (never on both sides of a fold)
            await _ask_passages(
                ctx,
                lists,
                agent,
                questions,
                passages_of,
                lambda i, lang=lang, memory=memory: {
                    "group": f"pira:{i}",
                    "direction": f"{lang}→{memory}",
                },
            )
    return [lists]


@dataclass
class Context:
    ex: Executor
    embedder: locomo.CachedEmbedder
    settings: Settings
    kept: Kept
    keep: bool
    reuse: bool
    limit: int | None
    passages: int | None = None
    recorder: Recorder = field(default_factory=Recorder)
    created: list[str] = field(default_factory=list)
    retriever: Retriever | None = None

    async def ask(self, agent: str, question: str, options: dict[str, Any]) -> FeatureTable:
        if self.retriever is None:
            self.retriever = Retriever(self.ex, self.embedder, observer=self.recorder)
        retriever = self.retriever
        await _patient(lambda: retriever.retrieve(agent, question, options=options))
        return self.recorder.take()


async def main(args: argparse.Namespace) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    embedder = locomo.CachedEmbedder(build_embedder(settings))
    await ensure_schema(ex, embedder.dimensions)
    out = Path(args.out)
    ctx = Context(
        ex,
        embedder,
        settings,
        Kept.read(out / "agents.json"),
        args.keep,
        args.reuse,
        args.limit_questions,
        args.limit_passages,
    )
    print(f"load average {os.getloadavg()[0]:.1f}; embedder {embedder.name}; out {out}", flush=True)
    started = time.perf_counter()
    try:
        for bench in args.only:
            t = time.perf_counter()
            if bench == "locomo":
                made = await collect_locomo(ctx)
            elif bench == "pira":
                made = await collect_pira(ctx)
            else:
                made = await collect_multihop(ctx, bench)
            for lists in made:
                lists.save(out)
            print(f"{bench}: {time.perf_counter() - t:.0f} s", flush=True)
    finally:
        if not args.keep:
            for agent in ctx.created:
                await delete_agent(ex, agent)
        await ex.close()
    print(f"total {time.perf_counter() - started:.0f} s")


def write_keeps(out: Path, folder: Path) -> None:
    """The kept agents as the ``--reuse`` files of ``tests.bench.multihop`` (one per corpus,
    ``multihop-<bench>.json``) and ``tests.bench.bilingual`` (``bilingual.json``), so the
    end-to-end benchmarks ask the same imports without importing again."""
    kept = Kept.read(out / "agents.json").agents
    folder.mkdir(parents=True, exist_ok=True)
    memories = {}
    for bench, record in kept.items():
        if "passages_of" not in record:
            continue
        imported = {"passages_of": record["passages_of"], "seconds": 0.0}
        if bench.startswith("pira-"):
            figures = dict.fromkeys(("cpu_s_per_passage", "import_s", "relations_per_passage"))
            memories[bench.removeprefix("pira-")] = {
                "agent": record["agent"],
                "import": imported,
                "figures": {**figures, "failed_writes": 0},
            }
        else:
            doc = {"agent": record["agent"], "import": imported}
            (folder / f"multihop-{bench}.json").write_text(json.dumps(doc))
    if memories:
        (folder / "bilingual.json").write_text(json.dumps(memories))
    print(f"reuse files for the end-to-end benchmarks in {folder}")


async def cleanup(out: Path) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    kept = Kept.read(out / "agents.json")
    try:
        for record in kept.agents.values():
            for agent in record.get("agents") or [record["agent"]]:
                await delete_agent(ex, agent)
    finally:
        await ex.close()
    (out / "agents.json").unlink(missing_ok=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / ".bench" / "rank"))
    parser.add_argument(
        "--only", default=",".join(BENCHES), help=f"comma list of {', '.join(BENCHES)}"
    )
    parser.add_argument("--limit-questions", type=int, default=None, help="per list source")
    parser.add_argument(
        "--limit-passages",
        type=int,
        default=None,
        help="multi-hop corpora: at most N passages, the questions' supporting ones first",
    )
    parser.add_argument("--keep", action="store_true", help="keep the agents (see --reuse)")
    parser.add_argument("--reuse", action="store_true", help="ask the agents a --keep run left")
    parser.add_argument("--cleanup", action="store_true", help="delete the kept agents")
    parser.add_argument(
        "--write-keeps",
        default=None,
        metavar="DIR",
        help="write the kept agents as --reuse files of tests.bench.multihop and bilingual",
    )
    args = parser.parse_args(argv)
    args.only = [b for b in args.only.split(",") if b]
    unknown = [b for b in args.only if b not in BENCHES]
    if unknown:
        parser.error(f"unknown benchmark {unknown[0]!r}")
    return args


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.cleanup:
        asyncio.run(cleanup(Path(arguments.out)))
    elif arguments.write_keeps:
        write_keeps(Path(arguments.out), Path(arguments.write_keeps))
    else:
        asyncio.run(main(arguments))
