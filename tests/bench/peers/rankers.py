"""The rankers run against the main Neo4j (Hippograph, vector top-k, BM25, RRF) and the shared
query-vector table every ranker (Graphiti included) reads its MiniLM vectors from."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.providers import Embedder
from tests.bench.locomo import bm25_baseline, hippograph, vector_baseline
from tests.bench.peers.fusion import copy_vector, rrf

Ranker = Callable[[str, str, list[float]], Awaitable[list[str]]]  # (agent, question, vec)


class VectorTable:
    """Embeds each text once; a latency-only copy (``alias``) gets a near-copy of its
    original's vector (``fusion.copy_vector``), computed when asked, never stored."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dimensions = inner, inner.name, inner.dimensions
        self.vectors: dict[str, list[float]] = {}
        self.aliases: dict[str, str] = {}

    def alias(self, text: str, original: str) -> None:
        self.aliases[text] = original

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        keys = [self.aliases.get(t, t) for t in texts]
        missing = [t for t in dict.fromkeys(keys) if t not in self.vectors]
        for start in range(0, len(missing), 256):
            batch = missing[start : start + 256]
            for text, vec in zip(batch, await self.inner.embed(batch), strict=True):
                self.vectors[text] = vec
        return [self.vector(t) for t in texts]

    def vector(self, text: str) -> list[float]:
        """The vector of an embedded text, or of a copy of one (``alias``)."""
        original = self.aliases.get(text)
        if original is None:
            return self.vectors[text]
        return copy_vector(self.vectors[original], text)


def local_rankers(ex: Executor, retriever: Retriever) -> dict[str, Ranker]:
    """Hippograph (offline, no rerank) and the three baselines over the same agent's data."""

    async def hippo(agent: str, question: str, vec: list[float]) -> list[str]:
        return await hippograph(retriever, agent, question)

    async def vector(agent: str, question: str, vec: list[float]) -> list[str]:
        return await vector_baseline(ex, agent, vec)

    async def bm25(agent: str, question: str, vec: list[float]) -> list[str]:
        return await bm25_baseline(ex, agent, question, vec)

    async def fused(agent: str, question: str, vec: list[float]) -> list[str]:
        lists = await asyncio.gather(vector(agent, question, vec), bm25(agent, question, vec))
        return rrf(lists, limit=20)

    return {
        "hippograph": hippo,
        "vector top-k": vector,
        "bm25 (neo4j full-text)": bm25,
        "vector+bm25 rrf k=60": fused,
    }


async def timed(
    ranker: Ranker, agent: str, question: str, vec: list[float]
) -> tuple[list[str], float]:
    started = time.perf_counter()
    ranked = await ranker(agent, question, vec)
    return ranked, (time.perf_counter() - started) * 1000
