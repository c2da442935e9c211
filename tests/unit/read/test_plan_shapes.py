"""Parameters in one plan shape (``graph.plan_shapes``): lists padded into one size bucket,
a full-text query padded with spaces, "" left alone."""

from __future__ import annotations

from graph.memory.read.activation import NO_SEED, NO_STEM
from graph.memory.read.combined import (
    NO_MATCH,
    NO_TERM,
    SignalSizes,
    first_rounds,
    signal_params,
)
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.planner import lookup_terms
from graph.plan_shapes import LIST_ITEMS, TEXT_CHARS, padded, padded_query, size_bucket


def shape(params: dict[str, object]) -> dict[str, tuple[str, int]]:
    return {
        k: (type(v).__name__, size_bucket(len(v)))
        for k, v in params.items()
        if isinstance(v, str | list)
    }


def test_padding_puts_every_short_list_in_one_bucket() -> None:
    assert padded([], "x") == ["x"] * LIST_ITEMS
    assert padded(["a", "b"], "x")[:2] == ["a", "b"] and len(padded(["a", "b"], "x")) == 11
    long = [str(i) for i in range(30)]
    assert padded(long, "x") == long  # never cut
    assert {size_bucket(len(padded(["a"] * n, "x"))) for n in range(0, 101)} == {100}


def test_a_query_is_padded_with_spaces_and_an_empty_one_is_left_empty() -> None:
    assert padded_query("") == ""
    q = padded_query("terms:(ana)")
    assert q.strip() == "terms:(ana)" and len(q) == TEXT_CHARS
    assert {size_bucket(len(padded_query("x" * n))) for n in range(1, 1001)} == {1000}


def test_a_word_or_none_shares_the_catalog_plan_of_a_short_question() -> None:
    shapes = {
        tuple(sorted(shape(lookup_terms(q).params()).items()))
        for q in ("", "Ana?", "pets", "Onde a Ana mora?")
    }
    assert len(shapes) == 1


def test_the_signals_statement_gets_one_shape_whatever_the_question_names() -> None:
    cfg = RetrieveConfig()
    rounds = first_rounds(cfg, SignalSizes(100, 1000, 50, 500, 0))
    shapes = set()
    for n in (0, 1, 3, 9):
        keys = [f"person:p{i}" for i in range(n)]
        params = signal_params(
            cfg,
            rounds,
            lucene="terms:(" + " OR ".join(["w"] * (n + 1)) + ")",
            seeds=[{"key": k, "named": True} for k in keys],
            graph_limit=10,
            pattern_types=["person"][: n % 2],
            named=keys,
            relation_terms=["live"] * n,
        )
        shapes.add(tuple(sorted(shape(params).items())))
        assert params["named"][n:] == [NO_MATCH] * (LIST_ITEMS - n)
        assert set(params["relation_terms"][n:]) == {NO_TERM}
    assert len(shapes) == 1


def test_activation_pads_match_nothing() -> None:
    assert NO_SEED["id"] == "" and NO_STEM == "\u0000"
