"""The ranking model document: loading (and refusing), the arithmetic of linear and tree
models against LightGBM's own predictions, and contributions that sum to the score."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from graph.memory.read.ranker import FEATURES, SHIPPED_PATH, shipped_model
from graph.memory.read.ranker.model import ModelError, parse_model
from tests.bench.rank_train import trees_document

LINEAR = {
    "format": "hippograph.ranker",
    "format_version": 1,
    "name": "toy",
    "version": 3,
    "features": ["cosine", "bm25", "formula"],
    "linear": {
        "features": ["cosine", "formula"],
        "mean": [0.5, 0.2],
        "scale": [0.1, 0.5],
        "weights": [2.0, -1.0],
        "bias": 0.25,
    },
    "calibration": {"a": 2.0, "b": -1.0},
}


def test_a_linear_model_scores_and_explains_every_row() -> None:
    model = parse_model(LINEAR)
    x = np.asarray([[0.6, 9.0, 0.7], [0.4, 0.0, 0.2]])
    scored = model.score(x)
    expected = 0.25 + 2.0 * (x[:, 0] - 0.5) / 0.1 - 1.0 * (x[:, 2] - 0.2) / 0.5
    assert scored.raw == pytest.approx(expected)
    assert scored.bias + scored.contributions.sum(axis=1) == pytest.approx(scored.raw)
    assert scored.contributions[:, 1] == pytest.approx([0.0, 0.0])  # bm25 is not read
    assert scored.final == pytest.approx(1 / (1 + np.exp(-(2.0 * expected - 1.0))))
    assert (model.name, model.version, model.kind) == ("toy", 3, "linear")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pickle"}, "not a hippograph.ranker"),
        ({"format_version": 9}, "format_version"),
        ({"linear": None}, "needs linear or trees"),
        ({"linear": {**LINEAR["linear"], "features": ["cosine", "no_such"]}}, "unknown features"),
        ({"linear": {**LINEAR["linear"], "weights": [1.0]}}, "expected 2"),
        ({"linear": {**LINEAR["linear"], "scale": [0.0, 1.0]}}, "positive"),
        ({"linear": {**LINEAR["linear"], "weights": [float("nan"), 1.0]}}, "not finite"),
        ({"trees": {"features": ["cosine"], "trees": [{"nodes": [[0, 0.5, 7, 9, 0.0]]}]}}, "child"),
    ],
)
def test_a_bad_document_is_refused_with_the_reason(change: dict, message: str) -> None:
    doc = {**copy.deepcopy(LINEAR), **change}
    with pytest.raises(ModelError, match=message):
        parse_model(doc)


def _booster(x: np.ndarray, y: np.ndarray, groups: list[int], leaves: int = 7):
    lgb = pytest.importorskip("lightgbm")
    params = {
        "objective": "lambdarank",
        "num_leaves": leaves,
        "max_depth": 4 if leaves <= 16 else 8,
        "min_data_in_leaf": 5,
        "learning_rate": 0.2,
        "verbose": -1,
        "use_missing": False,
        "deterministic": True,
        "num_threads": 1,
    }
    return lgb.train(params, lgb.Dataset(x, y, group=groups), num_boost_round=25)


# 7 leaves: one byte of bits per tree; 12: two bytes; 40: eight bytes (no lookup table). Trees
# that stopped early have fewer splits than the others and are padded.
@pytest.mark.parametrize("leaves", [7, 12, 40])
def test_trees_from_lightgbm_score_as_lightgbm_does_and_explain_the_score(leaves: int) -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 4))
    y = (x[:, 0] + 0.5 * x[:, 2] * (x[:, 1] > 0) + rng.normal(scale=0.3, size=400) > 0.8) * 1.0
    booster = _booster(x, y, [20] * 20, leaves)
    names = ["cosine", "bm25", "graph", "hops"]
    doc = {
        "format": "hippograph.ranker",
        "format_version": 1,
        "features": names,
        "trees": trees_document(booster, names),
    }
    model = parse_model(json.loads(json.dumps(doc)))  # through JSON, as shipped
    probe = rng.normal(size=(50, 4))
    scored = model.score(probe)
    assert scored.raw == pytest.approx(booster.predict(probe), abs=1e-9)
    assert scored.bias + scored.contributions.sum(axis=1) == pytest.approx(scored.raw)
    # an unused feature never contributes
    unused = np.flatnonzero(booster.feature_importance("split") == 0)
    assert np.all(scored.contributions[:, unused] == 0.0)


def test_the_shipped_model_loads_and_reads_known_features_only() -> None:
    model = shipped_model()
    assert set(model.features) <= set(FEATURES)
    assert SHIPPED_PATH.stat().st_size < 1_000_000
    row = np.zeros((3, len(model.features)))
    scored = model.score(row)
    assert np.all((scored.final >= 0.0) & (scored.final <= 1.0))
    assert scored.bias + scored.contributions.sum(axis=1) == pytest.approx(scored.raw)
