"""Train and cross-validate the learned ranker on the labelled lists of ``tests.bench.rank_data``
and print one table: exact vector top-k, today's formula, a linear model and LambdaMART
(LightGBM), per benchmark and direction, every figure from held-out folds.

    .venv/bin/python -m tests.bench.rank_train [--data .bench/rank] [--folds 5]
        [--write graph/memory/read/ranker/shipped.json] [--json OUT]

Cross-validation is grouped: a LoCoMo conversation, a multi-hop question, a Pirá question (with
its translation, against every memory) is one group, and a group's lists are all in the same
fold, so no question (and no conversation) is on both sides. Every model of a fold is trained
on the other folds' lists of *every* benchmark together (one model for all, as shipped) and
scores the held-out lists; the table reads those held-out orders with each benchmark's own
metric (LoCoMo: evidence recall of the first k items; multi-hop and Pirá: recall of the first k
distinct passages). ``--write`` trains the chosen model (``--model``) on every list and writes
it, calibrated on the held-out scores (``sigmoid(a·raw + b)``), as the shipped JSON document.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from graph.memory.read.ranker import LEARNED_POOL

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "graph" / "memory" / "read" / "ranker" / "shipped.json"
# The main cut of each benchmark (the and the field's), then the others printed.
MAIN_K = {"locomo": 10, "musique": 5, "hotpotqa": 5, "pira": 5}
BY_UNIT = {"locomo": False, "musique": True, "hotpotqa": True, "pira": True}
# The shipped model's parameters: trees of 15 leaves, at least 100 rows a leaf, 200 rounds.
# The model orders 40 candidates (LEARNED_POOL): 0.28 ms p50 for their 40 rows against 0.21
# with 7 leaves, for a held-out mean of 0.764 against 0.761.
LGB_PARAMS: dict[str, Any] = {
    "objective": "lambdarank",
    "metric": "ndcg",
    "eval_at": [10],
    "learning_rate": 0.05,
    "num_leaves": 15,
    "max_depth": 5,
    "min_data_in_leaf": 100,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "lambdarank_truncation_level": 30,
    "use_missing": False,
    "verbose": -1,
    "num_threads": 2,
    "seed": 7,
    "deterministic": True,
}
ROUNDS = 200
# Rare signals that by their design say "more relevant" as they rise (+1) or fall (-1): a
# relation answer, a time-window match, a graph path, a superseded turn. With ``--monotone on``
# the trees may only follow them that way: a few hundred rows hold them, too few for the trees
# to learn their direction from (a leaf needs 100 rows).
MONOTONE: dict[str, int] = {"relation": 1, "temporal": 1, "graph": 1, "past_turn": -1}


@dataclass
class Data:
    """Every list of every benchmark, stacked."""

    features: list[str]
    x: np.ndarray  # (rows, features)
    label: np.ndarray  # (rows,) 1 when the candidate holds evidence
    starts: np.ndarray  # (lists + 1,) row offsets
    meta: list[dict[str, Any]]  # per list: bench, direction, group, units, gold, vector
    trained: np.ndarray | None = None  # (rows,) bool: the rows models train on (None: all)

    def rows(self, i: int) -> slice:
        return slice(int(self.starts[i]), int(self.starts[i + 1]))

    def training_rows(self, i: int) -> np.ndarray:
        """List ``i``'s rows that models train on."""
        rows = np.arange(self.starts[i], self.starts[i + 1])
        return rows if self.trained is None else rows[self.trained[rows]]

    @property
    def lists(self) -> int:
        return len(self.meta)


def family(bench: str) -> str:
    return bench.split("-")[0]


