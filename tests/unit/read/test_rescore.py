"""Second-embedder re-scoring: the semantic blend, the rescorer's cache, query embedding."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from graph.errors import BadInput
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.rerank import EmbeddingRescorer, blend_semantic
from graph.providers import HashEmbedder, embed_queries


def _fact(fid: str, semantic: float, text: str | None = None) -> ScoredFact:
    fact = ScoredFact(id=fid, text=text or fid)
    fact.scores.semantic = semantic
    return fact


def test_blend_maps_the_second_cosines_onto_the_pool_scale() -> None:
    pool = [_fact("a", 0.5), _fact("b", 0.4), _fact("c", 0.3)]
    # e5-like cosines: all high, the opposite order
    assert blend_semantic(pool, {"a": 0.80, "b": 0.85, "c": 0.90}, 1.0) == 3
    assert [round(f.scores.semantic, 6) for f in pool] == [0.3, 0.4, 0.5]


def test_blend_weight_mixes_and_leaves_unscored_facts() -> None:
    pool = [_fact("a", 0.5), _fact("b", 0.4), _fact("c", 0.3), _fact("d", 0.2)]
    assert blend_semantic(pool, {"a": 0.80, "b": 0.85, "c": 0.90}, 0.5) == 3
    assert [round(f.scores.semantic, 6) for f in pool] == [0.4, 0.4, 0.4, 0.2]


@pytest.mark.parametrize(
    ("scores", "weight"),
    [
        ({"a": 0.9}, 1.0),  # one score: no scale to match
        ({"a": 0.9, "b": 0.1}, 0.0),  # weight 0: off
    ],
)
def test_blend_does_nothing_without_a_scale_or_weight(
    scores: dict[str, float], weight: float
) -> None:
    pool = [_fact("a", 0.5), _fact("b", 0.4)]
    assert blend_semantic(pool, scores, weight) == 0
    assert [f.scores.semantic for f in pool] == [0.5, 0.4]


def test_equal_second_cosines_keep_the_mean() -> None:
    pool = [_fact("a", 0.6), _fact("b", 0.2)]
    blend_semantic(pool, {"a": 0.8, "b": 0.8}, 1.0)
    assert [round(f.scores.semantic, 6) for f in pool] == [0.4, 0.4]


class Counting(HashEmbedder):
    """A hash embedder that counts what it embeds and marks queries apart."""

    def __init__(self) -> None:
        super().__init__(64)
        self.passages: list[str] = []
        self.queries: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.passages += texts
        return await super().embed(texts)

    async def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        self.queries += texts
        return await super().embed(texts)


async def test_rescorer_embeds_each_fact_text_once_and_the_query_as_a_query() -> None:
    inner = Counting()
    rescorer = EmbeddingRescorer(inner, cache_size=10)
    pool = [
        _fact("1", 0.5, "Caroline went hiking"),
        _fact("2", 0.4, "Melanie paints"),
        _fact("3", 0.3, "Caroline went hiking"),
    ]
    got = await rescorer.similarities("Caroline went hiking", pool)
    assert got.embedded == 2 and inner.passages == ["Caroline went hiking", "Melanie paints"]
    assert inner.queries == ["Caroline went hiking"]
    assert got.scores["1"] == pytest.approx(1.0, abs=1e-5) and got.scores["1"] == got.scores["3"]
    assert got.scores["2"] < 0.5
    again = await rescorer.similarities("who paints?", pool)
    assert again.embedded == 0 and len(inner.passages) == 2
    assert await rescorer.warm(["Melanie paints", "new text"]) == 1


async def test_rescorer_cache_is_bounded() -> None:
    rescorer = EmbeddingRescorer(Counting(), cache_size=2)
    await rescorer.warm(["a", "b", "c"])
    assert await rescorer.warm(["c", "b"]) == 0
    assert await rescorer.warm(["a"]) == 1  # the oldest was dropped


async def test_embed_queries_prefers_embed_query() -> None:
    both = Counting()
    await embed_queries(both, ["q"])
    assert both.queries == ["q"] and both.passages == []
    plain = HashEmbedder(16)
    assert await embed_queries(plain, ["q"]) == await plain.embed(["q"])


@pytest.mark.parametrize(
    "options",
    [
        {"rescore_weight": 1.5},
        {"enable_rescore": 1},
    ],
)
def test_bad_rescore_options_raise_bad_input(options: dict[str, object]) -> None:
    with pytest.raises(BadInput):
        RetrieveConfig().with_options(options)


async def test_the_rescorer_cache_holds_no_text_and_an_erase_can_clear_it() -> None:
    """Cached fact vectors are keyed by a keyed digest, never by the fact's text (an erased
    text would stay in the process's memory); ``clear_cache`` drops them all."""
    rescorer = EmbeddingRescorer(HashEmbedder(16))
    pool = [_fact("a", 0.5, "Zylvana lives in Porto"), _fact("b", 0.4, "Bruno likes tea")]
    first = await rescorer.similarities("who lives in Porto", pool)
    assert first.embedded == 2 and set(first.scores) == {"a", "b"}
    assert "Zylvana" not in repr(list(rescorer._cache))
    assert all(isinstance(k, bytes) for k in rescorer._cache)
    again = await rescorer.similarities("who lives in Porto", pool)
    assert again.embedded == 0 and again.scores == first.scores
    rescorer.clear_cache()
    assert not rescorer._cache
    assert (await rescorer.similarities("Porto", pool)).embedded == 2
