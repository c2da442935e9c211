"""Config overrides (validated) and reranker answer parsing."""

from __future__ import annotations

import pytest

from graph.errors import BadInput
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.rerank import parse_scores
from graph.memory.read.search import cosine_from_index, grow_k, index_min_score, initial_k


def test_defaults_match_the_design() -> None:
    c = RetrieveConfig()
    cand, graph, act, rr, ctx = c.candidates, c.graph, c.activation, c.rerank, c.context
    assert (cand.min_similarity, cand.min_confidence) == (0.20, 0.55)
    assert c.scoring.recency_half_life_days == 14.0
    assert (c.weight("semantic"), c.weight("recency"), c.weight("importance")) == (0.7, 0.2, 0.1)
    assert (graph.max_hops, graph.hop_decay) == (2, 0.5)
    assert (act.activation_seeds, act.activation_unmatched, act.activation_shared) == (
        3,
        0.5,
        0.5,
    )
    assert (rr.rerank_pool, rr.reranker_weight, rr.min_reranker_score) == (40, 0.70, 0.10)
    assert (rr.reranker_timeout_s, ctx.context_max_tokens, c.scoring.min_score, ctx.topk_facts) == (
        5.0,
        2000,
        0.15,
        20,
    )
    assert (ctx.hot_tier_ratio, ctx.warm_tier_ratio, ctx.cold_tier_ratio) == (0.5, 0.3, 0.2)
    assert c.scoring.pattern_boost_max == 0.10


def test_options_override_per_call_without_touching_the_base() -> None:
    base = RetrieveConfig()
    new = base.with_options({"topk_facts": 5, "min_score": 0, "weights": {"recency": 0.0}})
    assert new.context.topk_facts == 5 and new.scoring.min_score == 0.0
    assert new.weight("recency") == 0.0
    assert new.weight("semantic") == 0.7 and base.weight("recency") == 0.2


@pytest.mark.parametrize(
    "options",
    [
        {"nope": 1},
        {"topk_facts": "5"},
        {"topk_facts": 0},
        {"max_hops": 3},
        {"enable_reranker": 1},
        {"weights": {"bogus": 1.0}},
        {"reranker_weight": 1.5},
        {"min_similarity": True},
    ],
)
def test_bad_options_raise_bad_input(options: dict[str, object]) -> None:
    with pytest.raises(BadInput):
        RetrieveConfig().with_options(options)


def test_parse_reranker_answers() -> None:
    assert parse_scores({"scores": [{"i": 0, "score": 0.9}, {"i": 1, "score": 0}]}, 2) == {
        0: 0.9,
        1: 0.0,
    }
    assert parse_scores({"scores": [0.2, "0.7", 3]}, 3) == {0: 0.2, 1: 0.7, 2: 1.0}
    assert parse_scores({"0": 0.5, "7": 0.1}, 2) == {0: 0.5}
    assert parse_scores({"scores": [{"i": 9, "score": 1}]}, 2) is None
    assert parse_scores(None, 2) is None
    assert parse_scores({"scores": [{"i": True, "score": 1}, {"i": 0, "score": "x"}]}, 2) is None


def test_index_score_conversions_and_overfetch_sizes() -> None:
    assert cosine_from_index(1.0) == 1.0 and cosine_from_index(0.5) == 0.0
    assert index_min_score(0.2) == pytest.approx(0.6)
    assert initial_k(20, 5, 10_000, 20_000) == 20_000  # capped
    assert initial_k(20, 5_000, 10_000, 20_000) == 60
    assert initial_k(20, 0, 0, 1000) == 40
    assert grow_k(60, 1000) == 240 and grow_k(600, 1000) == 1000