def load(folder: Path, only: Sequence[str] | None = None) -> Data:
    xs, labels, meta, features = [], [], [], None
    for doc_path in sorted(folder.glob("*.json")):
        if not (folder / f"{doc_path.stem}.npz").is_file() or (only and doc_path.stem not in only):
            continue  # not a list file (agents.json, a --json output)
        doc = json.loads(doc_path.read_text())
        x = np.load(folder / f"{doc_path.stem}.npz")["x"].astype(np.float64)
        if features is None:
            features = doc["features"]
        elif doc["features"] != features:
            raise SystemExit(f"{doc_path.name}: another feature vocabulary; collect it again")
        at = 0
        for item in doc["lists"]:
            n = len(item["units"])
            xs.append(x[at : at + n])
            labels.append(np.asarray([1.0 if u else 0.0 for u in item["units"]]))
            meta.append({**item, "bench": doc["bench"]})
            at += n
    if features is None:
        raise SystemExit(f"no lists under {folder}: run python -m tests.bench.rank_data first")
    starts = np.cumsum([0, *(len(x) for x in xs)])
    return Data(features, np.concatenate(xs), np.concatenate(labels), starts, meta)


def components(meta: list[dict[str, Any]]) -> list[str]:
    """Each list's group, joined with every other group that shares a gold unit with it in the
    same benchmark family (two questions about one passage are one group: a model must never
    meet a held-out question's evidence in training)."""
    parent: dict[str, str] = {}

    def find(a: str) -> str:
        while parent.setdefault(a, a) != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for m in meta:
        if family(m["bench"]) == "locomo":
            continue  # its units are turn ids of one conversation: the group already
        for unit in m["gold"]:
            key = f"{family(m['bench'])}#{unit}"
            parent[find(key)] = find(m["group"])
    return [find(m["group"]) for m in meta]


def select_features(data: Data, drop: Sequence[str]) -> Data:
    """``data`` without the ``drop`` features (the formula's own score always stays: it is the
    baseline's order)."""
    keep = [i for i, f in enumerate(data.features) if f not in drop or f == "formula"]
    features = [data.features[i] for i in keep]
    return Data(features, data.x[:, keep], data.label, data.starts, data.meta, data.trained)


def without_redundant_positives(data: Data) -> Data:
    """``data`` training on a list's first candidate of each piece of evidence only: walking a
    list in the formula's order, a relevant candidate whose evidence units (turns, passages)
    are all held by a relevant candidate before it is left out of training (neither relevant
    nor not). The benchmarks count evidence found, not candidates: a passage's fifth sentence,
    often unrelated to the question, is not what a model should learn to put first. The
    held-out figures still read every candidate."""
    trained = np.ones(len(data.x), dtype=bool)
    formula = data.x[:, data.features.index("formula")]
    for i, m in enumerate(data.meta):
        start = int(data.starts[i])
        rows = np.arange(start, int(data.starts[i + 1]))
        covered: set[str] = set()
        for row in rows[np.argsort(-formula[rows], kind="stable")]:
            units = set(m["units"][row - start])
            if not units:
                continue
            if units <= covered:
                trained[row] = False
            covered |= units
    return dataclasses.replace(data, trained=trained)


def fold_of(group: str, folds: int, locomo_groups: list[str]) -> int:
    """A group's fold: LoCoMo's conversations one per fold (in order), every other group by a
    stable hash of its name."""
    if group in locomo_groups:
        return locomo_groups.index(group) % folds
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % folds


TOPK = 20  # what retrieve returns in the benchmarks: facts, and turns beside them


def returned(order: np.ndarray, meta: dict[str, Any]) -> np.ndarray:
    """The candidates retrieve returns in ``order``: the best ``TOPK`` facts, and the best
    ``TOPK`` turns that none of those facts was extracted from (``ranking.drop_provenance``),
    merged by score (the order given)."""
    turn = meta["turn"]
    facts = [i for i in order if not turn[i]][:TOPK]
    covered = {s for i in facts for s in meta["sources"][i]}
    turns = [i for i in order if turn[i] and i not in covered][:TOPK]
    keep = set(facts) | set(turns)
    return np.asarray([i for i in order if i in keep], dtype=int)


