"""The multi-hop benchmark's pure parts: file formats, the metric, ranked items → passages,
fusion, and personalized PageRank."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.bench.multihop_parts import (
    Graph,
    Passage,
    Question,
    load_corpus,
    load_openie,
    load_questions,
    passage_order,
    personalized_pagerank,
    ppr_reset,
    recall_at,
    rrf,
    select,
)
from tests.bench.multihop_ppr import build_index
from tests.bench.scripted_endpoint import ScriptedEndpoint


def test_recall_at_k_is_the_share_of_gold_passages_in_the_top_k() -> None:
    assert recall_at([3, 1, 7, 2], {1, 2}, 2) == 0.5
    assert recall_at([3, 1, 7, 2], {1, 2}, 5) == 1.0
    assert recall_at([3, 4], {1, 2}, 5) == 0.0
    assert recall_at([1, 1, 1], {1}, 1) == 1.0


def test_ranked_items_become_passages_at_their_first_rank() -> None:
    of = {"f1": [4], "e1": [2], "f2": [4, 9], "x": []}
    assert passage_order(["f1", "x", "unknown", "f2", "e1"], of) == [4, 9, 2]


def test_rrf_favours_items_high_in_both_lists() -> None:
    fused = rrf([1, 2, 3], [2, 5])
    assert fused[0] == 2 and set(fused) == {1, 2, 3, 5}


def test_both_corpus_formats_and_question_formats_load() -> None:
    musique = load_corpus([{"title": "A", "text": "a text"}, {"title": "B", "text": "b text"}])
    hotpot = load_corpus({"A": ["one. ", "two."], "B": ["three."]})
    assert musique[1] == Passage(1, "B", "b text")
    assert hotpot[0].text == "one. two."
    qs = load_questions(
        [
            {
                "question": "q1",
                "paragraphs": [
                    {"title": "B", "paragraph_text": "b text ", "is_supporting": True},
                    {"title": "A", "paragraph_text": "a text", "is_supporting": False},
                ],
            },
            {
                "question": "q2",
                "paragraphs": [
                    {"title": "Z", "paragraph_text": "not in corpus", "is_supporting": True}
                ],
            },
        ],
        musique,
    )
    assert qs == [Question("q1", frozenset({1}))]
    hq = load_questions([{"question": "h", "supporting_facts": [["A", 1], ["B", 0]]}], hotpot)
    assert hq[0].gold == frozenset({0, 1})


def test_openie_keeps_well_formed_triples_and_their_ends_as_entities() -> None:
    got = load_openie(
        {
            "docs": [
                {
                    "text": "t",
                    "extracted_entities": ["X", 3, " "],
                    "extracted_triples": [["X", "is in", "Y"], ["bad"], ["X", "", "Z"]],
                }
            ]
        }
    )
    names, triples = got["t"]
    assert names == ["X", "Y"]
    assert [(t.subject, t.predicate, t.object) for t in triples] == [("X", "is in", "Y")]


def test_a_bounded_corpus_keeps_the_questions_supporting_passages_first() -> None:
    corpus = [Passage(i, str(i), str(i)) for i in range(10)]
    questions = [Question("a", frozenset({8})), Question("b", frozenset({9, 3}))]
    passages, kept = select(corpus, questions, 1, 3)
    assert kept == questions[:1]
    assert [p.idx for p in passages] == [0, 1, 8]
    assert select(corpus, questions, None, None) == (corpus, questions)


def test_pagerank_is_a_distribution_that_favours_nodes_near_the_restart() -> None:
    # a chain 0 - 1 - 2 - 3 and an isolated node 4
    g = Graph(5)
    for a, b in ((0, 1), (1, 2), (2, 3)):
        g.add(a, b)
    score = personalized_pagerank(g, np.array([1.0, 0, 0, 0, 0]), damping=0.5)
    assert score.sum() == pytest.approx(1.0)
    assert score[0] > score[1] > score[2] > score[3] > 0
    assert score[4] == 0
    # an undamped walk on a symmetric graph: the stationary share follows the degree
    ring = Graph(3)
    for a, b in ((0, 1), (1, 2), (2, 0)):
        ring.add(a, b)
    flat = personalized_pagerank(ring, np.ones(3), damping=0.85)
    assert flat == pytest.approx(np.full(3, 1 / 3))
    assert not personalized_pagerank(g, np.zeros(5)).any()


def test_the_restart_adds_normalised_dense_scores_at_their_weight() -> None:
    reset = ppr_reset(4, {0: 0.5}, {2: 0.2, 3: 0.6}, passage_weight=0.1)
    assert reset.tolist() == pytest.approx([0.5, 0.0, 0.0, 0.1])


def test_ppr_reaches_the_second_hop_passage_through_a_shared_phrase() -> None:
    """Passage 10 names A and B; passage 11 names B and C. A query about A (the triple A-B)
    ranks 11 above 12 (unrelated) although its dense score is lower: the bridge is B."""
    phrases = np.eye(3, dtype=np.float32)  # A, B, C: unrelated names, no synonymy
    index = build_index(
        phrases,
        [[10], [10, 11], [11]],
        [(0, 1), (1, 2)],
        np.array([[1, 0], [0, 1]], dtype=np.float32),
        [10, 11, 12],
    )
    ranked = index.rank(np.array([1.0, 0.0]), {10: 0.9, 11: 0.1, 12: 0.3})
    assert ranked == [10, 11, 12]
    assert len(index.graph.src) == 2 + 4  # two relation edges, four context edges


def test_similar_phrase_names_get_a_synonymy_edge() -> None:
    phrases = np.array([[1.0, 0.0], [0.99, 0.05], [0.0, 1.0]], dtype=np.float32)
    index = build_index(phrases, [[], [], []], [], np.zeros((0, 2)), [])
    assert list(zip(index.graph.src, index.graph.dst, strict=True)) == [(0, 1)]


def test_the_endpoint_replays_a_recording_and_counts_messages_without_one() -> None:
    recorded = {
        "a passage": {
            "entities": [{"name": "X", "type": "thing", "aliases": []}],
            "facts": [],
            "relations": [],
        }
    }
    ep = ScriptedEndpoint(recorded=recorded)
    body = {
        "messages": [
            {"role": "system", "content": "Stage: extract_informed v2"},
            {
                "role": "user",
                "content": '{"message": "a passage", "speaker": "n", "recent_messages": []}',
            },
        ]
    }
    got = json.loads(ep.answer("t", body)["choices"][0]["message"]["content"])
    assert got["entities"][0]["name"] == "X" and got["emotion"]["label"] == "neutral"
    other = {
        **body,
        "messages": [
            body["messages"][0],
            {
                "role": "user",
                "content": json.dumps(
                    {"message": "unknown", "speaker": "n", "recent_messages": []}
                ),
            },
        ],
    }
    assert json.loads(ep.answer("t", other)["choices"][0]["message"]["content"])["facts"] == []
    assert ep.counts["t"].calls == 2 and ep.counts["t"].unmatched == 1
