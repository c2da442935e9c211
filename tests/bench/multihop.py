"""Multi-hop benchmark: a passage corpus in one agent, then passage recall@2/@5 of every question
for several rankers on the same stored vectors.

    .venv/bin/python -m tests.bench.multihop \\
        --questions ../shared/bench/multihop/musique-dev.json \\
        --corpus ../shared/bench/multihop/musique-corpus.json \\
        --openie ../shared/bench/multihop/musique-openie-gpt35.json --mode triples \\
        [--json OUT] [--limit-questions N] [--limit-passages N]

Import modes (the whole corpus, or ``--limit-passages``: every supporting passage of the kept
questions, then the corpus in order, goes into one new agent, deleted at the end):

- ``llm``: every passage through ``write`` on the LLM path; the extraction call is answered by a
  scripted OpenAI-compatible endpoint on loopback (through the real ``openai`` client) replaying
  the ``--openie`` recording of that passage (``corpus_texts.recorded_extractions``); resolution,
  reconciliation and upsert run as in production. LLM calls and prompt size per passage are
  reported.
- ``offline``: every passage through ``write`` with the offline extractor (no LLM).
- ``triples``: one bulk ``remember``: each passage is a fact about its title that mentions the
  recording's entities, each triple a relation whose evidence is that fact.

Rankers, all on the agent's stored vectors; a ranked fact or event counts as the passage(s)
it came from (the passage itself, or its write's event through FROM_EVENT provenance):
``hippograph`` (``retrieve`` with its defaults; no reranker, a deeper result list),
``graph-off`` (the same with the hop-decayed traversal, neighbour expansion, aggregation and
spreading activation off),
``vector`` (exact cosine over every active fact and event, a passage at its best item),
``bm25`` (the full-text index, as ``tests.bench.locomo``), ``rrf`` (vector + bm25, k = 60) and
``ppr`` (HippoRAG-2-style personalized PageRank, ``multihop_ppr``, over the agent's entities,
relations and passages). Metric: passage recall@k (README of the benchmark files).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation, WritePipeline
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.composition import build_embedder, build_llm
from server.settings import Settings
from tests.bench.corpus_texts import NARRATOR, recorded_extractions
from tests.bench.locomo import CachedEmbedder, patient
from tests.bench.locomo_parts import bm25_hits
from tests.bench.multihop_parts import (
    Passage,
    Question,
    load_corpus,
    load_openie,
    load_questions,
    passage_order,
    percentile,
    recall_at,
    rrf,
    select,
)
from tests.bench.multihop_ppr import PprIndex, build_index, unit_rows
from tests.bench.scripted_endpoint import ScriptedEndpoint
from tests.cypher import load_query

KS = (2, 5)
RANKERS = ("hippograph", "graph-off", "vector", "bm25", "rrf", "ppr")
# Output options only: a deeper list, no reranker (the ranking itself is retrieve's default).
BASE = {"enable_reranker": False, "topk_facts": 60, "topk_events": 20, "min_score": 0.0}
GRAPH_OFF = {
    "enable_graph": False,
    "enable_expansion": False,
    "enable_aggregation": False,
    "activation_seeds": 0,
}


@dataclass
class Imported:
    passages_of: dict[str, list[int]] = field(default_factory=dict)  # fact / event id → passages
    seconds: float = 0.0
    relations: int = 0
    failures: int = 0
    llm_calls: int = 0
    prompt_chars: int = 0
    prompt_tokens: int = 0
    unmatched: int = 0


async def import_triples(
    ex: Executor,
    embedder: CachedEmbedder,
    agent: str,
    passages: list[Passage],
    openie: dict[str, tuple[list[str], list[Any]]],
) -> Imported:
    out = Imported()
    facts, relations, names = [], [], {}
    for p in passages:
        ents, triples = openie.get(p.text, ([], []))
        fid = str(uuid.uuid4())
        out.passages_of[fid] = [p.idx]
        for n in (p.title, *ents):
            names.setdefault(n.casefold(), n)
        facts.append(StructuredFact(text=p.text, subject=p.title, entities=list(ents), id=fid))
        relations += [
            StructuredRelation(t.subject, t.object, t.predicate, evidence_fact_id=fid)
            for t in triples
        ]
    start = time.perf_counter()
    with progress_bar(total=len(facts), desc="import (remember)", unit="passage") as bar:
        done = [0]

        def progress(n: int, total: int) -> None:
            bar.update(round(n * len(facts) / max(1, total)) - done[0])
            done[0] = round(n * len(facts) / max(1, total))

        result = await remember(
            ex,
            embedder,
            agent,
            entities=[StructuredEntity(n) for n in names.values()],
            facts=facts,
            relations=relations,
            progress=progress,
        )
    out.seconds = time.perf_counter() - start
    out.relations = result.relations
    return out


async def import_writes(
    ex: Executor,
    embedder: CachedEmbedder,
    agent: str,
    passages: list[Passage],
    mode: str,
    settings: Settings,
    openie_path: Path | None,
    recorded: dict[str, dict[str, Any]] | None = None,
) -> Imported:
    """Every passage through ``write``; ``llm``: the extraction answered from ``recorded``
    (passage text → answer), else from the ``openie_path`` recording."""
    out = Imported()
    endpoint = None
    llm = None
    if mode == "llm":
        if recorded is None and openie_path is None:
            raise SystemExit("--mode llm needs --openie (the recorded extraction to replay)")
        if recorded is None:
            assert openie_path is not None
            recorded = recorded_extractions(path=openie_path)
        endpoint = ScriptedEndpoint(recorded=recorded)
        endpoint.__enter__()
        llm = build_llm(
            settings.model_copy(
                update={"llm_base_url": endpoint.base_url("hippograph"), "llm_max_retries": 0}
            )
        )
    pipe = WritePipeline(ex, embedder, llm)
    event_passage: dict[str, int] = {}
    start = time.perf_counter()
    try:
        for p in progress_bar(passages, desc=f"import (write, {mode})", unit="passage"):
            res = await patient(lambda p=p: pipe.write(agent, p.text, NARRATOR))
            out.failures += not res.success
            out.relations += len(res.relations)
            out.llm_calls += res.llm_calls
            if res.event_id:
                event_passage[res.event_id] = p.idx
    finally:
        if endpoint is not None:
            endpoint.__exit__(None, None, None)
    out.seconds = time.perf_counter() - start
    if endpoint is not None:
        counts = endpoint.counts.get("hippograph")
        if counts is not None:
            out.prompt_chars, out.prompt_tokens = counts.prompt_chars, counts.prompt_tokens
            out.unmatched = counts.unmatched
    out.passages_of = {e: [p] for e, p in event_passage.items()}
    rows = await ex.run_text(load_query("read_fact_provenance"), {"agent_id": agent}, read=True)
    for r in rows:
        out.passages_of[r["id"]] = sorted(
            {event_passage[e] for e in r["event_ids"] if e in event_passage}
        )
    return out


@dataclass
class Vectors:
    """The agent's active facts and events: unit vectors and the passage of each row."""

    matrix: np.ndarray
    rows: np.ndarray  # row index of each (row, passage) pair
    passage: np.ndarray  # passage of each pair

    def scores(self, query: np.ndarray) -> dict[int, float]:
        cos = self.matrix @ (query / (np.linalg.norm(query) or 1.0))
        best: dict[int, float] = {}
        for r, p in zip(self.rows.tolist(), self.passage.tolist(), strict=True):
            if cos[r] > best.get(p, -2.0):
                best[p] = float(cos[r])
        return best


