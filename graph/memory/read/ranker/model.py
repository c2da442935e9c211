"""A ranking model as a small JSON document, and its arithmetic (pure, numpy only).

A model scores each candidate's feature row (``features.FEATURES``, by name) with

- ``linear``: ``bias + Σ wᵢ·(xᵢ − meanᵢ)/scaleᵢ``, or
- ``trees``: a sum of regression trees (gradient-boosted, e.g. LightGBM's LambdaMART, turned
  into this format by the training harness), each node ``xᵢ <= threshold`` going left,

plus an optional ``residual`` linear layer (a tenant's correction fitted from its users'
feedback on top of the shipped model). The raw score splits exactly into a ``bias`` and one
contribution per feature: a linear term's own product; for trees, each split's change of the
node value along the candidate's path is credited to the split's feature (the path
attribution of Saabas), so ``bias + Σ contributions == raw`` for every candidate.
``calibration`` (``a``, ``b``) maps the raw score to 0..1 as ``sigmoid(a·raw + b)``: fitted on
held-out predictions, it reads as the chance the candidate is relevant, and never changes the
order.

No pickle, no training library at run time: the document is data, checked when loaded.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from graph.errors import BadInput
from graph.memory.read.ranker.scorer import TreeTables, build_tables

__all__ = ["FORMAT", "Linear", "ModelError", "RankerModel", "Scored", "Trees", "load_model"]

FORMAT = "hippograph.ranker"
VERSION = 1
MAX_NODES = 200_000


class ModelError(BadInput):
    """A ranking model document is not one this version reads."""


@dataclass(frozen=True)
class Scored:
    """A model's answer for a table of rows."""

    raw: np.ndarray  # (n,)
    final: np.ndarray  # (n,) calibrated to 0..1
    bias: float
    contributions: np.ndarray  # (n, features)


@dataclass(frozen=True)
class Linear:
    """``bias + Σ wᵢ·(xᵢ − meanᵢ)/scaleᵢ`` over ``columns`` of the row."""

    columns: np.ndarray  # int indices into the row
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def terms(self, x: np.ndarray) -> np.ndarray:
        """(n, len(columns)) per-feature terms."""
        return ((x[:, self.columns] - self.mean) / self.scale) * self.weights


@dataclass(frozen=True)
class Trees:
    """Regression trees flattened into node arrays: a leaf has feature -1 and itself as both
    children; ``value`` is a leaf's output or an inner node's expected output."""

    feature: np.ndarray  # int, -1 for leaves (indices into the row)
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    depth: int

    tables: TreeTables


@dataclass(frozen=True)
class RankerModel:
    """A loaded model: its name, version, feature vocabulary, parts and metadata."""

    name: str
    version: int
    features: tuple[str, ...]
    linear: Linear | None
    trees: Trees | None
    residual: Linear | None
    calibration: tuple[float, float]
    document: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return "trees" if self.trees is not None else "linear"

    @property
    def bias(self) -> float:
        total = 0.0
        if self.trees is not None:
            total += float(self.trees.value[self.trees.roots].sum())
        for part in (self.linear, self.residual):
            if part is not None:
                total += part.bias
        return total

    def score(self, x: np.ndarray, explain: bool = True) -> Scored:
        """Scores of the rows ``x`` (columns in ``features`` order); ``explain=False`` leaves
        the contributions out (zeros: the cheaper walk, for ordering alone)."""
        n, width = x.shape[0], len(self.features)
        raw = np.zeros(n)
        contributions = np.zeros((n, width))
        if self.trees is not None and n:
            tables = self.trees.tables
            exits = tables.exits(x)
            raw += tables.raw(exits) - float(self.trees.value[self.trees.roots].sum())
            if explain:
                contributions = tables.contributions(exits)
        for part in (self.linear, self.residual):
            if part is not None and n:
                terms = part.terms(x)
                if explain:
                    for j, column in enumerate(part.columns.tolist()):
                        contributions[:, column] += terms[:, j]
                raw += terms.sum(axis=1)
        raw += self.bias
        a, b = self.calibration
        final = 1.0 / (1.0 + np.exp(-np.clip(a * raw + b, -50.0, 50.0)))
        return Scored(raw, final, self.bias, contributions)

    def with_residual(
        self, residual: Mapping[str, Any] | None, name: str, version: int
    ) -> RankerModel:
        """This model with another residual layer (None: none), renamed."""
        doc = {**self.document, "name": name, "version": version}
        doc.pop("residual", None)
        if residual is not None:
            doc["residual"] = dict(residual)
        return parse_model(doc)


def _floats(value: Any, where: str, length: int | None = None) -> np.ndarray:
    if not isinstance(value, list) or not all(isinstance(v, int | float) for v in value):
        raise ModelError(f"ranker model: {where} must be a list of numbers")
    out = np.asarray(value, dtype=float)
    if length is not None and len(out) != length:
        raise ModelError(f"ranker model: {where} has {len(out)} values, expected {length}")
    if not np.all(np.isfinite(out)):
        raise ModelError(f"ranker model: {where} holds a value that is not finite")
    return out


def _columns(names: Any, vocabulary: Sequence[str], where: str) -> np.ndarray:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ModelError(f"ranker model: {where} must be a list of feature names")
    index = {name: i for i, name in enumerate(vocabulary)}
    missing = [n for n in names if n not in index]
    if missing:
        raise ModelError(f"ranker model: {where} names unknown features {missing[:5]}")
    return np.asarray([index[n] for n in names], dtype=int)


