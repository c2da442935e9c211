"""Fitting a tenant's residual layer (pure): it learns what the verdicts say, stays near the
shipped model with few of them, and refuses too few or one-sided verdicts."""

from __future__ import annotations

import numpy as np
import pytest

from graph.memory.learning import NotEnoughFeedback, fit_residual
from graph.memory.read.ranker.model import parse_model
from graph.memory.read.recent import RecentRetrieves, new_retrieve_id, retrieve_time

FEATURES = ["cosine", "bm25"]


def _data(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 2))
    raw = 2.0 * x[:, 0]  # the shipped model reads cosine only
    helpful = (x[:, 1] > 0.3).astype(float)  # these users want keyword matches
    return x, helpful, raw


def test_the_residual_learns_what_the_verdicts_say_and_sums_into_the_score() -> None:
    x, helpful, raw = _data(400)
    fitted = fit_residual(FEATURES, x, helpful, raw, (1.0, 0.0))
    assert fitted.log_loss_after < fitted.log_loss_before
    weights = dict(zip(FEATURES, fitted.document["weights"], strict=True))
    assert weights["bm25"] > 1.0 and abs(weights["cosine"]) < weights["bm25"]
    base = {
        "format": "hippograph.ranker",
        "format_version": 1,
        "features": FEATURES,
        "linear": {"features": ["cosine"], "weights": [2.0]},
        "residual": fitted.document,
    }
    model = parse_model(base)
    scored = model.score(x[:5])
    assert scored.bias + scored.contributions.sum(axis=1) == pytest.approx(scored.raw)


def test_few_verdicts_move_the_model_less_than_many() -> None:
    x, helpful, raw = _data(600, seed=2)
    few = fit_residual(FEATURES, x[:40], helpful[:40], raw[:40], (1.0, 0.0))
    many = fit_residual(FEATURES, x, helpful, raw, (1.0, 0.0))
    assert np.abs(few.document["weights"]).sum() < np.abs(many.document["weights"]).sum()


@pytest.mark.parametrize(
    ("n", "helpful"), [(10, None), (50, "all"), (50, "none")], ids=["few", "all", "none"]
)
def test_too_few_or_one_sided_verdicts_are_refused(n: int, helpful: str | None) -> None:
    x, labels, raw = _data(n)
    if helpful == "all":
        labels = np.ones(n)
    elif helpful == "none":
        labels = np.zeros(n)
    with pytest.raises(NotEnoughFeedback, match="at least 30"):
        fit_residual(FEATURES, x, labels, raw, (1.0, 0.0))


def test_recent_retrieves_are_bounded_and_their_ids_name_their_time() -> None:
    from datetime import UTC, datetime

    at = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    rid = new_retrieve_id(at)
    assert retrieve_time(rid) == at
    recent = RecentRetrieves(max_retrieves=2)
    for i in range(3):
        recent.keep(f"r{i}", "agent", {"f": np.zeros(3)})
    assert len(recent) == 2 and recent.get("r0") is None and recent.get("r2") is not None
    recent.forget_agent("agent")
    assert len(recent) == 0
    for bad in ("x", "r-1", "rzz-000000000000", "r1-abc", "r" + "1" * 40 + "-000000000000"):
        with pytest.raises(Exception, match="not a retrieve id"):
            retrieve_time(bad)
