"""How far a fusion of the stored signals can go on Pirá: the kept agents of a
``tests.bench.bilingual --keep FILE`` run, every item's exact cosine and keyword score read
once per question, then families of fusion formulas computed offline on the same numbers.

    .venv/bin/python -m tests.bench.bilingual --keep K.json      # import once (e5: ~25 min)
    .venv/bin/python -m tests.bench.bilingual_ceiling K.json [--memories pt,mixed]

What each row ranks (an item is a fact or an event; a passage counts at its best item; passage
R@5 as in ``tests.bench.bilingual``):

- ``vector``: the exact cosine (the bilingual benchmark's vector peer);
- ``vector + gap``: plus the embedder's cross-lingual gap for items in another language than
  the question (what retrieve's blend adds, ``ranking.language_gap``);
- ``+ keyword a``: plus ``a`` × the keyword score on cut words, normalised by the agent's best
  hit (retrieve's keyword signal) — on e5's scale, retrieve's blend weighs it about 0.02;
- ``per-language p90``: instead of a fixed gap, each language's cosines read against that
  language's 90th percentile for this question (an adaptive gap);
- ``feedback``: the question's vector moved towards its five best items (Rocchio
  pseudo-relevance feedback), then ranked again.

The best of these rows is an upper bound for retrieve's linear blend on these signals: it is
chosen after the fact on the same questions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graph.executor import Executor, connect
from graph.memory.read.words import PREFIX_CHARS
from graph.memory.text import detect_language
from graph.providers import Embedder
from graph.providers.base import embed_queries
from server.composition import build_embedder
from server.settings import Settings
from tests.bench.bilingual import DEFAULT_DATA, corpus_file, questions_file
from tests.bench.locomo_parts import bm25_hits
from tests.bench.multihop_parts import load_corpus, load_questions, passage_order, recall_at
from tests.cypher import load_query

Formula = Callable[["Asked"], np.ndarray]


@dataclass
class Items:
    """One agent's facts and events with a passage: unit vectors, passages, languages."""

    ids: list[str]
    vectors: np.ndarray
    passages: dict[str, list[int]]
    other_language: dict[str, np.ndarray]  # question language → 1.0 where the item's differs
    language: np.ndarray


@dataclass
class Asked:
    """One question's numbers over every item."""

    vector: np.ndarray
    cosine: np.ndarray
    keyword: np.ndarray
    gap: np.ndarray  # the embedder's cross-lingual gap where the item's language differs
    items: Items


async def load_items(ex: Executor, agent: str, passages_of: dict[str, list[int]]) -> Items:
    rows = await ex.run_text(load_query("multihop_items"), {"agent_id": agent}, read=True)
    rows = [r for r in rows if passages_of.get(r["id"])]
    texts = await ex.run_text(
        load_query("bench_item_texts"),
        {"ids": [r["id"] for r in rows], "agent_id": agent},
        read=True,
    )
    text_of = {t["id"]: t["text"] or "" for t in texts}
    matrix = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    language = np.asarray([detect_language(text_of.get(r["id"], "")) or "" for r in rows])
    other = {
        lang: ((language != "") & (language != lang)).astype(np.float32) for lang in ("en", "pt")
    }
    return Items([r["id"] for r in rows], matrix, passages_of, other, language)


async def keyword_scores(
    ex: Executor, agent: str, question: str, vector: list[float], items: Items
) -> np.ndarray:
    """Retrieve's keyword signal for every item: BM25 on cut words, ÷ the agent's best hit."""
    counts = (await ex.run("read/agent_counts", {"agent_id": agent}, read=True))[0]
    hits = await bm25_hits(
        ex, agent, question, vector, counts, field="terms", prefix=PREFIX_CHARS, limit=100
    )
    where = {item: n for n, item in enumerate(items.ids)}
    out = np.zeros(len(items.ids), dtype=np.float32)
    for score, item in hits["facts"] + hits["events"]:
        if item in where:
            out[where[item]] = score
    return out