def recall_at(order: np.ndarray, meta: dict[str, Any], k: int) -> float:
    """The benchmark's recall of the list in ``order`` (candidate indices, best first):
    LoCoMo's evidence recall of the first ``k`` items; a passage benchmark's recall of the
    first ``k`` distinct passages the items came from (``multihop_parts.passage_order``)."""
    gold = set(meta["gold"])
    if not gold:
        return 0.0
    if not BY_UNIT[family(meta["bench"])]:
        found: set[str] = set()
        for i in order[:k]:
            found.update(meta["units"][i])
        return len(found & gold) / len(gold)
    ranked: dict[str, None] = {}
    for i in order:
        for unit in meta["passages"][i]:
            ranked.setdefault(unit, None)
        if len(ranked) >= k:
            break
    return len(gold & set(list(ranked)[:k])) / len(gold)


def pool_recall(meta: dict[str, Any]) -> float:
    gold = set(meta["gold"])
    found = set().union(*map(set, meta["units"])) if meta["units"] else set()
    return len(found & gold) / len(gold) if gold else 0.0


# ---------------------------------------------------------------- models


def softmax_linear(
    data: Data, train: list[int], weights: np.ndarray, l2: float = 1.0
) -> dict[str, Any]:
    """A linear model trained listwise: per list, −log of the softmax mass on its relevant
    candidates, plus an L2 penalty; features standardised on the training rows."""
    kept = [i for i in train if data.label[data.rows(i)].any()]
    parts = [data.training_rows(i) for i in kept]
    idx = np.concatenate(parts)
    sizes = np.asarray([len(p) for p in parts])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    owner = np.repeat(np.arange(len(kept)), sizes)
    list_w = weights[kept]
    mean = data.x[idx].mean(axis=0)
    scale = data.x[idx].std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (data.x[idx] - mean) / scale
    rel = data.label[idx] > 0

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        s = z @ w
        s = s - np.maximum.reduceat(s, starts)[owner]
        e = np.exp(s)
        total_e = np.add.reduceat(e, starts)
        rel_e = np.add.reduceat(np.where(rel, e, 0.0), starts)
        value = -float(list_w @ (np.log(rel_e) - np.log(total_e))) + 0.5 * l2 * float(w @ w)
        coef = list_w[owner] * (np.where(rel, e, 0.0) / rel_e[owner] - e / total_e[owner])
        grad = -(z.T @ coef) + l2 * w
        return value, grad

    result = minimize(
        loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 500}
    )
    return {
        "features": list(data.features),
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "weights": result.x.tolist(),
        "bias": 0.0,
    }


def linear_scores(model: dict[str, Any], x: np.ndarray) -> np.ndarray:
    mean, scale, w = (np.asarray(model[k]) for k in ("mean", "scale", "weights"))
    return ((x - mean) / scale) @ w


def lambdamart(data: Data, train: list[int], weights: np.ndarray, rounds: int = ROUNDS) -> Any:
    import lightgbm as lgb

    parts = [data.training_rows(i) for i in train]
    idx = np.concatenate(parts)
    sizes = [len(p) for p in parts]
    row_weights = np.concatenate(
        [np.full(s, weights[i]) for i, s in zip(train, sizes, strict=True)]
    )
    dataset = lgb.Dataset(
        data.x[idx],
        data.label[idx],
        group=sizes,
        weight=row_weights,
        feature_name=list(data.features),
    )
    params = dict(LGB_PARAMS)
    if params.pop("monotone", False):
        params["monotone_constraints"] = [MONOTONE.get(f, 0) for f in data.features]
        params["monotone_constraints_method"] = "advanced"
    return lgb.train(params, dataset, num_boost_round=rounds)


