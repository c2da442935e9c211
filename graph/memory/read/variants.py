"""Ranking levers measured without a gain on LoCoMo (``VariantConfig``, off by default, kept
so the benchmarks and a caller can compare against them; pure): reciprocal-rank fusion in
place of the blend, the query-side keyword coverage model and MMR diversity on word overlap.
See docs/benchmarks.md for what each measured."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, ScoredFact
from graph.memory.text import fold

__all__ = ["diversify", "fuse_rrf", "keyword_coverage", "rrf_scores"]


def _stem(word: str) -> str:
    """A crude suffix strip so "painting" / "painted" / "paints" meet "paint"."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def keyword_coverage(
    facts: Sequence[ScoredFact], terms: Sequence[str], events: Sequence[EventHit] = ()
) -> None:
    """Query-side keyword model: a candidate's keyword score = the share of the query's terms
    it contains, each term weighted by its IDF over the candidate pool (log(1 + N / df)),
    facts and conversation snippets alike.

    Global BM25 scores depend on every tenant's text (a name rare elsewhere dominates) and
    only the keyword signal's own hits get one; this scores every candidate the same way,
    and a term in most candidates (the person the question is about) weighs little. The
    higher of this and the normalised BM25 is kept."""
    stems = list(dict.fromkeys(_stem(fold(t)) for t in terms if len(t) > 2))
    texts = [f.text for f in facts] + [e.text for e in events]
    if not texts or not stems:
        return
    words = [{_stem(w) for w in fold(text).split()} for text in texts]
    n = len(texts)
    df = {t: sum(1 for ws in words if t in ws) for t in stems}
    weight = {t: math.log1p(n / df[t]) if df[t] else math.log1p(n) for t in stems}
    total = sum(weight.values())
    covered = [sum(w for t, w in weight.items() if t in ws) / total for ws in words]
    for fact, value in zip(facts, covered, strict=False):
        fact.scores.keyword = max(fact.scores.keyword, value)
    for event, value in zip(events, covered[len(facts) :], strict=True):
        event.keyword = max(event.keyword, value)


def rrf_scores(
    columns: Mapping[str, Sequence[float]], weights: Mapping[str, float], k: int
) -> list[float]:
    """Weighted reciprocal-rank fusion, normalised to 0..1 (1 = first in every signal).

    ``columns`` maps a signal to one value per candidate; a candidate with value <= 0 is
    absent from that signal's ranking. Ties share the better rank."""
    n = len(next(iter(columns.values()), []))
    out = [0.0] * n
    best = 0.0
    for name, values in columns.items():
        w = weights.get(name, 0.0)
        if w <= 0.0:
            continue
        best += w / (k + 1)
        order_ = sorted((i for i in range(n) if values[i] > 0.0), key=lambda i: -values[i])
        rank, previous = 0, None
        for position, i in enumerate(order_, 1):
            if values[i] != previous:
                rank, previous = position, values[i]
            out[i] += w / (k + rank)
    return [x / best if best > 0 else 0.0 for x in out]


def fuse_rrf(facts: Iterable[ScoredFact], config: RetrieveConfig) -> None:
    """Replace the blend by reciprocal-rank fusion of the semantic, keyword and graph rankings;
    recency, importance, pattern and confidence stay as the same multipliers/boosts."""
    items = list(facts)
    if not items:
        return
    weights = {
        "semantic": 1.0,
        "keyword": 1.0 if config.weight("keyword") > 0 else 0.0,
        "graph": 1.0 if config.weight("graph") > 0 else 0.0,
    }
    if config.weight("semantic") <= 0:
        weights["semantic"] = 0.0
    fused = rrf_scores(
        {
            "semantic": [f.scores.semantic for f in items],
            "keyword": [f.scores.keyword for f in items],
            "graph": [f.scores.graph for f in items],
        },
        weights,
        config.variants.rrf_k,
    )
    w_rec, w_imp, cw = (
        config.weight("recency"),
        config.weight("importance"),
        config.scoring.confidence_weight,
    )
    for fact, value in zip(items, fused, strict=True):
        s = fact.scores
        base = (1.0 - w_rec - w_imp) * value + w_rec * s.recency + w_imp * s.importance
        boosted = base + (1.0 - min(1.0, base)) * min(
            1.0, s.pattern + config.weight("temporal") * s.temporal
        )
        s.formula = min(1.0, max(0.0, boosted) * ((1.0 - cw) + cw * s.confidence))
        s.final = s.formula


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in fold(text).split() if len(w) > 2)


def diversify(ordered: list[ScoredFact], penalty: float, pool: int) -> list[ScoredFact]:
    """Maximal marginal relevance on word overlap: walk the best ``pool`` facts greedily, each
    pick maximising ``final − penalty × max Jaccard(words, already picked)``, so a near-copy
    of a fact already chosen gives its room to something new. The order of the rest stays."""
    head, tail = ordered[:pool], ordered[pool:]
    words = [_words(f.text) for f in head]
    picked: list[int] = []
    left = list(range(len(head)))
    overlap = [0.0] * len(head)
    while left:
        best = max(left, key=lambda i: (head[i].scores.final - penalty * overlap[i], -i))
        picked.append(best)
        left.remove(best)
        for i in left:
            union = len(words[i] | words[best])
            if union:
                overlap[i] = max(overlap[i], len(words[i] & words[best]) / union)
    return [head[i] for i in picked] + tail