async def load_vectors(ex: Executor, agent: str, passages_of: dict[str, list[int]]) -> Vectors:
    rows = await ex.run_text(load_query("multihop_items"), {"agent_id": agent}, read=True)
    rows = [r for r in rows if passages_of.get(r["id"])]
    matrix = unit_rows(np.asarray([r["embedding"] for r in rows], dtype=np.float32))
    pairs = [(i, p) for i, r in enumerate(rows) for p in passages_of[r["id"]]]
    return Vectors(matrix, np.asarray([i for i, _ in pairs]), np.asarray([p for _, p in pairs]))


async def load_ppr(
    ex: Executor,
    embedder: CachedEmbedder,
    agent: str,
    passages_of: dict[str, list[int]],
    passages: list[int],
    empty: bool = False,
) -> PprIndex:
    if empty:  # --no-ppr: a graph without edges (the ranker then follows the dense scores)
        return build_index(np.zeros((0, 1)), [], [], np.zeros((0, 1)), passages)
    ents = await ex.run_text(load_query("multihop_entities"), {"agent_id": agent}, read=True)
    rels = await ex.run_text(load_query("multihop_relations"), {"agent_id": agent}, read=True)
    node = {e["key"]: i for i, e in enumerate(ents)}
    missing = [e["name"] for e in ents if e["embedding"] is None]
    fill = iter(await embedder.embed(missing)) if missing else iter(())
    vectors = [e["embedding"] if e["embedding"] is not None else next(fill) for e in ents]
    texts = [f"{r['source']} {r['type'].replace('_', ' ')} {r['target']}" for r in rels]
    triple_vectors = await embedder.embed(texts) if texts else []
    return build_index(
        np.asarray(vectors, dtype=np.float32),
        [[p for f in e["fact_ids"] for p in passages_of.get(f, [])] for e in ents],
        [(node[r["source_key"]], node[r["target_key"]]) for r in rels],
        np.asarray(triple_vectors, dtype=np.float32),
        passages,
    )


