"""The training harness's pure parts: grouped folds (questions sharing evidence together),
what retrieve returns of an order (facts and turns, provenance dropped), each benchmark's
recall."""

from __future__ import annotations

import numpy as np

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
