"""The learned ranker of ``retrieve``: every candidate fact and turn as a row of features
(:mod:`.features`), scored by a small model read from a JSON document (:mod:`.model`), each
score explained feature by feature.

The shipped model (``shipped.json`` beside this file, trained by ``python -m
tests.bench.rank_train`` on the development benchmarks) is loaded once per process and used by
default (retrieve option ``ranker: learned``); ``ranker: formula`` keeps the hand formula of
``ranking.score_facts``. A tenant's model (``hippograph rank train``) is the shipped one with a
residual layer fitted from its users' feedback (:mod:`graph.memory.read.feedback`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from graph.memory.read.models import ScoredFact
from graph.memory.read.ranker.features import (
    FEATURES,
    FeatureTable,
    QueryView,
    feature_table,
    query_view,
)
from graph.memory.read.ranker.model import ModelError, RankerModel, Scored, load_model, parse_model

__all__ = [
    "FEATURES",
    "SHIPPED_PATH",
    "Explanation",
    "FeatureTable",
    "ModelError",
    "QueryView",
    "Ranked",
    "RankerModel",
    "apply_model",
    "explain",
    "feature_table",
    "parse_model",
    "query_view",
    "shipped_model",
]

SHIPPED_PATH = Path(__file__).with_name("shipped.json")


@lru_cache(maxsize=1)
def shipped_model() -> RankerModel:
    """The model shipped in the package (read once per process).

    Raises:
        ModelError: the file is missing or invalid (a broken install).
    """
    return load_model(SHIPPED_PATH)


@dataclass
class Explanation:
    """Why a candidate scored what it did under a learned model: ``raw = bias + Σ
    contributions`` (``final`` is ``raw`` calibrated to 0..1). Worked out for the facts a
    retrieve returns only (:func:`explain`)."""

    model: str
    version: int
    raw: float
    bias: float
    features: tuple[str, ...]
    values: np.ndarray  # the model's features of this candidate
    row: np.ndarray  # every feature of ``FEATURES`` (what feedback records)
    contributions: np.ndarray

    def terms(self, limit: int | None = None) -> list[tuple[str, float, float]]:
        """(feature, value, contribution) of every feature that moved the score, largest
        effect first (``limit``: the first ones only)."""
        order = np.argsort(-np.abs(self.contributions), kind="stable")
        out = [
            (self.features[i], float(self.values[i]), float(self.contributions[i]))
            for i in order
            if self.contributions[i] != 0.0
        ]
        return out[:limit] if limit is not None else out


def _columns(model: RankerModel) -> np.ndarray:
    index = {name: i for i, name in enumerate(FEATURES)}
    missing = [f for f in model.features if f not in index]
    if missing:
        raise ModelError(f"ranker model {model.name}: unknown features {missing[:5]}")
    return np.asarray([index[f] for f in model.features], dtype=int)


@dataclass
class Ranked:
    """A table scored by a model: the model's columns of every row (``x``) and its answer."""

    model: RankerModel
    table: FeatureTable
    x: np.ndarray
    scored: Scored


def apply_model(model: RankerModel, table: FeatureTable) -> Ranked:
    """Score every candidate of ``table``: a fact's ``scores.final`` and a turn's ``score``
    become the model's calibrated score (the explanations are left for :func:`explain`)."""
    width = len(model.features)
    x = table.values[:, _columns(model)] if len(table.candidates) else np.zeros((0, width))
    scored = model.score(x, explain=False)
    for c, final in zip(table.candidates, scored.final.tolist(), strict=True):
        item = c.item
        if isinstance(item, ScoredFact):
            item.scores.final = final
        else:
            item.score = final
    return Ranked(model, table, x, scored)


def explain(ranked: Ranked, facts: Sequence[ScoredFact]) -> None:
    """Give every fact of ``facts`` (those a retrieve returns) that was a row of ``ranked``
    its :class:`Explanation`, each feature's contribution worked out in one batch."""
    wanted = {f.id for f in facts}
    rows = {
        c.id: i for i, c in enumerate(ranked.table.candidates) if not c.is_turn and c.id in wanted
    }
    chosen = [(f, rows[f.id]) for f in facts if f.id in rows]
    if not chosen:
        return
    model, at = ranked.model, [i for _, i in chosen]
    scored = model.score(ranked.x[at])
    for (fact, i), raw, contributions in zip(
        chosen, scored.raw.tolist(), scored.contributions, strict=True
    ):
        fact.explanation = Explanation(
            model.name,
            model.version,
            raw,
            scored.bias,
            model.features,
            ranked.x[i],
            ranked.table.values[i],
            contributions,
        )
