"""Bilingual benchmark: Pirá's questions in English and Portuguese against a memory held in
English, in Portuguese and in both (half of the abstracts in each language), every ranker in
the same run on the same stored vectors.

    .venv/bin/python -m tests.bench.bilingual [--data ../shared/bench/bilingual]
        [--split validation] [--memories en,pt,mixed] [--questions en,pt]
        [--embedder minilm|e5|e5-enpt] [--limit-questions N] [--json OUT]
        [--mode offline|llm] [--no-gloss]

Each memory language is one new agent: every abstract of ``pira-corpus-<memory>.json`` goes
through ``write`` on the offline path (the product's default: no LLM), with the embedder the
settings configure (``HIPPOGRAPH_EMBEDDER``) unless ``--embedder`` names another. The agent is
deleted at the end unless ``--keep FILE`` keeps it for ``--reuse FILE`` (then
``--cleanup FILE`` deletes the kept agents).

``--mode llm``: every abstract goes through ``write`` on the LLM path instead, its informed
extraction answered by a scripted OpenAI-compatible endpoint on loopback (through the real
``openai`` client; ``tests.bench.bilingual_llm`` says what it answers): the abstract's
sentences as facts, and for an abstract held in Portuguese each fact's English gloss, the
dataset's human English version of the same sentences. Two more rows then: ``hippograph
no-gloss`` (the same agent, ``enable_gloss`` off: as if the extraction had given no gloss) and
``vector+gloss`` (the exact vector ranker over the text and the gloss vectors; ``vector`` reads
the text vectors only). ``--no-gloss`` imports the same facts without glosses (a check that
the switch stands for an import without them).

Rankers (``tests.bench.multihop``): ``hippograph`` (``retrieve`` with its defaults, no
reranker, a deeper list), ``graph-off``, ``vector`` (exact cosine over every active fact and
event), ``bm25`` (the full-text index) and ``rrf`` (vector + bm25). Metric: passage recall@k
of the one abstract each question was written about. Cost: process CPU seconds per written
abstract (this process: extraction and embedding; the server's share is not in it) and the
``retrieve`` p50 / p95.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.providers import Embedder
from graph.schema import ensure_schema
from server.composition import build_embedder
from server.settings import Settings
from tests.bench.bilingual_llm import recorded
from tests.bench.locomo import CachedEmbedder
from tests.bench.multihop import (
    Imported,
    Vectors,
    ask,
    import_writes,
    load_ppr,
    load_vectors,
)
from tests.bench.multihop_parts import (
    Question,
    load_corpus,
    load_questions,
    percentile,
    recall_at,
)
from tests.bench.multihop_ppr import unit_rows
from tests.cypher import load_query

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT.parent / "shared" / "bench" / "bilingual"
SHOWN = ("hippograph", "graph-off", "vector", "bm25", "rrf")
# The LLM mode's row of retrieve without the glosses (beside its row of vector with them).
NO_GLOSS = {"no-gloss": {"enable_gloss": False}}
FIGURES = ("cpu_s_per_passage", "import_s", "relations_per_passage", "failed_writes")


def kept_key(args: argparse.Namespace, memory: str) -> str:
    """A memory's entry in a --keep file (the LLM mode's agents apart from the offline ones)."""
    if args.mode == "offline":
        return memory
    return f"{args.mode}-{memory}" + ("-nogloss" if args.no_gloss else "")


def scripted(data: Path, memory: str, no_gloss: bool) -> dict[str, dict[str, Any]]:
    """The LLM mode's scripted extraction of every abstract of ``memory``."""
    by_title = {
        lang: {d["title"]: d["text"] for d in json.loads(corpus_file(data, lang).read_text())}
        for lang in ("en", "pt")
    }
    corpus = json.loads(corpus_file(data, memory).read_text())
    return recorded(corpus, by_title["en"], by_title["pt"], glosses=not no_gloss)


async def with_glosses(
    ex: Executor, agent: str, passages_of: dict[str, list[int]], base: Vectors
) -> Vectors:
    """``base`` (text vectors of the facts and events) with the facts' gloss vectors added:
    a passage scores its best item, text or gloss."""
    rows = await ex.run_text(load_query("bilingual_glosses"), {"agent_id": agent}, read=True)
    rows = [r for r in rows if passages_of.get(r["id"])]
    if not rows:
        return base
    extra = unit_rows(np.asarray([r["gloss_embedding"] for r in rows], dtype=np.float32))
    first = base.matrix.shape[0]
    pairs = [(first + i, p) for i, r in enumerate(rows) for p in passages_of[r["id"]]]
    return Vectors(
        np.vstack([base.matrix, extra]),
        np.concatenate([base.rows, np.asarray([i for i, _ in pairs])]),
        np.concatenate([base.passage, np.asarray([p for _, p in pairs])]),
    )


