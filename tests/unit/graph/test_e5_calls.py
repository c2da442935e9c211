"""The e5 embedder's calls to its engine (graph/providers/embedders.py): each distinct text once,
short texts from a cache, the rest in calls of ``batch_size`` texts; the vectors are what one
text at a time would give. A fake engine stands in for the model (no weights loaded)."""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from graph.providers.base import TextKeys
from graph.providers.embedders import E5Embedder


class FakeEngine:
    """A vector per text from its characters and prefix; records every call."""

    dim = 4

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array(
            [[len(t), sum(map(ord, t)) % 97, float(is_query), 1.0] for t in texts],
            dtype=np.float32,
        )


def embedder() -> tuple[E5Embedder, FakeEngine]:
    e5 = E5Embedder.__new__(E5Embedder)
    engine = FakeEngine()
    e5._model = engine
    e5.name, e5.dimensions, e5._batch = "fake", FakeEngine.dim, 32
    e5._lock, e5._cache_lock = threading.Lock(), threading.Lock()
    e5._cache, e5._cache_key, e5.computed = OrderedDict(), TextKeys(), 0
    return e5, engine


def one_by_one(texts: list[str], is_query: bool) -> list[list[float]]:
    e5, _ = embedder()
    return [e5._compute([t], is_query)[0] for t in texts]


def test_each_distinct_text_is_computed_once_and_names_are_cached() -> None:
    e5, engine = embedder()
    long = "Ana moved to Curitiba last week and started working at Acme with Bruno. " * 2
    texts = [long, "Ana", long, "Acme", "Ana"]
    assert e5.embed_sync(texts) == one_by_one(texts, False)
    assert e5.computed == 3  # the long text once, each name once
    assert e5.embed_sync(["Ana", "Acme"]) == one_by_one(["Ana", "Acme"], False)
    assert e5.computed == 3  # short texts from the cache
    # a query and a passage of the same text are different vectors: cached apart
    assert e5.embed_query_sync(["Ana"]) == one_by_one(["Ana"], True)
    assert e5.computed == 4
    e5.embed_sync([long])
    assert e5.computed == 5  # long texts are not cached
    e5.clear_cache()
    e5.embed_sync(["Ana"])
    assert e5.computed == 6
    assert all(engine.calls)


def test_texts_go_to_the_engine_in_calls_of_batch_size() -> None:
    e5, engine = embedder()
    texts = [f"a sentence of its own, number {i}" for i in range(70)]
    assert e5.embed_sync(texts) == one_by_one(texts, False)
    assert [len(call) for call in engine.calls] == [32, 32, 6]
