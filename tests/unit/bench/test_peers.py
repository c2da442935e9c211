"""Pure parts of the peers benchmark: fusion, percentiles, copies, tables, corpora (its progress
output is graph.progress, tested in tests/unit/graph/test_progress.py)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from tests.bench.peers.__main__ import parse_args
from tests.bench.peers.fusion import copy_text, copy_vector, percentile, rrf, scaled_copies
from tests.bench.peers.rankers import VectorTable
from tests.bench.peers.report import RankerStats, latency_table, quality_table, repeated_figures
from tests.bench.peers.run import build_corpora


def test_rrf_sums_reciprocal_ranks_across_lists() -> None:
    # a: 1/61 + 1/62, b: 1/62 + 1/61, c: 1/63, d: 1/63 -> a, b tie (first seen wins), then c, d
    assert rrf([["a", "b", "c"], ["b", "a", "d"]]) == ["a", "b", "c", "d"]
    # an item found by both lists beats one ranked first by a single list
    assert rrf([["x", "y"], ["z", "y"]], k=60)[0] == "y"


def test_rrf_k_limit_and_duplicates() -> None:
    assert rrf([["a", "a", "b"]]) == ["a", "b"]  # a duplicate inside one list counts once
    assert rrf([["a", "b", "c"], ["c"]], limit=2) == ["c", "a"]
    # small k lets a single first place beat two mid ranks; large k does not
    lists = [["solo", "m1", "both"], ["x", "y", "both"]]
    assert rrf(lists, k=1)[0] == "solo"
    assert rrf(lists, k=1000)[0] == "both"
    assert rrf([]) == []


def test_percentile_interpolates() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([10.0, 20.0], 95) == pytest.approx(19.5)
    assert percentile([7.0], 95) == 7.0
    assert math.isnan(percentile([], 50))


def test_scaled_copies_pad_with_suffixed_copies() -> None:
    items = [("f1", "likes tea"), ("f2", "runs")]
    out = scaled_copies(items, 5)
    assert out[:2] == [("f1", "likes tea", "f1"), ("f2", "runs", "f2")]
    assert out[2:] == [
        ("f1-c1", "likes tea (copy 1)", "f1"),
        ("f2-c1", "runs (copy 1)", "f2"),
        ("f1-c2", "likes tea (copy 2)", "f1"),
    ]
    assert len({i for i, _, _ in scaled_copies(items, 101)}) == 101
    assert scaled_copies(items, 1) == [("f1", "likes tea", "f1")]
    assert scaled_copies([], 10) == []
    assert copy_text("x", 3) == "x (copy 3)"


def test_ranker_stats_recall_mrr_and_latency() -> None:
    dia_of = {"f1": {"D1:1"}, "f2": {"D1:2"}, "f3": {"D2:5"}}
    stats = RankerStats()
    # evidence D1:2 and D2:5: f2 at rank 2, f3 at rank 7 (hit within 10, not within 5)
    ranked = ["f1", "f2", "x", "x2", "x3", "x4", "f3"]
    stats.add(ranked, dia_of, {"D1:2", "D2:5"}, 10.0)
    stats.add(["f1"], dia_of, {"D1:1"}, 30.0)
    fig = stats.figures()
    assert fig["questions"] == 2
    assert fig["recall@5"] == pytest.approx((0.5 + 1.0) / 2)
    assert fig["recall@10"] == pytest.approx(1.0)
    assert fig["mrr"] == pytest.approx((0.5 + 1.0) / 2)
    assert fig["p50_ms"] == pytest.approx(20.0)
    stats.add_latency(50.0)  # latency-only samples do not count as questions
    assert stats.figures()["questions"] == 2


def test_quality_table_has_ratios_against_hippograph() -> None:
    base = {
        "recall@5": 0.5,
        "recall@10": 0.6,
        "recall@20": 0.7,
        "mrr": 0.4,
        "p50_ms": 100.0,
        "p95_ms": 150.0,
    }
    peer = {**base, "recall@10": 0.5, "mrr": 0.5, "p50_ms": 50.0}
    table = quality_table({"hippograph": base, "vector top-k": peer})
    lines = table.splitlines()
    assert lines[0].startswith("| ranker | R@5 | R@10 | R@20 | MRR | p50 ms | p95 ms")
    assert lines[2] == "| hippograph | 0.500 | 0.600 | 0.700 | 0.400 | 100.0 | 150.0 | — | — | — |"
    assert lines[3].endswith("| 1.20 | 0.80 | 2.00 |")


def test_latency_table_rows_per_size() -> None:
    row = {
        "hippograph": {"p50_ms": 10.0, "p95_ms": 20.0},
        "graphiti search()": {"p50_ms": 30.0, "p95_ms": 40.0},
    }
    table = latency_table({10000: row, 270: row}, ["hippograph", "graphiti search()"])
    lines = table.splitlines()
    assert "hippo/graphiti search() p95" in lines[0]
    assert lines[2] == "| 270 | 10.0 / 20.0 | 30.0 / 40.0 | 0.50 |"
    assert lines[3].startswith("| 10,000 |")


class CountingEmbedder:
    name, dimensions = "count", 2

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return [[float(len(t)), 1.0] for t in texts]


async def test_vector_table_embeds_once_and_copies_get_near_distinct_vectors() -> None:
    inner = CountingEmbedder()
    table = VectorTable(inner)
    await table.embed(["tea", "tea", "coffee"])
    one, two = copy_text("tea", 1), copy_text("tea", 2)
    table.alias(one, "tea")
    table.alias(two, "tea")
    got = await table.embed([one, "coffee", two])
    assert inner.seen == ["tea", "coffee"]  # copies are never embedded
    assert got[1] == [6.0, 1.0]
    original = [3.0 / math.hypot(3.0, 1.0), 1.0 / math.hypot(3.0, 1.0)]
    assert got[0] != got[2]  # identical vectors would split the HNSW graph into islands
    for vec in (got[0], got[2]):
        assert math.isclose(math.hypot(*vec), 1.0, rel_tol=1e-5)
        cos = sum(a * b for a, b in zip(vec, original, strict=True))
        assert 0.8 < cos < 0.999
    assert await table.embed([one]) == [got[0]]  # deterministic


def test_copy_vector_stays_close_in_many_dimensions() -> None:
    base = [1.0] + [0.0] * 383
    cos = [copy_vector(base, copy_text("x", n))[0] for n in range(1, 20)]
    assert all(0.94 < c < 0.97 for c in cos), cos  # 1 / sqrt(1 + 0.3²) ≈ 0.958
    assert len(set(cos)) == len(cos)


SAMPLE = {
    "sample_id": "conv 1",
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice!"},
        ],
    },
    "observation": {
        "session_1_observation": {
            "Ann": [["Ann adopted a cat.", "D1:1"]],
            "Bob": [["Bob likes cats.", "D1:2"]],
        }
    },
    "qa": [
        {"question": "What did Ann adopt?", "evidence": ["D1:1"], "category": 1},
        {"question": "Adversarial?", "evidence": ["D1:2"], "category": 5},
        {"question": "Who likes cats?", "evidence": ["D1:2"], "category": 4},
    ],
}


def test_build_corpora_separates_facts_only_from_facts_and_turns() -> None:
    (corpus,) = build_corpora([SAMPLE], "r1", max_questions=1)
    assert corpus.facts.events == [] and len(corpus.turns.events) == 2
    assert all(f.event_ids == [] for f in corpus.facts.facts)
    assert any(f.event_ids for f in corpus.turns.facts)
    assert corpus.facts.agent_id != corpus.turns.agent_id
    assert {f.id for f in corpus.facts.facts}.isdisjoint(f.id for f in corpus.turns.facts)
    assert [q["question"] for q in corpus.facts.questions] == ["What did Ann adopt?"]
    assert corpus.all_questions == ["What did Ann adopt?", "Who likes cats?"]
    assert corpus.group == "locomo_conv_1_r1"  # Graphiti accepts [A-Za-z0-9_-] only


def test_parse_args_sizes_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse_args(["data.json", "--sizes", "10000,100000", "--skip-graphiti"])
    assert args.sizes == [10000, 100000] and args.skip_graphiti
    assert parse_args(["data.json", "--sizes", ""]).sizes == []
    with pytest.raises(SystemExit) as exc:
        parse_args(["--help"])
    assert exc.value.code == 0
    assert "--conversations" in capsys.readouterr().out


def test_repeated_latency_takes_medians_and_shows_the_p95_spread() -> None:
    reps = []
    for base in (10.0, 30.0, 20.0):
        stats = RankerStats()
        for ms in (base, base, base * 2):
            stats.add_latency(ms)
        reps.append({"hippograph": stats})
    figures = repeated_figures(reps)["hippograph"]
    assert figures["p50_ms"] == 20.0 and (figures["p50_min"], figures["p50_max"]) == (10.0, 30.0)
    # p95 of (b, b, 2b) interpolates to 1.9 b
    assert (figures["p95_min"], figures["p95_ms"], figures["p95_max"]) == (19.0, 38.0, 57.0)
    table = latency_table({100: repeated_figures(reps)}, ["hippograph"])
    assert table.splitlines()[2] == "| 100 | 20.0 / 38.0 (p95 19–57) |"
