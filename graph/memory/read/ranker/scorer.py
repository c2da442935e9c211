"""Scoring a tree ensemble for many rows at once (pure, numpy): the bit-vector method of
QuickScorer (Lucchese et al., SIGIR 2015).

Number each tree's leaves left to right. A split whose test ``x <= threshold`` is *false*
sends the row right, so no leaf of its left subtree can be the row's exit: the split carries a
mask with those leaves' bits cleared. A row's exit leaf in a tree is then the lowest bit left
set once the masks of all its false splits are ANDed together — no walk down the tree, just one
comparison per split for every row (a matrix), an AND-reduction per tree and a table lookup.
Each leaf also carries its path attribution (the change of node value at every split on its
path, credited to the split's feature), so a row's contributions are the sum of its exit
leaves' vectors.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["MAX_LEAVES", "TreeTables", "build_tables"]

MAX_LEAVES = 64  # one uint64 bit per leaf
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@dataclass(frozen=True)
class TreeTables:
    """The ensemble as tables: every split (grouped by tree, ``starts`` its offsets), its
    feature, threshold and mask; every leaf's value and attribution."""

    feature: np.ndarray  # (splits,) int
    threshold: np.ndarray  # (splits,)
    mask: np.ndarray  # (splits,) uint64
    starts: np.ndarray  # (trees,) offset of each tree's first split
    leaf_offset: np.ndarray  # (trees,) global index of each tree's leaf 0
    leaf_value: np.ndarray  # (leaves,)
    leaf_contribution: np.ndarray  # (leaves, features)

    def exits(self, x: np.ndarray) -> np.ndarray:
        """(rows, trees) global index of each row's exit leaf in each tree."""
        false = x[:, self.feature] > self.threshold  # (rows, splits)
        masks = np.where(false, self.mask, _ALL)
        vectors = np.bitwise_and.reduceat(masks, self.starts, axis=1)
        lowest = vectors & (~vectors + np.uint64(1))  # the lowest set bit
        bit = np.log2(lowest.astype(np.float64)).astype(np.int64)
        return self.leaf_offset + bit

    def raw(self, x: np.ndarray) -> np.ndarray:
        return self.leaf_value[self.exits(x)].sum(axis=1)

    def contributions(self, x: np.ndarray) -> np.ndarray:
        return self.leaf_contribution[self.exits(x)].sum(axis=1)


def _leaves(node: int, feature: np.ndarray, left: np.ndarray, right: np.ndarray) -> list[int]:
    """The leaves under ``node``, left to right."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        if feature[current] < 0:
            out.append(current)
        else:
            stack.append(int(right[current]))
            stack.append(int(left[current]))
    return out


def build_tables(
    feature: np.ndarray,
    threshold: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    value: np.ndarray,
    roots: np.ndarray,
    n_features: int,
) -> TreeTables:
    """The tables of trees given as node arrays (a leaf: feature -1). A tree without a split
    gets a split that is never false, so every tree has one.

    Raises:
        ValueError: a tree with more than ``MAX_LEAVES`` leaves.
    """
    split_f: list[int] = []
    split_t: list[float] = []
    split_m: list[np.uint64] = []
    starts: list[int] = []
    leaf_value: list[float] = []
    leaf_contribution: list[np.ndarray] = []
    leaf_offset: list[int] = []
    for root in roots.tolist():
        leaves = _leaves(root, feature, left, right)
        if len(leaves) > MAX_LEAVES:
            raise ValueError(f"a tree has {len(leaves)} leaves (at most {MAX_LEAVES})")
        bit = {leaf: i for i, leaf in enumerate(leaves)}
        starts.append(len(split_f))
        leaf_offset.append(len(leaf_value))
        paths: dict[int, np.ndarray] = {root: np.zeros(n_features)}
        stack = [root]
        while stack:
            node = stack.pop()
            if feature[node] < 0:
                continue
            lo, hi = int(left[node]), int(right[node])
            cleared = sum(1 << bit[leaf] for leaf in _leaves(lo, feature, left, right))
            split_f.append(int(feature[node]))
            split_t.append(float(threshold[node]))
            split_m.append(np.uint64(0xFFFFFFFFFFFFFFFF ^ cleared))
            for child in (lo, hi):
                path = paths[node].copy()
                path[int(feature[node])] += value[child] - value[node]
                paths[child] = path
                stack.append(child)
        if len(split_f) == starts[-1]:  # a single leaf: one split that is never false
            split_f.append(0)
            split_t.append(np.inf)
            split_m.append(_ALL)
        for leaf in leaves:
            leaf_value.append(float(value[leaf]))
            leaf_contribution.append(paths[leaf])
    return TreeTables(
        feature=np.asarray(split_f, dtype=np.int64),
        threshold=np.asarray(split_t, dtype=np.float64),
        mask=np.asarray(split_m, dtype=np.uint64),
        starts=np.asarray(starts, dtype=np.int64),
        leaf_offset=np.asarray(leaf_offset, dtype=np.int64),
        leaf_value=np.asarray(leaf_value, dtype=np.float64),
        leaf_contribution=np.asarray(leaf_contribution, dtype=np.float64).reshape(
            len(leaf_value), n_features
        ),
    )
