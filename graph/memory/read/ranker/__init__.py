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
from graph.memory.read.ranker.model import ModelError, RankerModel, load_model, parse_model

__all__ = [
    "FEATURES",
    "LEARNED_POOL",
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
# A model orders the formula's first candidates only; the others follow in the formula's order.
# Cross-validated over every dev benchmark (held-out mean of the main recalls): 40 → 0.761,
# 60 → 0.760, 80, 100, 150 and the whole pool → 0.759; and the rows of the other candidates are
# never worked out (a third of a 120-candidate pool's cost).
LEARNED_POOL = 40


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
    """A table and the model that scored it (what :func:`explain` reads)."""

    model: RankerModel
    table: FeatureTable


def apply_model(model: RankerModel, table: FeatureTable) -> Ranked:
    """Score the candidates of ``table`` a model orders (``table.ranked``): a fact's
    ``scores.final`` and a turn's ``score`` become the model's calibrated score. The other
    candidates keep the formula's order below every one of them (their final score between
    half and nine tenths of the lowest the model gave, by formula score). The explanations are
    left for :func:`explain`."""
    columns = _columns(model)
    at = np.flatnonzero(table.ranked)
    x = table.values[np.ix_(at, columns)] if len(at) else np.zeros((0, len(columns)))
    scored = model.score(x, explain=False)
    final = np.zeros(len(table.candidates))
    final[at] = scored.final
    rest = ~table.ranked
    if rest.any():
        formula = np.asarray([c.formula for c in table.candidates])[rest]
        top = float(formula.max())
        share = np.clip(formula / top, 0.0, 1.0) if top > 0 else np.zeros(len(formula))
        lowest = float(scored.final.min()) if len(at) else 1.0
        final[rest] = lowest * (0.5 + 0.4 * share)
    for c, value in zip(table.candidates, final.tolist(), strict=True):
        item = c.item
        if isinstance(item, ScoredFact):
            item.scores.final = value
        else:
            item.score = value
    return Ranked(model, table)


def explain(ranked: Ranked, facts: Sequence[ScoredFact]) -> None:
    """Give every fact of ``facts`` (those a retrieve returns) its :class:`Explanation` of
    the model's score, each feature's contribution worked out in one batch (a fact below the
    candidates the model ordered gets its row worked out here, and the score the model would
    give it)."""
    wanted = {f.id for f in facts}
    table = ranked.table
    rows = {c.id: i for i, c in enumerate(table.candidates) if not c.is_turn and c.id in wanted}
    chosen = [(f, rows[f.id]) for f in facts if f.id in rows]
    if not chosen:
        return
    at = np.asarray([i for _, i in chosen], dtype=int)
    table.fill(at.tolist())
    model = ranked.model
    x = table.values[np.ix_(at, _columns(model))]
    scored = model.score(x)
    for (fact, i), values, raw, contributions in zip(
        chosen, x, scored.raw.tolist(), scored.contributions, strict=True
    ):
        fact.explanation = Explanation(
            model.name,
            model.version,
            raw,
            scored.bias,
            model.features,
            values,
            table.values[i],
            contributions,
        )
