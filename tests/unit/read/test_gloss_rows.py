"""The semantic signal over facts with an English gloss (pure parts): each fact once at the
better of its text's and its gloss's cosine, counted as English when the gloss's vector won,
gloss rows left out by the switch; and where the glosses' scan runs in ``read/signals``."""

from __future__ import annotations

from typing import Any

from graph.memory.read.combined import SignalSizes, first_rounds, signal_params
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.search import GLOSS_LANGUAGE, best_per_fact, vector_rows


def row(fid: str, cosine: float, gloss: bool | None) -> dict[str, Any]:
    return {"fact": {"id": fid, "text": fid}, "score": (1.0 + cosine) / 2.0, "gloss": gloss}


def test_each_fact_once_at_its_better_vector() -> None:
    rows = [
        row("a", 0.60, None),  # text rows
        row("b", 0.50, None),
        row("b", 0.70, True),  # b's gloss matched better than its text
        row("c", 0.40, False),  # c is glossed, its text matched better
    ]
    facts = vector_rows(rows)
    assert [(f.id, round(f.scores.semantic, 6)) for f in facts] == [
        ("b", 0.7),
        ("a", 0.6),
        ("c", 0.4),
    ]
    assert [f.language for f in facts] == [GLOSS_LANGUAGE, None, None]
    assert all(f.sources == {"semantic"} for f in facts)


def test_the_switch_leaves_the_gloss_rows_out() -> None:
    rows = [row("a", 0.60, None), row("b", 0.50, None), row("b", 0.70, True), row("c", 0.4, False)]
    facts = vector_rows(rows, glosses=False)
    assert [(f.id, round(f.scores.semantic, 6), f.language) for f in facts] == [
        ("a", 0.6, None),
        ("b", 0.5, None),
    ]


def test_best_per_fact_merges_lists_in_order() -> None:
    def fact(fid: str, semantic: float) -> ScoredFact:
        f = ScoredFact(id=fid, text=fid)
        f.scores.semantic = semantic
        return f

    merged = best_per_fact([fact("a", 0.3), fact("b", 0.2)], [fact("b", 0.5), fact("c", 0.3)])
    assert [(f.id, f.scores.semantic) for f in merged] == [("b", 0.5), ("a", 0.3), ("c", 0.3)]
    assert best_per_fact() == []


def sizes(facts: int, glosses: int, filtered: bool = False) -> SignalSizes:
    return SignalSizes(facts, 10**6, 0, 10**6, 0, filtered, filtered, glosses)


def test_where_the_glosses_scan_runs() -> None:
    late = RetrieveConfig.of(activation_early=False)  # the semantic part runs in read/signals
    early = RetrieveConfig()  # ... or on its own, glosses included (gather.SignalParts)
    off = RetrieveConfig.of(activation_early=False, enable_gloss=False)
    r = first_rounds(late, sizes(500, 20))
    assert (r.glosses, r.gloss_rerun) == (True, False)
    params = signal_params(
        late, r, lucene="", seeds=[], graph_limit=10, pattern_types=[], named=[], relation_terms=[]
    )
    assert params["glosses"] is True
    assert (
        first_rounds(late, sizes(500, 0)).glosses,
        first_rounds(off, sizes(500, 20)).glosses,
    ) == (
        False,
        False,
    )
    assert first_rounds(early, sizes(500, 20)).glosses is False
    # more glosses than an exact scan takes: the semantic part's re-run searches their index
    many = first_rounds(late, sizes(50_000, 5_000))
    assert (many.glosses, many.gloss_rerun) == (False, True)