async def ask(
    ex: Executor,
    embedder: CachedEmbedder,
    agent: str,
    questions: list[Question],
    passages_of: dict[str, list[int]],
    vectors: Vectors,
    ppr: PprIndex,
    variants: dict[str, dict[str, Any]] | None = None,
) -> dict[str, dict[str, list[float]]]:
    """Every ranker on every question → ranker → {"R@2": [...], "R@5": [...], "ms": [...]};
    ``variants``: more retrieve rows (label → options over the defaults)."""
    retriever = Retriever(ex, embedder)
    counts = (await ex.run("read/agent_counts", {"agent_id": agent}, read=True))[0]
    calls = [
        ("hippograph", BASE),
        ("graph-off", {**BASE, **GRAPH_OFF}),
        *((f"hippograph {k}", {**BASE, **v}) for k, v in (variants or {}).items()),
    ]
    names = [*RANKERS[:2], *(n for n, _ in calls[2:]), *RANKERS[2:]]
    out: dict[str, dict[str, list[float]]] = {n: {"R@2": [], "R@5": [], "ms": []} for n in names}
    for q in progress_bar(questions, desc="questions", unit="q"):
        qvec = np.asarray((await embedder.embed_query([q.text]))[0], dtype=np.float32)
        lists: dict[str, list[int]] = {}
        ms: dict[str, float] = {}
        for name, options in calls:
            t = time.perf_counter()
            res = await patient(
                lambda o=options, text=q.text: retriever.retrieve(agent, text, options=o)
            )
            ms[name] = (time.perf_counter() - t) * 1000
            items = [(f.scores.final, f.id) for f in res.facts] + [
                (e.score, e.id) for e in res.events
            ]
            lists[name] = passage_order(
                [i for _, i in sorted(items, key=lambda x: -x[0])], passages_of
            )
        t = time.perf_counter()
        dense = vectors.scores(qvec)
        lists["vector"] = sorted(dense, key=lambda p: (-dense[p], p))
        ms["vector"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        hits = await patient(
            lambda text=q.text, vec=qvec.tolist(): bm25_hits(ex, agent, text, vec, counts)
        )
        ranked = sorted(hits["facts"] + hits["events"], key=lambda x: -x[0])
        lists["bm25"] = passage_order([i for _, i in ranked], passages_of)
        ms["bm25"] = (time.perf_counter() - t) * 1000
        lists["rrf"] = rrf(lists["vector"][:20], lists["bm25"])
        ms["rrf"] = ms["vector"] + ms["bm25"]
        t = time.perf_counter()
        lists["ppr"] = ppr.rank(qvec, dense)
        ms["ppr"] = (time.perf_counter() - t) * 1000 + ms["vector"]
        for name in names:
            for k in KS:
                out[name][f"R@{k}"].append(recall_at(lists[name], q.gold, k))
            out[name]["ms"].append(ms[name])
    return out


def summary(
    mode: str, passages: int, questions: int, imp: Imported, raw: dict[str, dict[str, list[float]]]
) -> dict[str, Any]:
    return {
        "mode": mode,
        "passages": passages,
        "questions": questions,
        "import_s": round(imp.seconds, 2),
        "passages_per_s": round(passages / imp.seconds, 2) if imp.seconds else None,
        "relations_per_passage": round(imp.relations / max(1, passages), 3),
        "failed_writes": imp.failures,
        **(
            {
                "llm": {
                    "calls_per_passage": round(imp.llm_calls / max(1, passages), 3),
                    "prompt_chars_per_passage": round(imp.prompt_chars / max(1, passages)),
                    "prompt_tokens_per_passage": round(imp.prompt_tokens / max(1, passages)),
                    "unrecorded_passages": imp.unmatched,
                }
            }
            if mode == "llm"
            else {}
        ),
        "rankers": {
            name: {
                **{k: round(float(np.mean(v)), 4) for k, v in cells.items() if k.startswith("R@")},
                "p50_ms": round(percentile(cells["ms"], 50), 1),
                "p95_ms": round(percentile(cells["ms"], 95), 1),
            }
            for name, cells in raw.items()
        },
    }


def print_table(s: dict[str, Any]) -> None:
    print(
        f"\nmode {s['mode']}: {s['passages']} passages, {s['questions']} questions; import "
        f"{s['import_s']:.1f} s ({s['passages_per_s']} passages/s), "
        f"{s['relations_per_passage']} relations/passage, {s['failed_writes']} failed writes"
    )
    if "llm" in s:
        m = s["llm"]
        print(
            f"LLM per passage: {m['calls_per_passage']} calls, {m['prompt_chars_per_passage']} "
            f"prompt chars (~{m['prompt_tokens_per_passage']} tokens); "
            f"{m['unrecorded_passages']} passages without a recording"
        )
    print("\n| ranker | R@2 | R@5 | p50 ms | p95 ms |\n|---|---|---|---|---|")
    for name, r in s["rankers"].items():
        print(
            f"| {name} | {r['R@2']:.3f} | {r['R@5']:.3f} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} |"
        )


async def main(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings()
    corpus = load_corpus(json.loads(Path(args.corpus).read_text()))
    questions = load_questions(json.loads(Path(args.questions).read_text()), corpus)
    passages, questions = select(corpus, questions, args.limit_questions, args.limit_passages)
    openie_path = Path(args.openie) if args.openie else None
    if args.mode == "triples" and openie_path is None:
        raise SystemExit("--mode triples needs --openie (the entities and triples to import)")
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    if args.embedder:
        settings = settings.model_copy(update={"embedder": args.embedder})
    embedder = CachedEmbedder(build_embedder(settings))
    await ensure_schema(ex, embedder.dimensions)
    agent = f"bench-multihop-{args.mode}-{uuid.uuid4().hex[:6]}"
    kept = json.loads(Path(args.reuse).read_text()) if args.reuse else None
    if kept is not None:
        agent = kept["agent"]
    print(
        f"load average {os.getloadavg()[0]:.1f}; {len(passages)} passages, "
        f"{len(questions)} questions, agent {agent}"
    )
    try:
        if kept is not None:  # the import of an earlier --keep run with the same files
            imp = Imported(**kept["import"])
        elif args.mode == "triples":
            assert openie_path is not None
            openie = load_openie(json.loads(openie_path.read_text()))
            imp = await import_triples(ex, embedder, agent, passages, openie)
        else:
            imp = await import_writes(
                ex, embedder, agent, passages, args.mode, settings, openie_path
            )
        t = time.perf_counter()
        vectors = await load_vectors(ex, agent, imp.passages_of)
        ppr = await load_ppr(
            ex, embedder, agent, imp.passages_of, [p.idx for p in passages], args.no_ppr
        )
        print(
            f"ppr graph: {ppr.graph.n} nodes, {len(ppr.graph.src)} edges, "
            f"{len(ppr.triple_ends)} triples ({time.perf_counter() - t:.0f} s to build)"
        )
        raw = await ask(
            ex,
            embedder,
            agent,
            questions,
            imp.passages_of,
            vectors,
            ppr,
            {v.split("=", 1)[0]: json.loads(v.split("=", 1)[1]) for v in args.variant},
        )
        if args.keep:
            Path(args.keep).write_text(json.dumps({"agent": agent, "import": vars(imp)}))
    finally:
        if not args.keep and not args.reuse:
            await delete_agent(ex, agent)
        await ex.close()
    s = summary(args.mode, len(passages), len(questions), imp, raw)
    print_table(s)
    if args.json:
        Path(args.json).write_text(json.dumps(s, indent=2))
    return s


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", required=True, help="questions JSON (MuSiQue / HotpotQA)")
    parser.add_argument("--corpus", required=True, help="corpus JSON (list or title → sentences)")
    parser.add_argument("--openie", default=None, help="recorded OpenIE JSON (llm, triples)")
    parser.add_argument("--mode", choices=("llm", "offline", "triples"), required=True)
    parser.add_argument("--json", default=None, metavar="OUT", help="write the figures here")
    parser.add_argument(
        "--limit-questions", type=int, default=None, help="the first N questions only"
    )
    parser.add_argument(
        "--limit-passages",
        type=int,
        default=None,
        help="at most N passages: the kept questions' supporting ones first",
    )
    parser.add_argument(
        "--keep",
        default=None,
        metavar="FILE",
        help="keep the agent and describe its import here (for --reuse)",
    )
    parser.add_argument(
        "--reuse",
        default=None,
        metavar="FILE",
        help="ask the agent a --keep run imported (same files and limits)",
    )
    parser.add_argument(
        "--embedder",
        default=None,
        choices=("minilm", "e5", "e5-enpt"),
        help="the embedder of every ranker (default: the configured one, HIPPOGRAPH_EMBEDDER)",
    )
    parser.add_argument(
        "--no-ppr",
        action="store_true",
        help="skip building the PageRank graph (its row then equals vector)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="LABEL=JSON",
        help="one more retrieve row with these options, e.g. 'activation0={\"activation_seeds\": 0}'",
    )
    asyncio.run(main(parser.parse_args()))
