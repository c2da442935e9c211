"""Multi-hop benchmark parts without I/O: the files' formats (HippoRAG's MuSiQue / HotpotQA
samples), the metric (passage recall@k), ranked items → passages, reciprocal-rank fusion, and a
HippoRAG-2-style personalized PageRank over a phrase + passage graph (numpy).

Formats (see the README of the benchmark folder):

- corpus: a list of ``{title, text}`` (MuSiQue) or an object ``title → sentences`` (HotpotQA);
- questions: MuSiQue rows with ``paragraphs`` (``is_supporting``, matched to the corpus by title
  + text), or HotpotQA rows with ``supporting_facts`` (every passage of a supporting title);
- OpenIE: ``docs`` of ``{text, extracted_entities, extracted_triples}`` keyed here by text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Graph",
    "Passage",
    "Question",
    "Triple",
    "load_corpus",
    "load_openie",
    "load_questions",
    "passage_order",
    "percentile",
    "personalized_pagerank",
    "ppr_reset",
    "recall_at",
    "rrf",
    "select",
]


@dataclass(frozen=True)
class Passage:
    idx: int
    title: str
    text: str


@dataclass(frozen=True)
class Question:
    text: str
    gold: frozenset[int]  # passage indices that support the answer


@dataclass(frozen=True)
class Triple:
    subject: str
    predicate: str
    object: str


def load_corpus(raw: Any) -> list[Passage]:
    """MuSiQue's list of ``{title, text}`` or HotpotQA's ``title → sentences``."""
    if isinstance(raw, dict):
        return [Passage(i, t, "".join(s)) for i, (t, s) in enumerate(raw.items())]
    return [Passage(i, d["title"], d["text"]) for i, d in enumerate(raw)]


def load_questions(raw: list[dict[str, Any]], corpus: list[Passage]) -> list[Question]:
    """Each question with the corpus indices of its supporting passages (a question none of
    whose supporting passages is in the corpus is left out: it cannot be scored)."""
    by_text = {(p.title, p.text.strip()): p.idx for p in corpus}
    by_title: dict[str, list[int]] = {}
    for p in corpus:
        by_title.setdefault(p.title, []).append(p.idx)
    out = []
    for row in raw:
        if "paragraphs" in row:
            gold = {
                by_text.get((p["title"], p["paragraph_text"].strip()))
                for p in row["paragraphs"]
                if p.get("is_supporting")
            }
        else:
            gold = {i for title, _ in row["supporting_facts"] for i in by_title.get(title, [])}
        gold.discard(None)
        if gold:
            out.append(Question(row["question"], frozenset(i for i in gold if i is not None)))
    return out


def load_openie(raw: dict[str, Any]) -> dict[str, tuple[list[str], list[Triple]]]:
    """Passage text → (entity names, well-formed triples) of a recorded OpenIE file."""
    out: dict[str, tuple[list[str], list[Triple]]] = {}
    for doc in raw["docs"]:
        triples = [
            Triple(*(x.strip() for x in t))
            for t in doc["extracted_triples"]
            if isinstance(t, list)
            and len(t) == 3
            and all(isinstance(x, str) and x.strip() for x in t)
        ]
        names = [n.strip() for n in doc["extracted_entities"] if isinstance(n, str) and n.strip()]
        names = list(dict.fromkeys([*names, *(x for t in triples for x in (t.subject, t.object))]))
        out[doc["text"]] = (names, triples)
    return out


def select(
    corpus: list[Passage],
    questions: list[Question],
    max_questions: int | None,
    max_passages: int | None,
) -> tuple[list[Passage], list[Question]]:
    """The first ``max_questions`` questions and a corpus of at most ``max_passages``: every
    supporting passage of the kept questions first, then the corpus in order (distractors)."""
    questions = questions[:max_questions] if max_questions else questions
    if not max_passages or max_passages >= len(corpus):
        return corpus, questions
    keep = list(dict.fromkeys(i for q in questions for i in sorted(q.gold)))
    for p in corpus:
        if len(keep) >= max_passages:
            break
        if p.idx not in keep:
            keep.append(p.idx)
    kept = set(keep)
    return [p for p in corpus if p.idx in kept], questions


def passage_order(items: Iterable[str], passages_of: dict[str, Sequence[int]]) -> list[int]:
    """Ranked item ids (facts, events) → ranked passages, each at its first item's rank."""
    out: dict[int, None] = {}
    for item in items:
        for p in passages_of.get(item, ()):
            out.setdefault(p, None)
    return list(out)


def recall_at(ranked: Sequence[int], gold: Iterable[int], k: int) -> float:
    """Share of the gold passages among the top ``k`` ranked passages (HippoRAG's recall@k)."""
    gold = set(gold)
    return len(gold & set(ranked[:k])) / len(gold) if gold else 0.0


def rrf(*lists: Sequence[int], k: int = 60) -> list[int]:
    """Reciprocal-rank fusion of ranked lists (ties: the earlier list's order)."""
    score: dict[int, float] = {}
    for ranked in lists:
        for rank, item in enumerate(ranked, 1):
            score[item] = score.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(score, key=lambda i: -score[i])


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if len(values) else 0.0


@dataclass
class Graph:
    """An undirected weighted graph of ``n`` nodes as edge arrays (each edge listed once)."""

    n: int
    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    weight: list[float] = field(default_factory=list)

    def add(self, a: int, b: int, w: float = 1.0) -> None:
        if a != b:
            self.src.append(a)
            self.dst.append(b)
            self.weight.append(w)


def personalized_pagerank(
    graph: Graph, reset: np.ndarray, damping: float = 0.5, iterations: int = 100, tol: float = 1e-8
) -> np.ndarray:
    """PageRank with restart to ``reset`` (normalised to sum 1) on the undirected graph: each
    node passes ``damping`` of its score to its neighbours in proportion to edge weight, and
    ``1 - damping`` of the total restarts at the reset distribution; a node without edges keeps
    nothing (its mass restarts). Power iteration until the L1 change is under ``tol``."""
    reset = np.asarray(reset, dtype=float)
    if reset.sum() <= 0:
        return np.zeros(graph.n)
    reset = reset / reset.sum()
    src = np.asarray(graph.src + graph.dst, dtype=np.int64)
    dst = np.asarray(graph.dst + graph.src, dtype=np.int64)
    w = np.asarray(graph.weight + graph.weight, dtype=float)
    out_w = np.bincount(src, weights=w, minlength=graph.n)
    share = w / np.where(out_w[src] > 0, out_w[src], 1.0)
    score = reset.copy()
    for _ in range(iterations):
        moved = np.bincount(dst, weights=score[src] * share, minlength=graph.n)
        kept = moved.sum()
        nxt = damping * moved + (1.0 - damping * kept) * reset
        if np.abs(nxt - score).sum() < tol:
            return nxt
        score = nxt
    return score


def ppr_reset(
    n: int,
    phrase_weights: dict[int, float],
    passage_scores: dict[int, float],
    passage_weight: float = 0.05,
) -> np.ndarray:
    """HippoRAG 2's restart vector: the query's phrase nodes (from the triples most similar to
    the query) at their weights, plus every passage node at ``passage_weight`` × its dense score
    min-max normalised to [0, 1]."""
    reset = np.zeros(n)
    for node, w in phrase_weights.items():
        reset[node] += w
    if passage_scores:
        vals = np.asarray(list(passage_scores.values()), dtype=float)
        lo, span = vals.min(), float(vals.max() - vals.min()) or 1.0
        for node, s in passage_scores.items():
            reset[node] += passage_weight * (s - lo) / span
    return reset