def trees_document(booster: Any, features: list[str]) -> dict[str, Any]:
    """LightGBM's trees in the shipped format (``graph.memory.read.ranker.model``)."""
    dump = booster.dump_model()
    trees = []
    for info in dump["tree_info"]:
        nodes: list[list[float]] = []

        def visit(node: dict[str, Any], depth: int, nodes: list[list[float]] = nodes) -> int:
            me = len(nodes)
            if "leaf_value" in node:
                nodes.append([-1, 0.0, 0, 0, float(node["leaf_value"])])
                return depth
            if node["decision_type"] != "<=":
                raise SystemExit(f"unsupported split {node['decision_type']}")
            nodes.append(
                [
                    int(node["split_feature"]),
                    float(node["threshold"]),
                    0,
                    0,
                    float(node["internal_value"]),
                ]
            )
            d1 = visit(node["left_child"], depth + 1)
            nodes[me][2] = me + 1
            nodes[me][3] = len(nodes)
            d2 = visit(node["right_child"], depth + 1)
            return max(d1, d2)

        depth = visit(info["tree_structure"], 1)
        trees.append({"nodes": nodes, "depth": depth})
    return {"features": features, "trees": trees}


# ---------------------------------------------------------------- cross-validation


RANKERS = ("vector", "formula", "linear", "lambdamart")
# Features that tell one stored item from another without saying anything about the question:
# an item's length and its age (in a benchmark, the order it was imported in). A model that may
# split on them can learn *which passages* are often relevant in a corpus it was trained on —
# memorising the benchmark instead of ranking; so the shipped model does not read them. Nor
# the fact's confidence and the agent's size: in the development memories each holds one value
# per memory (the extractor's confidence of that language, the memory's size), so a model could
# only learn from them which benchmark it is in.
UNREAD = ("text_tokens", "recency", "confidence", "agent_facts")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
# Feature groups switched off in turn by --ablate (the ranker then cannot read them).
ABLATIONS: dict[str, tuple[str, ...]] = {
    "graph BFS": ("graph", "hops", "found_graph"),
    "spreading activation": ("activation",),
    "relation answers": ("relation",),
    "named entities": ("entity_mentions", "entity_share", "subject_named", "query_entities"),
    "the graph (all of the above)": (
        "graph", "hops", "found_graph", "activation", "relation", "entity_mentions",
        "entity_share", "subject_named", "query_entities",
    ),
    "keyword": ("bm25", "bm25_rank", "keyword_coverage", "keyword_coverage_idf", "found_keyword", "rrf", "phrase_coverage", "pool_keyword"),
    "session": ("session_cosine", "session_candidates", "session_fact_cosine", "session_facts"),
    "provenance partners": ("source_cosine", "source_formula"),
    "the formula": ("formula", "formula_rank", "formula_gap"),
    "language": ("language_match", "pool_language_match", "query_english", "query_portuguese"),
    "raw cosine": ("cosine", "cosine_rank", "cosine_gap", "cosine_z"),
}  # fmt: skip


def list_weights(data: Data, power: float) -> np.ndarray:
    """Each list's weight: 1 / (the lists of its benchmark and direction) ** power, scaled to
    mean 1 (a direction of Pirá weighs as a LoCoMo mode does, not a sixth of one)."""
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for m in data.meta:
        counts[m["bench"], m["direction"]] += 1
    w = np.asarray([1.0 / counts[m["bench"], m["direction"]] ** power for m in data.meta])
    return w / w.mean()


def cross_validate(
    data: Data,
    folds: int,
    power: float,
    rounds: int,
    l2: float = 1.0,
    models: Sequence[str] = ("linear", "lambdamart"),
) -> dict[str, np.ndarray]:
    """Held-out scores of every row for the formula and the ``models`` (linear, LambdaMART)."""
    locomo_groups = sorted({m["group"] for m in data.meta if family(m["bench"]) == "locomo"})
    groups = components(data.meta)
    fold = np.asarray([fold_of(g, folds, locomo_groups) for g in groups])
    print(f"{len(set(groups))} groups (questions sharing evidence joined)", flush=True)
    weights = list_weights(data, power)
    formula_col = data.features.index("formula")
    out = {
        "formula": data.x[:, formula_col].copy(),
        **{name: np.zeros(len(data.x)) for name in models},
    }
    for f in range(folds):
        t = time.perf_counter()
        train = [i for i in range(data.lists) if fold[i] != f]
        test = [i for i in range(data.lists) if fold[i] == f]
        if not test:
            continue
        rows = np.concatenate([np.arange(data.starts[i], data.starts[i + 1]) for i in test])
        if "linear" in models:
            linear = softmax_linear(data, train, weights, l2)
            out["linear"][rows] = linear_scores(linear, data.x[rows])
        if "lambdamart" in models:
            booster = lambdamart(data, train, weights, rounds)
            out["lambdamart"][rows] = booster.predict(data.x[rows])
        print(
            f"fold {f + 1}/{folds}: {len(train)} lists to train, {len(test)} held out ({time.perf_counter() - t:.0f} s)",
            flush=True,
        )
    return out


