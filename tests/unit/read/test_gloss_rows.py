"""The semantic signal over facts with an English gloss (pure parts): for an English question a
glossed fact is scored by its gloss's cosine when that beats its text's with the cross-lingual
gap the blend adds, and then counts as English; a question in another language meets the text
alone; a glossed row replaces the fact's text row; the switch leaves gloss rows out; and where
the glosses' scan runs in ``read/signals``."""

from __future__ import annotations

from typing import Any

import pytest

from graph.memory.read.combined import SignalSizes, first_rounds, signal_params
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.search import (
    GLOSS_LANGUAGE,
    Asked,
    choose_vector,
    vector_rows,
    with_glosses,
)

PT = "O navio coletou amostras de sedimentos perto da costa"


def index(cosine: float) -> float:
    return (1.0 + cosine) / 2.0


def row(fid: str, text: float, gloss: float | None = None) -> dict[str, Any]:
    best = text if gloss is None else max(text, gloss)
    out: dict[str, Any] = {"fact": {"id": fid, "text": PT}, "score": index(best)}
    if gloss is not None:
        out.update(text_score=index(text), gloss_score=index(gloss))
    return out


def chosen(text: float, gloss: float | None, asked: Asked) -> tuple[float, str | None]:
    fact = ScoredFact(id="f", text=PT)
    choose_vector(fact, text, gloss, asked)
    return round(fact.scores.semantic, 6), fact.language


def test_the_gloss_serves_english_questions() -> None:
    english, portuguese, unclear = Asked("en", 0.04), Asked("pt", 0.04), Asked(None, 0.04)
    # an English question: the Portuguese text with the gap the blend adds, against the gloss
    assert chosen(0.80, 0.83, english) == (0.80, "pt")  # 0.84 against 0.83
    assert chosen(0.80, 0.85, english) == (0.85, GLOSS_LANGUAGE)
    # a question of no clear language, or no gap: the higher cosine
    assert chosen(0.80, 0.81, unclear) == (0.81, GLOSS_LANGUAGE)
    assert chosen(0.80, 0.81, Asked("en")) == (0.81, GLOSS_LANGUAGE)
    assert chosen(0.80, None, english) == (0.80, "pt")
    # a question in another language: the text alone
    assert chosen(0.80, 0.95, portuguese) == (0.80, "pt")
    assert chosen(0.80, 0.95, Asked("es", 0.04)) == (0.80, "pt")


def test_a_glossed_row_replaces_the_text_row() -> None:
    rows = [
        row("a", 0.60),  # text rows
        row("b", 0.50),
        row("b", 0.50, 0.70),  # b's gloss matched better than its text
        row("c", 0.40, 0.10),  # c is glossed, its text matched better
    ]
    facts = vector_rows(rows)
    assert [(f.id, round(f.scores.semantic, 6), f.language) for f in facts] == [
        ("b", 0.7, GLOSS_LANGUAGE),
        ("a", 0.6, None),
        ("c", 0.4, "pt"),
    ]
    assert all(f.sources == {"semantic"} for f in facts)
    # for a Portuguese question b is scored by its text, and its text row stands once
    asked_pt = vector_rows(rows, asked=Asked("pt", 0.04))
    assert [(f.id, round(f.scores.semantic, 6), f.language) for f in asked_pt] == [
        ("a", 0.6, None),
        ("b", 0.5, "pt"),
        ("c", 0.4, "pt"),
    ]


def test_the_switch_leaves_the_gloss_rows_out() -> None:
    rows = [row("a", 0.60), row("b", 0.50), row("b", 0.50, 0.70), row("c", 0.40, 0.10)]
    facts = vector_rows(rows, glosses=False)
    assert [(f.id, round(f.scores.semantic, 6), f.language) for f in facts] == [
        ("a", 0.6, None),
        ("b", 0.5, None),
    ]


def test_with_glosses_keeps_each_fact_once() -> None:
    def fact(fid: str, semantic: float) -> ScoredFact:
        f = ScoredFact(id=fid, text=fid)
        f.scores.semantic = semantic
        return f

    merged = with_glosses([fact("a", 0.3), fact("b", 0.6)], [fact("b", 0.5), fact("c", 0.3)])
    # b's glossed candidate weighed both vectors: it stands even below its text's raw cosine
    assert [(f.id, f.scores.semantic) for f in merged] == [("b", 0.5), ("a", 0.3), ("c", 0.3)]
    assert with_glosses([], []) == []


def sizes(facts: int, glosses: int, filtered: bool = False) -> SignalSizes:
    return SignalSizes(facts, 10**6, 0, 10**6, 0, filtered, filtered, glosses)


@pytest.mark.parametrize("filtered", [False, True])
def test_where_the_glosses_scan_runs(filtered: bool) -> None:
    late = RetrieveConfig.of(activation_early=False)  # the semantic part runs in read/signals
    early = RetrieveConfig()  # ... or on its own, glosses included (gather.SignalParts)
    off = RetrieveConfig.of(activation_early=False, enable_gloss=False)
    r = first_rounds(late, sizes(80, 20, filtered))
    assert (r.glosses, r.gloss_rerun) == (True, False)
    params = signal_params(
        late, r, lucene="", seeds=[], graph_limit=10, pattern_types=[], named=[], relation_terms=[]
    )
    assert params["glosses"] is True
    assert first_rounds(late, sizes(80, 0, filtered)).glosses is False
    assert first_rounds(off, sizes(80, 20, filtered)).glosses is False
    assert first_rounds(early, sizes(80, 20, filtered)).glosses is False
    # more glosses than an exact scan takes: the semantic part's re-run searches their index
    many = first_rounds(late, sizes(50_000, 5_000, filtered))
    assert (many.glosses, many.gloss_rerun) == (False, not filtered)