def per_language(asked: Asked, quantile: float = 90.0) -> np.ndarray:
    """Each language's cosines less that language's ``quantile`` for this question (items of a
    language with fewer than 50 items are read against all items)."""
    cos, language = asked.cosine, asked.items.language
    out = cos - np.percentile(cos, quantile)
    for lang in set(language.tolist()):
        group = language == lang
        if lang and group.sum() >= 50:
            out[group] = cos[group] - np.percentile(cos[group], quantile)
    return out


def feedback(asked: Asked, beta: float = 0.3, top: int = 5) -> np.ndarray:
    first = asked.cosine + asked.gap + 0.01 * asked.keyword
    best = np.argsort(-first)[:top]
    moved = asked.vector + beta * asked.items.vectors[best].mean(axis=0)
    moved /= np.linalg.norm(moved)
    return asked.items.vectors @ moved + asked.gap + 0.01 * asked.keyword


def with_keyword(weight: float) -> Formula:
    return lambda a: a.cosine + a.gap + weight * a.keyword


FORMULAS: dict[str, Formula] = {
    "vector": lambda a: a.cosine,
    "vector + gap": lambda a: a.cosine + a.gap,
    "keyword alone": lambda a: a.keyword + 1e-4 * a.cosine,
    **{f"vector + gap + keyword {w}": with_keyword(w) for w in (0.01, 0.02, 0.04)},
    "per-language p90 + keyword 0.01": lambda a: per_language(a) + 0.01 * a.keyword,
    "feedback (0.3 × 5 best) + keyword 0.01": feedback,
}


async def one_memory(
    settings: Settings, embedder: Embedder, kept: dict, memory: str, languages: list[str]
) -> dict[str, dict[str, float]]:
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    agent, passages_of = kept["agent"], kept["import"]["passages_of"]
    corpus = load_corpus(json.loads(corpus_file(DEFAULT_DATA, memory).read_text()))
    gap = float(getattr(embedder, "language_gap", 0.0))
    out: dict[str, dict[str, float]] = {}
    try:
        items = await load_items(ex, agent, passages_of)
        for lang in languages:
            raw = json.loads(questions_file(DEFAULT_DATA, "validation", lang, memory).read_text())
            questions = load_questions(raw, corpus)
            vectors = await embed_queries(embedder, [q.text for q in questions])
            recalls: dict[str, list[float]] = {name: [] for name in FORMULAS}
            for q, vec in zip(questions, vectors, strict=True):
                qv = np.asarray(vec, dtype=np.float32)
                asked = Asked(
                    qv,
                    items.vectors @ qv,
                    await keyword_scores(ex, agent, q.text, vec, items),
                    gap * items.other_language[detect_language(q.text) or lang],
                    items,
                )
                for name, formula in FORMULAS.items():
                    order = [items.ids[i] for i in np.argsort(-formula(asked), kind="stable")]
                    ranked = passage_order(order, passages_of)
                    recalls[name].append(recall_at(ranked, q.gold, 5))
            out[f"{lang} → {memory}"] = {n: float(np.mean(v)) for n, v in recalls.items()}
    finally:
        await ex.close()
    return out


async def main(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    settings = Settings()
    embedder = build_embedder(settings)
    kept = json.loads(Path(args.kept).read_text())
    table: dict[str, dict[str, float]] = {}
    for memory in args.memories:
        table.update(await one_memory(settings, embedder, kept[memory], memory, args.questions))
    print(f"\nembedder {embedder.name}; passage R@5 of formulas over the stored signals\n")
    print("| formula | " + " | ".join(table) + " |")
    print("|---|" + "---|" * len(table))
    for name in FORMULAS:
        print(f"| {name} | " + " | ".join(f"{col[name]:.3f}" for col in table.values()) + " |")
    return table


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kept", help="the FILE a `tests.bench.bilingual --keep FILE` run wrote")
    parser.add_argument(
        "--memories", default="en,pt,mixed", type=lambda s: s.split(","), help="memory languages"
    )
    parser.add_argument(
        "--questions", default="en,pt", type=lambda s: s.split(","), help="question languages"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