async def vector_ranker(
    embedder: CachedEmbedder, questions: list[Question], vectors: Vectors
) -> dict[str, list[float]]:
    """The exact vector ranker over ``vectors``: R@2, R@5 and ms per question."""
    out: dict[str, list[float]] = {"R@2": [], "R@5": [], "ms": []}
    for q in questions:
        qvec = np.asarray((await embedder.embed_query([q.text]))[0], dtype=np.float32)
        t = time.perf_counter()
        dense = vectors.scores(qvec)
        ranked = sorted(dense, key=lambda p: (-dense[p], p))
        out["ms"].append((time.perf_counter() - t) * 1000)
        for k in (2, 5):
            out[f"R@{k}"].append(recall_at(ranked, q.gold, k))
    return out


def kept_file(args: argparse.Namespace, memory: str) -> dict[str, Any] | None:
    path = Path(args.reuse)
    kept = json.loads(path.read_text()) if path.exists() else {}
    return kept.get(kept_key(args, memory))


def keep_agent(args: argparse.Namespace, memory: str, record: dict[str, Any]) -> None:
    path = Path(args.keep)
    kept = json.loads(path.read_text()) if path.exists() else {}
    kept[kept_key(args, memory)] = record
    path.write_text(json.dumps(kept))


def corpus_file(data: Path, memory: str) -> Path:
    return data / f"pira-corpus-{memory}.json"


def questions_file(data: Path, split: str, question: str, memory: str) -> Path:
    return data / f"pira-{split}-q{question}-corpus-{memory}.json"


