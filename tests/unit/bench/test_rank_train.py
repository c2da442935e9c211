"""The training harness's pure parts: grouped folds (questions sharing evidence together),
what retrieve returns of an order (facts and turns, provenance dropped), each benchmark's
recall."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.bench.rank_train import components, recall_at, returned


def _meta(bench: str, group: str, gold: list[str], **extra: object) -> dict:
    return {"bench": bench, "group": group, "gold": gold, **extra}


def test_questions_about_one_passage_share_a_group_and_conversations_stay_apart() -> None:
    meta = [
        _meta("pira", "pira:1", ["7"]),
        _meta("pira", "pira:2", ["7"]),  # the same abstract: joined with pira:1
        _meta("pira", "pira:3", ["8"]),
        _meta("musique", "musique:1", ["7"]),  # another family: passage 7 is another passage
        _meta("locomo-facts", "conv-1", ["D1:3"]),
        _meta("locomo-turns", "conv-2", ["D1:3"]),  # dia ids repeat across conversations
    ]
    groups = components(meta)
    assert groups[0] == groups[1] != groups[2]
    assert groups[3] not in {groups[0], groups[2]}
    assert groups[4] != groups[5]


def test_what_retrieve_returns_drops_the_turns_of_returned_facts() -> None:
    meta = {"turn": [0, 1, 0, 1], "sources": [[1], [], [], []]}
    order = np.asarray([0, 1, 2, 3])
    assert list(returned(order, meta)) == [0, 2, 3]  # turn 1 is fact 0's source


def test_recall_counts_items_for_locomo_and_distinct_passages_for_passage_benchmarks() -> None:
    locomo = {"bench": "locomo-facts", "gold": ["D1:1", "D1:2"], "units": [["D1:1"], [], ["D1:2"]]}
    assert recall_at(np.asarray([0, 1, 2]), locomo, 2) == 0.5
    assert recall_at(np.asarray([0, 2, 1]), locomo, 2) == 1.0
    passages = {
        "bench": "musique",
        "gold": ["5", "9"],
        "units": [["5"], ["5"], [], ["9"]],
        "passages": [["5"], ["5"], ["3"], ["9"]],
    }
    # the second item repeats passage 5: k counts distinct passages, so 9 is still within 3
    assert recall_at(np.asarray([0, 1, 2, 3]), passages, 3) == 1.0
    assert recall_at(np.asarray([0, 1, 2, 3]), passages, 2) == 0.5


def _data(rng: np.random.Generator, lists: int = 30, size: int = 20):
    from tests.bench.rank_train import Data

    x = rng.normal(size=(lists * size, 3))
    y = ((x[:, 0] + 0.8 * x[:, 1] + rng.normal(scale=0.5, size=len(x))) > 1.0) * 1.0
    meta = [
        {"bench": "pira", "direction": "en→en", "group": f"pira:{i}", "gold": [str(i)]}
        for i in range(lists)
    ]
    starts = np.arange(0, lists * size + 1, size)
    return Data(["formula", "cosine", "bm25"], x, y, starts, meta)


def test_the_shipped_document_scores_as_the_trained_trees_and_records_how_it_was_trained() -> None:
    pytest.importorskip("lightgbm")
    from graph.memory.read.ranker.model import parse_model
    from tests.bench.rank_train import LGB_PARAMS, lambdamart, shipped_document

    rng = np.random.default_rng(5)
    data = _data(rng)
    params = dict(LGB_PARAMS)
    LGB_PARAMS.update(min_data_in_leaf=5, num_leaves=3, num_threads=1)
    try:
        booster = lambdamart(data, list(range(data.lists)), np.ones(data.lists), rounds=10)
        oof = booster.predict(data.x)
        doc = shipped_document(data, "lambdamart", oof, 0.5, 10, {})
    finally:
        LGB_PARAMS.clear()
        LGB_PARAMS.update(params)
    model = parse_model(json.loads(json.dumps(doc)))
    scored = model.score(data.x)
    assert scored.raw == pytest.approx(oof, abs=1e-9)
    assert scored.bias + scored.contributions.sum(axis=1) == pytest.approx(scored.raw)
    assert doc["trained"]["rounds"] == 10
    assert doc["trained"]["redundant_positives"] == "trained as relevant"


def test_only_the_first_candidate_of_each_piece_of_evidence_is_trained_on() -> None:
    from tests.bench.rank_train import Data, without_redundant_positives

    # formula order: rows 1, 0, 3, 2, 4 (one list)
    x = np.asarray([[0.8], [0.9], [0.5], [0.7], [0.1]])
    meta = [
        {
            "bench": "pira",
            "direction": "en→en",
            "group": "pira:1",
            "gold": ["7", "8"],
            "units": [["7"], ["7"], ["7", "8"], [], ["8"]],
        }
    ]
    data = Data(["formula"], x, np.asarray([1.0, 1, 1, 0, 1]), np.asarray([0, 5]), meta)
    pruned = without_redundant_positives(data)
    # row 0 repeats passage 7 after row 1; row 2 brings 8 (kept); row 4 repeats 8 after row 2
    assert pruned.trained.tolist() == [False, True, True, True, False]
    assert pruned.training_rows(0).tolist() == [1, 2, 3]


def test_a_monotone_signal_never_counts_against_a_candidate() -> None:
    pytest.importorskip("lightgbm")
    from tests.bench.rank_train import LGB_PARAMS, Data, lambdamart

    rng = np.random.default_rng(9)
    lists, size = 40, 20
    x = rng.normal(size=(lists * size, 2))
    x[:, 1] = rng.random(len(x)) < 0.05  # a rare signal ("relation")
    # in this data the rare signal goes with being *less* relevant: unconstrained trees learn it
    y = ((x[:, 0] > 0.8) & (x[:, 1] == 0)) * 1.0
    meta = [
        {"bench": "pira", "direction": "en→en", "group": f"g{i}", "gold": []} for i in range(lists)
    ]
    data = Data(["formula", "relation"], x, y, np.arange(0, lists * size + 1, size), meta)
    params = dict(LGB_PARAMS)
    LGB_PARAMS.update(min_data_in_leaf=5, num_leaves=3, num_threads=1)
    try:
        probe = np.column_stack([np.linspace(-2, 2, 50), np.zeros(50)])
        lifted = probe.copy()
        lifted[:, 1] = 1.0
        for monotone in (False, True):
            LGB_PARAMS["monotone"] = monotone
            booster = lambdamart(data, list(range(lists)), np.ones(lists), rounds=20)
            gain = booster.predict(lifted) - booster.predict(probe)
            assert bool(gain.min() >= 0.0) == monotone
    finally:
        LGB_PARAMS.clear()
        LGB_PARAMS.update(params)


def test_held_out_scores_order_the_formulas_first_candidates_only() -> None:
    from tests.bench.rank_train import Data, within_pool

    formula = np.asarray([0.9, 0.1, 0.5, 0.7, 0.3, 0.2, 0.8])
    x = formula[:, None]
    model = np.asarray([0.0, 5.0, 1.0, 2.0, 4.0, 9.0, 3.0])
    data = Data(["formula"], x, np.zeros(7), np.asarray([0, 5, 7]), [{}, {}])
    order = np.argsort(-within_pool(data, model, 3), kind="stable")
    # list 1: the model orders the formula's first three (0, 3, 2), then 4, 1 by formula
    assert list(order[order < 5]) == [3, 2, 0, 4, 1]
    # list 2 is no longer than the pool: the model's order alone
    assert list(order[order >= 5]) == [5, 6]
    assert np.array_equal(within_pool(data, model, None), model)