def _linear(doc: Any, vocabulary: Sequence[str], where: str) -> Linear:
    if not isinstance(doc, Mapping):
        raise ModelError(f"ranker model: {where} must be an object")
    columns = _columns(doc.get("features"), vocabulary, f"{where}.features")
    n = len(columns)
    scale = _floats(doc.get("scale", [1.0] * n), f"{where}.scale", n)
    if np.any(scale <= 0):
        raise ModelError(f"ranker model: {where}.scale must be positive")
    bias = doc.get("bias", 0.0)
    if not isinstance(bias, int | float) or not math.isfinite(bias):
        raise ModelError(f"ranker model: {where}.bias must be a number")
    return Linear(
        columns=columns,
        mean=_floats(doc.get("mean", [0.0] * n), f"{where}.mean", n),
        scale=scale,
        weights=_floats(doc.get("weights"), f"{where}.weights", n),
        bias=float(bias),
    )


def _tree_nodes(tree: Any, i: int) -> list[list[float]]:
    nodes = tree.get("nodes") if isinstance(tree, Mapping) else None
    if not isinstance(nodes, list) or not nodes:
        raise ModelError(f"ranker model: trees[{i}].nodes must be a non-empty list")
    for node in nodes:
        if not isinstance(node, list) or len(node) != 5:
            raise ModelError(
                f"ranker model: trees[{i}] nodes are [feature, threshold, left, right, value]"
            )
    return nodes


def _trees(doc: Any, vocabulary: Sequence[str]) -> Trees:
    """Trees from ``{"features": [...], "trees": [{"nodes": [[f, thr, l, r, v], ...]}]}``:
    node 0 of each tree is its root, ``f`` indexes ``features`` (-1: a leaf), ``l``/``r``
    index the tree's nodes."""
    if not isinstance(doc, Mapping) or not isinstance(doc.get("trees"), list):
        raise ModelError("ranker model: trees must be an object with a list of trees")
    columns = _columns(doc.get("features"), vocabulary, "trees.features")
    rows: list[list[float]] = []
    roots, depth = [], 1
    for i, tree in enumerate(doc["trees"]):
        nodes, offset = _tree_nodes(tree, i), len(rows)
        if offset + len(nodes) > MAX_NODES:
            raise ModelError(f"ranker model: more than {MAX_NODES} tree nodes")
        roots.append(offset)
        for f, threshold, left, right, value in nodes:
            leaf = int(f) < 0
            if not leaf and not (0 <= int(f) < len(columns)):
                raise ModelError(f"ranker model: trees[{i}] names feature {f} out of range")
            if not leaf and not (0 <= int(left) < len(nodes) and 0 <= int(right) < len(nodes)):
                raise ModelError(f"ranker model: trees[{i}] has a child out of range")
            me = len(rows)
            rows.append(
                [
                    -1 if leaf else int(columns[int(f)]),
                    float(threshold),
                    me if leaf else offset + int(left),
                    me if leaf else offset + int(right),
                    float(value),
                ]
            )
        depth = max(depth, int(tree.get("depth", len(nodes))))
    table = np.asarray(rows, dtype=float) if rows else np.zeros((0, 5))
    if not np.all(np.isfinite(table)):
        raise ModelError("ranker model: a tree holds a value that is not finite")
    arrays = {
        "feature": table[:, 0].astype(int),
        "threshold": table[:, 1],
        "left": table[:, 2].astype(int),
        "right": table[:, 3].astype(int),
        "value": table[:, 4],
        "roots": np.asarray(roots, dtype=int),
    }
    try:
        tables = build_tables(**arrays, n_features=len(vocabulary))
    except ValueError as exc:
        raise ModelError(f"ranker model: {exc}") from None
    return Trees(**arrays, depth=depth, tables=tables)


def parse_model(doc: Any) -> RankerModel:
    """A model from its document.

    Raises:
        ModelError: not a ranker model of this format and version, or an inconsistent one.
    """
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise ModelError(f"ranker model: not a {FORMAT} document")
    if doc.get("format_version") != VERSION:
        raise ModelError(f"ranker model: format_version must be {VERSION}")
    features = doc.get("features")
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise ModelError("ranker model: features must be a list of names")
    linear = _linear(doc["linear"], features, "linear") if doc.get("linear") else None
    trees = _trees(doc["trees"], features) if doc.get("trees") else None
    if linear is None and trees is None:
        raise ModelError("ranker model: needs linear or trees")
    residual = _linear(doc["residual"], features, "residual") if doc.get("residual") else None
    calibration = doc.get("calibration") or {"a": 1.0, "b": 0.0}
    a, b = _floats([calibration.get("a", 1.0), calibration.get("b", 0.0)], "calibration", 2)
    version = doc.get("version", 1)
    return RankerModel(
        name=str(doc.get("name") or "model"),
        version=int(version) if isinstance(version, int) else 1,
        features=tuple(features),
        linear=linear,
        trees=trees,
        residual=residual,
        calibration=(float(a), float(b)),
        document=doc,
    )


def load_model(path: Path) -> RankerModel:
    """A model from a JSON file.

    Raises:
        ModelError: unreadable, not JSON, or not a valid model.
    """
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"ranker model {path.name}: {exc}") from None
    return parse_model(doc)
