"""The bilingual benchmark's scripted extraction: an abstract's sentences as facts (grouped to
the write's cap), glossed for a Portuguese abstract by the English sentences at the same place."""

from __future__ import annotations

from itertools import pairwise

from tests.bench.bilingual_llm import aligned_glosses, answer, fact_groups, recorded, sentences

PT = "O navio coletou amostras. Os sedimentos eram finos! Em 2019 (junho) voltou ao porto."
EN = "The ship collected samples. The sediments were fine! In 2019 (June) it came back."


def test_sentences_and_groups() -> None:
    assert sentences(PT) == [
        "O navio coletou amostras.",
        "Os sedimentos eram finos!",
        "Em 2019 (junho) voltou ao porto.",
    ]
    assert sentences("Área de 3.5 km. 2 navios. (Nota) fim.") == [
        "Área de 3.5 km.",
        "2 navios.",
        "(Nota) fim.",
    ]
    assert fact_groups(3, 20) == [(0, 1), (1, 2), (2, 3)]
    spans = fact_groups(24, 20)
    assert len(spans) == 20 and {b - a for a, b in spans} == {1, 2} and spans[-1][1] == 24
    assert spans[0][0] == 0 and all(a[1] == b[0] for a, b in pairwise(spans))
    assert fact_groups(0, 20) == []


def test_glosses_align_by_position() -> None:
    english = sentences(EN)
    assert aligned_glosses([(0, 1), (1, 2), (2, 3)], 3, english) == english
    # two English sentences for four Portuguese ones: each span gets at least one
    assert aligned_glosses([(0, 1), (1, 2), (2, 3), (3, 4)], 4, ["A.", "B."]) == [
        "A.",
        "A.",
        "B.",
        "B.",
    ]
    assert aligned_glosses([(0, 2)], 2, ["A.", "B.", "C."]) == ["A. B. C."]
    assert aligned_glosses([(0, 1)], 1, []) == [None]


def test_an_answer_of_the_informed_extraction() -> None:
    got = answer(7, PT, EN)
    assert got["entities"] == [{"name": "Abstract 7", "type": "document", "aliases": []}]
    assert [f["text"] for f in got["facts"]] == sentences(PT)
    assert [f["gloss_en"] for f in got["facts"]] == sentences(EN)
    assert {f["subject"] for f in got["facts"]} == {"Abstract 7"}
    assert {f["action"] for f in got["facts"]} == {"ADD"}
    assert [f["gloss_en"] for f in answer(7, EN, None)["facts"]] == [None, None, None]


def test_only_portuguese_abstracts_are_glossed() -> None:
    english = {"a": EN, "b": "Other abstract. In English."}
    portuguese = {"a": PT, "b": "Outro resumo. Em português."}
    mixed = [{"title": "a", "text": PT}, {"title": "b", "text": english["b"]}]
    got = recorded(mixed, english, portuguese)
    assert [f["gloss_en"] for f in got[PT]["facts"]] == sentences(EN)
    assert [f["gloss_en"] for f in got[english["b"]]["facts"]] == [None, None]
    bare = recorded(mixed, english, portuguese, glosses=False)
    assert [f["gloss_en"] for f in bare[PT]["facts"]] == [None, None, None]
    assert [f["text"] for f in bare[PT]["facts"]] == [f["text"] for f in got[PT]["facts"]]