async def one_memory(
    settings: Settings,
    inner: Embedder,
    data: Path,
    args: argparse.Namespace,
    memory: str,
    variants: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """Write one memory language's corpus into a fresh agent and ask it every question
    language; the agent is deleted afterwards."""
    corpus = load_corpus(json.loads(corpus_file(data, memory).read_text()))
    embedder = CachedEmbedder(inner)  # per memory: no vector reused across memories' CPU
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    await ensure_schema(ex, embedder.dimensions)
    kept = (kept_file(args, memory) or {}) if args.reuse else {}
    agent = kept.get("agent") or f"bench-bilingual-{args.mode}-{memory}-{uuid.uuid4().hex[:6]}"
    out: dict[str, Any] = {"memory": memory, "passages": len(corpus), "asked": {}}
    try:
        if kept:  # the import of an earlier --keep run (same files, same embedder)
            imp = Imported(**kept["import"])
            out.update(kept["figures"])
        else:
            cpu = time.process_time()
            script = scripted(data, memory, args.no_gloss) if args.mode == "llm" else None
            imp = await import_writes(
                ex, embedder, agent, corpus, args.mode, settings, None, recorded=script
            )
            out["cpu_s_per_passage"] = round((time.process_time() - cpu) / max(1, len(corpus)), 3)
            out["import_s"] = round(imp.seconds, 1)
            out["relations_per_passage"] = round(imp.relations / max(1, len(corpus)), 3)
            out["failed_writes"] = imp.failures
        if args.keep:
            figures = {k: out[k] for k in FIGURES}
            keep_agent(args, memory, {"agent": agent, "import": vars(imp), "figures": figures})
        vectors = await load_vectors(ex, agent, imp.passages_of)
        glossed = await with_glosses(ex, agent, imp.passages_of, vectors)
        no_graph = await load_ppr(
            ex, embedder, agent, imp.passages_of, [p.idx for p in corpus], empty=True
        )
        for lang in args.questions:
            raw_q = json.loads(questions_file(data, args.split, lang, memory).read_text())
            questions = load_questions(raw_q, corpus)[: args.limit_questions]
            raw = await ask(
                ex, embedder, agent, questions, imp.passages_of, vectors, no_graph, variants
            )
            if args.mode == "llm":
                raw["vector+gloss"] = await vector_ranker(embedder, questions, glossed)
            out["asked"][lang] = {
                "questions": len(questions),
                "rankers": {
                    name: {
                        **{
                            k: round(float(np.mean(v)), 4)
                            for k, v in raw[name].items()
                            if k != "ms"
                        },
                        "p50_ms": round(percentile(raw[name]["ms"], 50), 1),
                        "p95_ms": round(percentile(raw[name]["ms"], 95), 1),
                    }
                    for name in (*SHOWN, *(f"hippograph {v}" for v in variants), "vector+gloss")
                    if name in raw
                },
            }
    finally:
        if not args.keep and not args.reuse:
            await delete_agent(ex, agent)
        await ex.close()
    return out


def print_tables(
    embedder: str, results: list[dict[str, Any]], extra: list[str], k: str = "R@5"
) -> None:
    shown = (*SHOWN, *extra)
    print(f"\nembedder {embedder}; passage {k} (R@2 in brackets)\n")
    print("| questions → memory | " + " | ".join(shown) + " |")
    print("|---|" + "---|" * len(shown))
    for res in results:
        for lang, cell in res["asked"].items():
            r = cell["rankers"]
            row = " | ".join(f"{r[n][k]:.3f} ({r[n]['R@2']:.3f})" for n in shown)
            print(f"| {lang} → {res['memory']} ({cell['questions']} q) | {row} |")
    print(
        "\n| memory | import s | CPU s / abstract | relations / abstract | retrieve p50 / p95 ms |"
    )
    print("|---|---|---|---|---|")
    for res in results:
        ms = [c["rankers"]["hippograph"] for c in res["asked"].values()]
        p50 = max((m["p50_ms"] for m in ms), default=0.0)
        p95 = max((m["p95_ms"] for m in ms), default=0.0)
        print(
            f"| {res['memory']} | {res['import_s']} | {res['cpu_s_per_passage']} | "
            f"{res['relations_per_passage']} | {p50} / {p95} |"
        )


async def main(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings()
    if args.embedder:
        settings = settings.model_copy(update={"embedder": args.embedder})
    embedder = build_embedder(settings)
    data = Path(args.data)
    print(
        f"load average {os.getloadavg()[0]:.1f}; embedder {embedder.name}; memories "
        f"{','.join(args.memories)}; questions {','.join(args.questions)} ({args.split})"
    )
    variants = {v.split("=", 1)[0]: json.loads(v.split("=", 1)[1]) for v in args.variant}
    if args.mode == "llm":
        variants = {**NO_GLOSS, **variants}
    results = [await one_memory(settings, embedder, data, args, m, variants) for m in args.memories]
    extra = [f"hippograph {v}" for v in variants] + (["vector+gloss"] if args.mode == "llm" else [])
    print_tables(embedder.name, results, extra)
    if args.keep:
        print(f"agents kept (see {args.keep}); delete them with --cleanup {args.keep}")
    summary = {
        "embedder": embedder.name,
        "split": args.split,
        "mode": args.mode + (" (no glosses)" if args.no_gloss else ""),
        "memories": results,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))
    return summary


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="the bilingual data folder")
    parser.add_argument("--split", default="validation", help="question files' split name")
    parser.add_argument(
        "--memories", default="en,pt,mixed", type=lambda s: s.split(","), help="memory languages"
    )
    parser.add_argument(
        "--questions", default="en,pt", type=lambda s: s.split(","), help="question languages"
    )
    parser.add_argument(
        "--embedder",
        default=None,
        choices=("minilm", "e5", "e5-enpt"),
        help="the embedder (default: the configured one, HIPPOGRAPH_EMBEDDER)",
    )
    parser.add_argument("--limit-questions", type=int, default=None, help="first N per file")
    parser.add_argument(
        "--mode",
        default="offline",
        choices=("offline", "llm"),
        help="write path: offline extraction, or the LLM path with a scripted extraction",
    )
    parser.add_argument(
        "--no-gloss",
        action="store_true",
        help="llm mode: the same scripted facts without their English glosses",
    )
    parser.add_argument("--json", default=None, metavar="OUT", help="write the figures here")
    parser.add_argument(
        "--keep", default=None, metavar="FILE", help="keep the agents, described in FILE"
    )
    parser.add_argument(
        "--reuse", default=None, metavar="FILE", help="ask the agents a --keep run wrote"
    )
    parser.add_argument(
        "--cleanup", default=None, metavar="FILE", help="delete the agents FILE describes"
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="LABEL=JSON",
        help='one more retrieve row with these options, e.g. \'kw={"weights": {"keyword": 0.3}}\'',
    )
    return parser.parse_args(argv)


async def cleanup(path: Path) -> None:
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    try:
        for memory, record in json.loads(path.read_text()).items():
            await delete_agent(ex, record["agent"])
            print(f"deleted {record['agent']} ({memory})")
    finally:
        await ex.close()
    path.unlink()


if __name__ == "__main__":
    cli = parse_args()
    asyncio.run(cleanup(Path(cli.cleanup)) if cli.cleanup else main(cli))
