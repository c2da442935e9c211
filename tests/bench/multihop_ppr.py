"""HippoRAG-2-style personalized PageRank ranker over a phrase + passage graph (numpy, no I/O).

The graph (HippoRAG 2, arXiv 2502.14802, without its LLM filter of the query's triples):

- phrase nodes (entities) and passage nodes;
- a relation edge between the two ends of every triple (weight = its count), a context edge
  between a passage and every phrase it mentions (weight 1), and synonymy edges between
  phrases whose name vectors have a cosine ≥ ``synonym_min`` (weight = the cosine, at most
  ``synonym_k`` per phrase);
- restart: the phrases of the ``top_triples`` triples most similar to the query, each at the
  mean score of its triples divided by the number of passages that mention it, plus every
  passage at ``passage_weight`` × its min-max normalised dense score; damping 0.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tests.bench.multihop_parts import Graph, personalized_pagerank, ppr_reset

__all__ = ["PprIndex", "build_index", "unit_rows"]


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


@dataclass
class PprIndex:
    graph: Graph
    n_phrases: int
    passages: list[int]  # passage node i (node n_phrases + i) → passage index
    triple_vectors: np.ndarray  # unit rows
    triple_ends: list[tuple[int, int]]  # phrase nodes of each triple
    phrase_passages: np.ndarray  # passages that mention each phrase
    top_triples: int = 5
    passage_weight: float = 0.05
    damping: float = 0.5

    def rank(self, query: np.ndarray, dense: dict[int, float]) -> list[int]:
        """Passages by PageRank score (ties and unreached passages: by dense score)."""
        q = query / (np.linalg.norm(query) or 1.0)
        weights: dict[int, list[float]] = {}
        if len(self.triple_ends):
            sims = self.triple_vectors @ q
            for t in np.argsort(-sims)[: self.top_triples]:
                for node in set(self.triple_ends[int(t)]):
                    weights.setdefault(node, []).append(float(sims[t]))
        phrase = {
            node: (sum(s) / len(s)) / max(1.0, float(self.phrase_passages[node]))
            for node, s in weights.items()
        }
        node_of = {p: self.n_phrases + i for i, p in enumerate(self.passages)}
        reset = ppr_reset(
            self.graph.n,
            phrase,
            {node_of[p]: s for p, s in dense.items() if p in node_of},
            self.passage_weight,
        )
        score = personalized_pagerank(self.graph, reset, self.damping)
        return sorted(self.passages, key=lambda p: (-score[node_of[p]], -dense.get(p, -1.0), p))


def build_index(
    phrase_vectors: np.ndarray,
    phrase_passages: Sequence[Sequence[int]],
    triples: Sequence[tuple[int, int]],
    triple_vectors: np.ndarray,
    passages: Sequence[int],
    synonym_min: float = 0.8,
    synonym_k: int = 10,
    block: int = 1024,
) -> PprIndex:
    """The graph of ``len(phrase_vectors)`` phrases (``phrase_passages[i]``: the passages
    phrase i is mentioned in) and the given passages; ``triples`` are (phrase, phrase) pairs
    with one vector each."""
    n_phrases = len(phrase_vectors)
    node_of = {p: n_phrases + i for i, p in enumerate(passages)}
    graph = Graph(n_phrases + len(passages))
    counts: dict[tuple[int, int], int] = {}
    for a, b in triples:
        if a != b:
            key = (min(a, b), max(a, b))
            counts[key] = counts.get(key, 0) + 1
    for (a, b), c in counts.items():
        graph.add(a, b, float(c))
    for phrase, ps in enumerate(phrase_passages):
        for p in set(ps):
            if p in node_of:
                graph.add(phrase, node_of[p], 1.0)
    unit = (
        unit_rows(np.asarray(phrase_vectors, dtype=np.float32))
        if n_phrases
        else np.zeros((0, 1), dtype=np.float32)
    )
    seen: set[tuple[int, int]] = set()
    for start in range(0, n_phrases, block):
        sims = unit[start : start + block] @ unit.T
        for row in range(sims.shape[0]):
            i = start + row
            sims[row, i] = -1.0
            top = np.argpartition(-sims[row], min(synonym_k, n_phrases - 1))[:synonym_k]
            for j in top:
                s = float(sims[row, j])
                pair = (min(i, int(j)), max(i, int(j)))
                if s >= synonym_min and pair not in seen:
                    seen.add(pair)
                    graph.add(pair[0], pair[1], s)
    return PprIndex(
        graph,
        n_phrases,
        list(passages),
        unit_rows(np.asarray(triple_vectors, dtype=np.float32).reshape(len(triples), -1))
        if len(triples)
        else np.zeros((0, 1)),
        list(triples),
        np.asarray([len(set(ps)) for ps in phrase_passages]),
    )