def within_pool(data: Data, scores: np.ndarray, pool: int | None) -> np.ndarray:
    """``scores`` as ``retrieve`` orders them (``ranker.LEARNED_POOL``): a model orders each
    list's first ``pool`` candidates by formula score, the others follow in the formula's
    order (None: the model orders every candidate)."""
    if pool is None:
        return scores
    out = scores.copy()
    formula = data.x[:, data.features.index("formula")]
    for i in range(data.lists):
        rows = np.arange(data.starts[i], data.starts[i + 1])
        if len(rows) <= pool:
            continue
        rest = rows[np.argsort(-formula[rows], kind="stable")[pool:]]
        out[rest] = out[rows].min() - 1.0 - (formula[rows].max() - formula[rest])
    return out


def table(data: Data, scores: dict[str, np.ndarray]) -> dict[str, dict[str, dict[str, float]]]:
    """bench/direction → ranker → {"R@k": mean, "pool": ceiling, "n": lists}."""
    cells: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for i, m in enumerate(data.meta):
        keys = [f"{m['bench']} {m['direction']}"]
        if "category" in m:  # LoCoMo's question categories
            keys.append(f"{keys[0]} · {CATEGORIES.get(m['category'], m['category'])}")
        k = MAIN_K[family(m["bench"])]
        rows = data.rows(i)
        for name, s in scores.items():
            order = np.lexsort((np.arange(rows.stop - rows.start), -s[rows]))
            if "sources" in m:
                order = returned(order, m)
            for kk in sorted({2, 5, 10, k} if family(m["bench"]) != "locomo" else {5, 10, 20}):
                value = recall_at(order, m, kk)
                for key in keys:
                    cells[key][f"{name} R@{kk}"].append(value)
        for key in keys:
            for kk, v in m["vector"].items():
                cells[key][f"vector {kk}"].append(v)
            cells[key]["pool"].append(pool_recall(m))
    return {
        key: {name: {"mean": float(np.mean(v)), "n": len(v)} for name, v in by.items()}
        for key, by in cells.items()
    }


def print_table(result: dict[str, dict[str, dict[str, float]]]) -> None:
    print("\n| benchmark | k | lists | vector | formula | linear | LambdaMART | pool |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(result):
        k = MAIN_K[family(key.split(" ")[0])]
        cells = result[key]
        n = cells["pool"]["n"]
        values = [cells.get(f"{r} R@{k}", {"mean": float("nan")})["mean"] for r in RANKERS]
        best = max(values[1:])
        shown = [
            f"**{v:.3f}**" if v == best and i > 0 else f"{v:.3f}" for i, v in enumerate(values)
        ]
        print(f"| {key} | {k} | {n} | {' | '.join(shown)} | {cells['pool']['mean']:.3f} |")
    means = overall(result)
    shown = [f"{means.get(r, float('nan')):.3f}" for r in RANKERS]
    print(f"| every benchmark and direction, equally | | | {' | '.join(shown)} | |")


def main_cell(key: str, ranker: str) -> str:
    """The table cell of ``ranker``'s main recall in row ``key`` ("lambdamart R@10")."""
    return f"{ranker} R@{MAIN_K[family(key.split(' ')[0])]}"


def overall(result: dict[str, dict[str, dict[str, float]]]) -> dict[str, float]:
    """Each ranker's main recall averaged over the benchmark and direction rows (LoCoMo's
    categories aside), each row weighing the same: the one figure models are chosen by."""
    rows = [key for key in result if " · " not in key]
    means = {}
    for r in RANKERS:
        values = [
            result[key][main_cell(key, r)]["mean"]
            for key in rows
            if main_cell(key, r) in result[key]
        ]
        if len(values) == len(rows):
            means[r] = float(np.mean(values))
    return means


# ---------------------------------------------------------------- the shipped model


def platt(raw: np.ndarray, label: np.ndarray) -> tuple[float, float]:
    """``sigmoid(a·raw + b)`` fitted to the labels (held-out scores)."""

    def loss(p: np.ndarray) -> tuple[float, np.ndarray]:
        z = p[0] * raw + p[1]
        q = 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))
        eps = 1e-12
        value = -float(np.sum(label * np.log(q + eps) + (1 - label) * np.log(1 - q + eps)))
        g = q - label
        return value, np.asarray([float(g @ raw), float(g.sum())])

    result = minimize(loss, np.asarray([1.0, 0.0]), jac=True, method="L-BFGS-B")
    return float(result.x[0]), float(result.x[1])


