"""Scoring a tree ensemble for many rows at once (pure, numpy): the bit-vector method of
QuickScorer (Lucchese et al., SIGIR 2015).

Number each tree's leaves left to right. A split whose test ``x <= threshold`` is *false*
sends the row right, so no leaf of its left subtree can be the row's exit: the split carries
the bits of those leaves. A row's exit leaf in a tree is then the lowest bit left set once the
bits of all its false splits are cleared — no walk down the tree, just one comparison per split
for every row (a matrix), an AND-reduction per tree and a table lookup. Each leaf also carries
its path attribution (the change of node value at every split on its path, credited to the
split's feature), so a row's contributions are the sum of its exit leaves' vectors.

The splits are laid out as a (trees, splits) grid, a tree with fewer splits padded with splits
that are never false, so that the AND-reduction runs along one axis of one array; the bits are
held in the narrowest unsigned integer that has one per leaf (a tree of 7 leaves: one byte).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["MAX_LEAVES", "TreeTables", "build_tables"]

MAX_LEAVES = 64  # one uint64 bit per leaf
_LOOKUP_BITS = 16  # up to this many leaves, the lowest set bit comes from a table


def _mask_type(leaves: int) -> type[np.unsignedinteger]:
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        if leaves <= np.iinfo(dtype).bits:
            return dtype
    raise ValueError(f"a tree has {leaves} leaves (at most {MAX_LEAVES})")


def _lowest_bit_table(bits: int) -> np.ndarray:
    """Index of the lowest set bit of every value of ``bits`` bits (0 for 0)."""
    values = np.arange(1 << bits, dtype=np.int64)
    lowest = values & -values
    out = np.zeros(1 << bits, dtype=np.int64)
    out[1:] = np.log2(lowest[1:]).astype(np.int64)
    return out


@dataclass(frozen=True)
class TreeTables:
    """The ensemble as tables: every split on a (trees, splits) grid flattened tree by tree,
    its feature, threshold and the bits of the leaves a false test rules out; every leaf's
    value and attribution."""

    feature: np.ndarray  # (trees × splits,) int
    threshold: np.ndarray  # (trees × splits,)
    cleared: np.ndarray  # (trees × splits,) unsigned, the leaves a false test rules out
    splits: int  # splits per tree on the grid
    leaf_offset: np.ndarray  # (trees,) global index of each tree's leaf 0
    leaf_value: np.ndarray  # (leaves,)
    leaf_contribution: np.ndarray  # (leaves, features)
    lowest_bit: np.ndarray | None  # lowest set bit of every mask value (narrow masks only)

    def exits(self, x: np.ndarray) -> np.ndarray:
        """(rows, trees) global index of each row's exit leaf in each tree."""
        rows, trees = x.shape[0], len(self.leaf_offset)
        false = (x[:, self.feature] > self.threshold).astype(self.cleared.dtype)
        kept = ~(false * self.cleared)  # (rows, trees × splits): the leaves still possible
        vectors = np.bitwise_and.reduce(kept.reshape(rows, trees, self.splits), axis=2)
        if self.lowest_bit is not None:
            bit = self.lowest_bit[vectors]
        else:
            lowest = vectors & (~vectors + vectors.dtype.type(1))
            bit = np.log2(lowest.astype(np.float64)).astype(np.int64)
        return self.leaf_offset + bit

    def raw(self, exits: np.ndarray) -> np.ndarray:
        """Each row's summed leaf values, from its ``exits``."""
        return self.leaf_value[exits].sum(axis=1)

    def contributions(self, exits: np.ndarray) -> np.ndarray:
        """Each row's summed leaf attributions, from its ``exits``."""
        return self.leaf_contribution[exits].sum(axis=1)


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


@dataclass
class _Tree:
    """One tree's splits (feature, threshold, cleared bits) and leaves (value, attribution)."""

    splits: list[tuple[int, float, int]]
    values: list[float]
    contributions: list[np.ndarray]


def _tree(
    root: int,
    feature: np.ndarray,
    threshold: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    value: np.ndarray,
    n_features: int,
) -> _Tree:
    leaves = _leaves(root, feature, left, right)
    if len(leaves) > MAX_LEAVES:
        raise ValueError(f"a tree has {len(leaves)} leaves (at most {MAX_LEAVES})")
    bit = {leaf: i for i, leaf in enumerate(leaves)}
    splits: list[tuple[int, float, int]] = []
    paths: dict[int, np.ndarray] = {root: np.zeros(n_features)}
    stack = [root]
    while stack:
        node = stack.pop()
        if feature[node] < 0:
            continue
        lo, hi = int(left[node]), int(right[node])
        cleared = sum(1 << bit[leaf] for leaf in _leaves(lo, feature, left, right))
        splits.append((int(feature[node]), float(threshold[node]), cleared))
        for child in (lo, hi):
            path = paths[node].copy()
            path[int(feature[node])] += value[child] - value[node]
            paths[child] = path
            stack.append(child)
    return _Tree(splits, [float(value[leaf]) for leaf in leaves], [paths[leaf] for leaf in leaves])


def build_tables(
    feature: np.ndarray,
    threshold: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    value: np.ndarray,
    roots: np.ndarray,
    n_features: int,
) -> TreeTables:
    """The tables of trees given as node arrays (a leaf: feature -1). A tree with fewer splits
    than the largest (a single leaf: none) is padded with splits that are never false.

    Raises:
        ValueError: a tree with more than ``MAX_LEAVES`` leaves.
    """
    trees = [_tree(r, feature, threshold, left, right, value, n_features) for r in roots.tolist()]
    width = max([len(t.splits) for t in trees] + [1])
    dtype = _mask_type(max([len(t.values) for t in trees] + [1]))
    never = (0, np.inf, 0)  # a test that is never false rules nothing out
    grid = [t.splits + [never] * (width - len(t.splits)) for t in trees]
    flat = [split for row in grid for split in row]
    offsets = np.cumsum([0] + [len(t.values) for t in trees])[:-1]
    bits = np.iinfo(dtype).bits
    return TreeTables(
        feature=np.asarray([s[0] for s in flat], dtype=np.int64),
        threshold=np.asarray([s[1] for s in flat], dtype=np.float64),
        cleared=np.asarray([s[2] for s in flat], dtype=dtype),
        splits=width,
        leaf_offset=np.asarray(offsets, dtype=np.int64),
        leaf_value=np.asarray([v for t in trees for v in t.values], dtype=np.float64),
        leaf_contribution=np.asarray(
            [c for t in trees for c in t.contributions], dtype=np.float64
        ).reshape(-1, n_features),
        lowest_bit=_lowest_bit_table(bits) if bits <= _LOOKUP_BITS else None,
    )
