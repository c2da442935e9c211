"""The offline (spaCy + rules) extractor: deterministic, subject-centric, relation patterns."""

from __future__ import annotations

import pytest

from graph.memory.write.extract.offline import extract_with, load_nlp


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return load_nlp()


def _rels(ex):  # type: ignore[no-untyped-def]
    return [(r.source, r.type, r.target) for r in ex.relations]


def test_first_person_becomes_speaker(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "I live in Curitiba.", "Rafael")
    assert [(f.subject, f.text) for f in ex.facts] == [("Rafael", "Rafael lives in Curitiba.")]
    assert _rels(ex) == [("Rafael", "lives_in", "Curitiba")]
    assert [(e.name, e.type) for e in ex.entities] == [("Curitiba", "place")]


def test_moves_marriage_work_and_pronouns(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(
        nlp,
        "I moved to São Paulo. Clara Rezende works at Orion Tech. "
        "She is married to Thiago Nogueira.",
        "Rafael",
    )
    assert ("Rafael", "lives_in", "São Paulo") in _rels(ex)
    assert ("Clara Rezende", "works_at", "Orion Tech") in _rels(ex)
    assert ("Clara Rezende", "married_to", "Thiago Nogueira") in _rels(ex)
    types = {e.name: e.type for e in ex.entities}
    assert types["São Paulo"] == "place" and types["Orion Tech"] == "organization"
    assert "Clara Rezende is married to Thiago Nogueira." in [f.text for f in ex.facts]


def test_negation_is_a_retraction_without_relation(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "I no longer work at Acme.", "Rafael")
    assert _rels(ex) == []
    assert ex.facts[0].retraction and ex.facts[0].text == "Rafael no longer works at Acme."


def test_apposition_alias_and_possessive_relation(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "My friend Guili (Guilherme Maturana) lives in Porto Alegre.", "Rafael")
    assert [(e.name, e.aliases) for e in ex.entities if e.type == "person"] == [
        ("Guilherme Maturana", ["Guili"])
    ]
    assert ("Rafael", "friend_of", "Guilherme Maturana") in _rels(ex)


def test_portuguese_rules(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "Eu moro em Curitiba.", "Rafael")
    assert _rels(ex) == [("Rafael", "lives_in", "Curitiba")]
    assert ex.facts[0].text == "Rafael mora em Curitiba."
    ex = extract_with(nlp, "Eu não trabalho mais na Acme.", "Rafael")
    assert _rels(ex) == [] and ex.facts[0].retraction


def test_deterministic_and_quiet_on_small_talk(nlp) -> None:  # type: ignore[no-untyped-def]
    msg = "Clara Rezende left Vertix and joined Orion Tech as head of engineering."
    a, b = extract_with(nlp, msg, "Rafael"), extract_with(nlp, msg, "Rafael")
    assert a == b
    assert extract_with(nlp, "Hello there!", "Rafael").facts == []


def test_relationship_nouns_and_dates(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "Sarah is my wife.", "Rafael")
    assert _rels(ex) == [("Rafael", "spouse_of", "Sarah")]
    ex = extract_with(nlp, "Ana Souza, my boss, is married to Pedro.", "Rafael")
    assert ("Rafael", "reports_to", "Ana Souza") in _rels(ex)
    assert ("Ana Souza", "married_to", "Pedro") in _rels(ex)
    ex = extract_with(nlp, "My sister Julia was born in Recife in 1990.", "Rafael")
    assert ("Julia", "born_in", "Recife") in _rels(ex)
    assert all(r[2] != "1990" for r in _rels(ex))


def test_portuguese_clauses_and_sentence_initial_verbs(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "Pedro mora em Porto Alegre e trabalha na Petrobras.", "Rafael")
    assert _rels(ex) == [("Pedro", "lives_in", "Porto Alegre"), ("Pedro", "works_at", "Petrobras")]
    ex = extract_with(nlp, "Sou casado com a Ana.", "Rafael")
    assert _rels(ex) == [("Rafael", "married_to", "Ana")]
    assert ex.facts[0].text == "Rafael é casado com a Ana."


def test_dash_and_semicolon_joined_clauses_keep_the_informative_one(nlp) -> None:  # type: ignore[no-untyped-def]
    """Chat joins clauses with " - " / "—" / ";": the reaction after it ("it's rewarding")
    must not take the informative clause before it down with it."""
    recent = ["Melanie: How have you been?"]
    ex = extract_with(
        nlp,
        "Hey Melanie! Last weekend I joined a mentorship program for LGBTQ "
        "youth - it's really rewarding to help the community.",
        "Caroline",
        recent,
    )
    assert [f.text for f in ex.facts] == [
        "Last weekend Caroline joined a mentorship program for LGBTQ youth."
    ]
    ex = extract_with(
        nlp, "Yesterday I took the kids to the museum — it was so cool!", "Melanie", recent
    )
    assert [f.text for f in ex.facts] == ["Yesterday Melanie took the kids to the museum."]
    ex = extract_with(
        nlp, "I'm lucky to have my husband and kids; they keep me motivated.", "Melanie", recent
    )
    assert [f.text for f in ex.facts][:1] == [
        "Melanie is lucky to have Melanie's husband and kids."
    ]
    # Hyphenated words and ranges are not clause joins.
    ex = extract_with(nlp, "I run a well-known 2-3 person bakery.", "Ana")
    assert [f.text for f in ex.facts] == ["Ana runs a well-known 2-3 person bakery."]


@pytest.mark.parametrize(
    "message",
    [
        "Hi! I'm Guilherme Maturana and I live in Curitiba.",
        "I am Guilherme Maturana.",
        "My name is Guilherme Maturana.",
    ],
)
def test_a_self_introduction_is_not_a_fact(nlp, message: str) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, message, "Guilherme Maturana")
    texts = [f.text for f in ex.facts]
    assert not [t for t in texts if t.count("Guilherme Maturana") > 1], texts
    if "Curitiba" in message:
        assert texts == ["Guilherme Maturana lives in Curitiba."]


def test_a_name_equal_to_another_is_still_a_fact(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "Clara Rezende is the sister of Thiago Nogueira.", "Rafael")
    assert [f.text for f in ex.facts] == ["Clara Rezende is the sister of Thiago Nogueira."]
