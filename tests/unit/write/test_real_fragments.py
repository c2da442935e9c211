"""Property tests over text built from fragments of real text (numbers with symbols, flattened
tables, lists, quotes, mixed scripts, first- and third-person mixes): the offline extractor
never raises and names only resolvable entities; the planner never raises and writes only the
entities it was given."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.memory.text import fold
from graph.memory.write.commit.plan import build_plan
from graph.memory.write.extract.extraction import ExtractedFact
from graph.memory.write.extract.offline import extract_with, load_nlp
from graph.memory.write.reconcile.decisions import FactDecision
from graph.memory.write.reconcile.items import FactItem, RelationItem
from graph.memory.write.resolve.stage import EntityInfo
from tests.bench.corpus_texts import BENCH, sample

FRAGMENTS = [
    "6998150000000000000 ♠ 1.5 × 10 --",
    "17.4 -- 23.2 GWh",
    "(63 TJ)",
    "≈ 4.184 MJ/kg",
    "| Year | Team | Goals |",
    "| 1998 | Ajax | 12 |",
    "Population: 1,234,567 (2011 est.)",
    "• first item",
    "1. Introduction",
    "- bullet",
    '"I moved to Berlin," she said.',
    "'Quoted title'",
    "« guillemets »",
    "東京は日本の首都です。",
    "Москва — столица России.",
    "Eu moro em Curitiba.",
    "I live in Curitiba.",
    "My sister Ana works at Acme Corp.",
    "He was born in Paris on 3 May 1950.",
    "The Little Boy atomic bomb was dropped on Hiroshima.",
    "She is married to Thiago Nogueira.",
    "We went there.",
    "They said it was fine.",
    "Paris, the capital of France, is large.",
    "Jean's brother lives in Lyon.",
    "I no longer work at Acme.",
    "Dr. J. R. R. Tolkien (1892–1973) wrote it.",
    "",
    "   ",
    "???",
    "!!!",
    "C++ & C# → Rust",
    "e.g., i.e., etc.",
    "The film was directed by Ang Lee.",
    "Born: 12 March 1901, Vienna, Austria-Hungary",
    "Its population is 40,000.",
    "Emoji 🎉 party",
    "tab\tseparated\tvalues",
    "line\nbreak",
    "I",
    "me",
    "my",
    "Mr.",
]

texts = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map(" ".join)
speakers = st.sampled_from(["Rafael", "narrator", "Ana Lima", "X", "Dr. Who"])


@pytest.fixture(scope="module")
def nlp() -> Any:
    return load_nlp()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=texts, speaker=speakers)
def test_offline_extraction_names_only_resolvable_entities(
    nlp: Any, text: str, speaker: str
) -> None:
    check_extraction(nlp, text, speaker)


def check_extraction(nlp: Any, text: str, speaker: str) -> None:
    """No exception; every relation end, fact and causal index resolvable."""
    ex = extract_with(nlp, text, speaker)
    names = {fold(speaker)} | {fold(n) for e in ex.entities for n in (e.name, *e.aliases)}
    for rel in ex.relations:
        assert fold(rel.source) in names and fold(rel.target) in names, (rel, ex.entities)
    for fact in ex.facts:
        assert fact.text.strip()
    for cause, effect, _ in ex.causal:
        assert 0 <= cause < len(ex.facts) and 0 <= effect < len(ex.facts)


def _corpus_pieces() -> list[str]:
    """Sentences of the benchmark corpora (every 7th passage or turn), when they are present."""
    if not BENCH.is_dir():
        return []
    return [
        piece
        for item in sample(every=7)
        for piece in re.split(r"(?<=[.!?])\s+", item.text)
        if piece.strip()
    ]


PIECES = _corpus_pieces()


@st.composite
def corpus_texts(draw: Any) -> str:
    """Sentences of the real corpora, some cut at any character (half a table row, a number
    without its unit, an unclosed quote), joined with a space or a newline."""
    out = []
    for piece in draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=4)):
        start = draw(st.integers(0, len(piece)))
        end = draw(st.integers(start, len(piece)))
        out.append(draw(st.sampled_from([piece, piece[start:], piece[:end], piece[start:end]])))
    return draw(st.sampled_from([" ", "\n"])).join(out)


@pytest.mark.skipif(not PIECES, reason="no benchmark data beside the repository")
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=corpus_texts() if PIECES else st.just(""), speaker=speakers)
def test_offline_extraction_of_cut_corpus_sentences(nlp: Any, text: str, speaker: str) -> None:
    check_extraction(nlp, text, speaker)


def test_a_parenthesis_after_only_spaces(nlp: Any) -> None:
    """Found by the property test: "   (63 TJ)" raised IndexError in the alias pass."""
    extract_with(nlp, "   (63 TJ)", "narrator")
    extract_with(nlp, "Ana Lima said   (63 TJ) and left.", "narrator")


KEYS = ["person:a", "person:b", "place:c", "org:d", "thing:e"]
NOW = datetime(2025, 1, 1, tzinfo=UTC)


@st.composite
def plans(draw: Any) -> tuple[list[FactItem], list[RelationItem], dict[str, EntityInfo]]:
    given_keys = draw(st.sets(st.sampled_from(KEYS)))
    entities = {k: EntityInfo(k, k.split(":")[1], k.split(":")[0], False) for k in given_keys}
    items = []
    for i in range(draw(st.integers(0, 5))):
        action = draw(st.sampled_from(["ADD", "UPDATE", "NOOP", "DELETE"]))
        target = None if action == "ADD" else f"old{i}"
        item = FactItem(
            index=i,
            fact=ExtractedFact(f"fact {i}", "x", 0.9),
            subject_key=draw(st.sampled_from(KEYS)),
            text=f"fact {i}",
            normalized=f"fact {i}",
            content_hash=f"h{i}",
            mentioned=draw(st.lists(st.sampled_from(KEYS), max_size=3)),
        )
        item.decision = FactDecision(action, target, "r")
        items.append(item)
    relations = [
        RelationItem(
            draw(st.sampled_from(KEYS)),
            draw(st.sampled_from(KEYS)),
            "rel",
            0.8,
            draw(st.one_of(st.none(), st.integers(0, 5))),
        )
        for _ in range(draw(st.integers(0, 4)))
    ]
    return items, relations, entities


@settings(max_examples=200, deadline=None)
@given(plan=plans(), mode=st.sampled_from(["full", "controlled", "shadow"]))
def test_the_planner_writes_only_entities_it_was_given(
    plan: tuple[list[FactItem], list[RelationItem], dict[str, EntityInfo]], mode: str
) -> None:
    items, relations, entities = plan
    out = build_plan(
        items=items,
        relations=relations,
        entities=entities,
        close_relations=[],
        mode=mode,
        frozen=False,
        event_id="ev",
        speaker="a",
        now=NOW,
        occurred=NOW,
        causal=[(0, 1, 0.5)],
        relation_strength=0.8,
    )
    p = out.plan
    assert {a["key"] for a in p.about} <= set(entities)
    assert {k for r in p.relations for k in (r["source_key"], r["target_key"])} <= set(entities)
    assert {e["key"] for e in p.entities} <= set(entities)
    dropped_facts = sum(i.subject_key not in entities for i in items)
    assert len(out.warnings) >= dropped_facts