def shipped_document(
    data: Data,
    kind: str,
    oof: np.ndarray,
    power: float,
    rounds: int,
    cv: dict[str, Any],
) -> dict[str, Any]:
    weights = list_weights(data, power)
    everything = list(range(data.lists))
    a, b = platt(oof, data.label)
    doc: dict[str, Any] = {
        "format": "hippograph.ranker",
        "format_version": 1,
        "name": f"shipped-{kind}",
        "version": 1,
        "features": list(data.features),
        "calibration": {"a": a, "b": b},
    }
    if kind == "linear":
        doc["linear"] = softmax_linear(data, everything, weights)
    else:
        doc["trees"] = trees_document(
            lambdamart(data, everything, weights, rounds), list(data.features)
        )
    benches = sorted({m["bench"] for m in data.meta})
    doc["trained"] = {
        "at": datetime.now(UTC).strftime("%Y-%m-%d"),
        "by": "python -m tests.bench.rank_train",
        "lists": data.lists,
        "rows": len(data.x),
        "benchmarks": benches,
        "list_weight_power": power,
        "redundant_positives": "trained as relevant" if data.trained is None else "left out",
        "rounds": rounds if kind != "linear" else None,
        "params": {k: v for k, v in LGB_PARAMS.items() if k not in ("verbose", "num_threads")}
        if kind != "linear"
        else None,
        "cross_validated": cv,
    }
    return doc


def ablate(data: Data, args: argparse.Namespace, base: dict[str, Any]) -> None:
    """Each feature group switched off in turn (its columns held at 0): Δ of the chosen
    model's held-out recall per benchmark, direction and LoCoMo category."""
    print(f"\nablation of {args.model} (Δ main recall against all features, held out)")
    keys = sorted(base)
    print("| features off | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    chosen = (
        ABLATIONS
        if args.ablate == "all"
        else {label: ABLATIONS[label] for label in args.ablate.split(",")}
    )
    for label, names in chosen.items():
        cut = [data.features.index(n) for n in names if n in data.features]
        saved = data.x[:, cut].copy()
        data.x[:, cut] = 0.0
        try:
            scores = cross_validate(
                data, args.folds, args.power, args.rounds, args.l2, (args.model,)
            )
        finally:
            data.x[:, cut] = saved
        held_out = within_pool(data, scores[args.model], args.pool or None)
        result = table(data, {args.model: held_out})
        cells = []
        for key in keys:
            cell = main_cell(key, args.model)
            delta = result[key][cell]["mean"] - base[key][cell]["mean"]
            cells.append(f"{100 * delta:+.1f}")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


