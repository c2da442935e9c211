"""The nearest-neighbour strategy of the write path: exact scan of small sets, index
over-fetch rounds for large ones (graph/memory/write/overfetch.py)."""

from __future__ import annotations

from graph.memory.write.overfetch import Round, first_k, index_score, next_k, use_exact

LIMIT, CAP, MIN = 3, 4_096, index_score(0.5)


def test_small_sets_are_scanned_exactly() -> None:
    assert use_exact(0, 200) and use_exact(200, 200)
    assert not use_exact(201, 200)  # counted up to scan_max + 1: larger


def test_index_score_is_the_index_scale() -> None:
    assert index_score(0.5) == 0.75 and index_score(-1.0) == 0.0 and index_score(1.0) == 1.0


def test_first_round_is_small() -> None:
    assert first_k(3) == 64 and first_k(40) == 160


def test_a_round_is_conclusive_with_enough_rows_an_exhausted_index_or_a_low_floor() -> None:
    assert next_k(Round(64, 64, 0.9, 10, LIMIT), LIMIT, MIN, CAP) is None  # enough rows
    assert next_k(Round(64, 20, 0.9, 1, 1), LIMIT, MIN, CAP) is None  # index had only 20
    # The 64th global hit is already below the threshold: nothing better further down.
    assert next_k(Round(64, 64, 0.70, 1, 1), LIMIT, MIN, CAP) is None


def test_an_open_round_grows_from_the_share_it_saw() -> None:
    # 2 of 64 hits are the agent's (~3 %): 3 rows need ~144 hits, with slack; at least ×4.
    assert next_k(Round(64, 64, 0.9, 2, 2), LIMIT, MIN, CAP) == 256
    # None of the agent's: as if one in 64.
    assert next_k(Round(64, 64, 0.9, 0, 0), LIMIT, MIN, CAP) == 288
    assert next_k(Round(1_024, 1_024, 0.9, 0, 0), LIMIT, MIN, CAP) == CAP  # capped


def test_an_open_round_at_the_cap_falls_back_to_the_exact_scan() -> None:
    assert next_k(Round(CAP, CAP, 0.9, 1, 1), LIMIT, MIN, CAP) == 0