def main(args: argparse.Namespace) -> None:
    data = select_features(load(Path(args.data), args.only), args.drop)
    if args.redundant == "drop":
        data = without_redundant_positives(data)
        print(f"{int((~data.trained).sum())} redundant relevant rows left out of training")
    print(
        f"{data.lists} lists, {len(data.x)} rows, {len(data.features)} features; {args.folds} folds",
        flush=True,
    )
    scores = cross_validate(data, args.folds, args.power, args.rounds, args.l2, args.models)
    pool = args.pool or None
    scores |= {name: within_pool(data, scores[name], pool) for name in args.models}
    result = table(data, scores)
    print_table(result)
    summary = {
        key: {
            r: round(cells[main_cell(key, r)]["mean"], 4)
            for r in RANKERS
            if main_cell(key, r) in cells
        }
        | {"pool": round(cells["pool"]["mean"], 4), "lists": cells["pool"]["n"]}
        for key, cells in result.items()
    }
    if args.json:
        Path(args.json).write_text(
            json.dumps({"table": result, "summary": summary, "overall": overall(result)}, indent=1)
        )
    if args.write:
        doc = shipped_document(
            data, args.model, scores[args.model], args.power, args.rounds, summary
        )
        Path(args.write).write_text(json.dumps(doc, separators=(",", ":")) + "\n")
        size = Path(args.write).stat().st_size
        print(f"wrote {args.write} ({args.model}, {size / 1024:.0f} KB)")
    if args.ablate:
        ablate(data, args, result)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT / ".bench" / "rank"))
    parser.add_argument("--only", default=None, help="comma list of list files (e.g. locomo-facts)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="LambdaMART boosting rounds")
    parser.add_argument(
        "--power", type=float, default=0.5, help="list weight 1/(benchmark's lists)**power"
    )
    parser.add_argument("--model", choices=("linear", "lambdamart"), default="lambdamart")
    parser.add_argument(
        "--pool",
        type=int,
        default=LEARNED_POOL,
        help="the models order each list's first N candidates by formula score, as retrieve "
        "does (0: every candidate)",
    )
    parser.add_argument(
        "--write",
        default=None,
        metavar="PATH",
        help=f"write the model (e.g. {SHIPPED.relative_to(ROOT)})",
    )
    parser.add_argument("--json", default=None, metavar="OUT")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a LightGBM parameter over the defaults (e.g. num_leaves=7)",
    )
    parser.add_argument(
        "--redundant",
        choices=("drop", "keep"),
        default="drop",
        help="relevant candidates whose evidence an earlier one (formula order) already holds: "
        "left out of training (drop) or trained on as relevant (keep)",
    )
    parser.add_argument(
        "--monotone",
        choices=("on", "off"),
        default="on",
        help="LambdaMART may follow the signals of MONOTONE only in their direction (on)",
    )
    parser.add_argument("--l2", type=float, default=1.0, help="the linear model's L2 penalty")
    parser.add_argument(
        "--models", default="linear,lambdamart", help="which models to cross-validate"
    )
    parser.add_argument(
        "--ablate",
        nargs="?",
        const="all",
        default=None,
        help="also each feature group off in turn (--model); a comma list of groups: those only",
    )
    parser.add_argument(
        "--drop",
        default=",".join(UNREAD),
        help="features the models never read (comma list; default: what only names a stored "
        "item rather than how it answers the question)",
    )
    args = parser.parse_args(argv)
    for item in args.param:
        name, _, value = item.partition("=")
        LGB_PARAMS[name] = json.loads(value) if value[:1].isdigit() or value[:1] in "-[" else value
    LGB_PARAMS["monotone"] = args.monotone == "on"
    args.only = args.only.split(",") if args.only else None
    args.models = tuple(m for m in args.models.split(",") if m)
    args.drop = tuple(d for d in args.drop.split(",") if d)
    unknown = [g for g in (args.ablate or "all").split(",") if g != "all" and g not in ABLATIONS]
    if unknown:
        parser.error(f"unknown feature group {unknown[0]!r} (one of {', '.join(ABLATIONS)})")
    return args


Runner = Callable[[argparse.Namespace], None]

if __name__ == "__main__":
    main(parse_args())
