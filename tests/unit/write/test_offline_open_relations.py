"""Open relations read off the dependency parse by the offline extractor (``offline.relations``):
one small sentence per rule, the relations expected of it."""

from __future__ import annotations

import pytest

from graph.memory.write.extract.offline import extract_with, load_nlp


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return load_nlp()


def _rels(
    nlp,
    text: str,
    speaker: str = "Notes",
    noun_phrases: bool = False,  # type: ignore[no-untyped-def]
) -> set[tuple[str, str, str]]:
    ex = extract_with(nlp, text, speaker, noun_phrases=noun_phrases)
    names = {e.name for e in ex.entities} | {speaker}
    assert all(r.source in names and r.target in names for r in ex.relations)
    assert all(0.0 < r.confidence <= 1.0 for r in ex.relations)
    return {(r.source, r.type, r.target) for r in ex.relations}


def test_subject_verb_object_with_prepositions(nlp) -> None:  # type: ignore[no-untyped-def]
    assert _rels(nlp, "Mary Shelley wrote Frankenstein.") == {
        ("Mary Shelley", "wrote", "Frankenstein")
    }
    rels = _rels(nlp, "Jordan Henderson played for Sunderland before he moved to Liverpool.")
    assert {
        ("Jordan Henderson", "played_for", "Sunderland"),
        ("Jordan Henderson", "moved_to", "Liverpool"),
    } <= rels


def test_passive_with_an_agent_is_stated_actively(nlp) -> None:  # type: ignore[no-untyped-def]
    rels = _rels(nlp, "Perry Mason is a lawyer created by Erle Stanley Gardner.")
    assert ("Erle Stanley Gardner", "created", "Perry Mason") in rels
    rels = _rels(nlp, "Katherine Dhanani is a diplomat. She was nominated by Barack Obama.")
    assert ("Barack Obama", "nominated", "Katherine Dhanani") in rels  # "she": coreference


def test_appositive_and_possessive_nominal_relations(nlp) -> None:  # type: ignore[no-untyped-def]
    rels = _rels(nlp, "Paris, the capital of France, hosted the Olympics.")
    assert ("Paris", "capital_of", "France") in rels
    rels = _rels(nlp, "Microsoft's founder Bill Gates was born in Seattle.")
    assert {("Bill Gates", "founder_of", "Microsoft"), ("Bill Gates", "born_in", "Seattle")} <= rels


def test_places_named_by_apposition_contain(nlp) -> None:  # type: ignore[no-untyped-def]
    assert _rels(nlp, "The Mengkibol River flows through Kluang in Gary, Indiana.") == {
        ("Mengkibol River", "flowed_through", "Kluang"),
        ("Mengkibol River", "flowed_in", "Gary"),
        ("Mengkibol River", "flowed_in", "Indiana"),
    }
    assert _rels(nlp, "Jackson was born in Gary, Indiana.") == {
        ("Jackson", "born_in", "Gary"),
        ("Jackson", "born_in", "Indiana"),
    }


def test_dates_are_never_relation_ends(nlp) -> None:  # type: ignore[no-untyped-def]
    """A year or a day would become a hub joining everything that happened then."""
    assert _rels(nlp, "Tim Duncan was born on April 25, 1976 in Christiansted.") == {
        ("Tim Duncan", "born_in", "Christiansted")
    }
    assert _rels(nlp, "Ali Sen was born in Adana on 5 May 1918.") == {
        ("Ali Sen", "born_in", "Adana")
    }


def test_a_shorter_later_name_is_an_alias(nlp) -> None:  # type: ignore[no-untyped-def]
    text = "Perry Mason is a lawyer created by Erle Stanley Gardner. Mason works in Los Angeles."
    ex = extract_with(nlp, text, "Notes")
    assert [(e.name, e.aliases) for e in ex.entities if e.name == "Perry Mason"] == [
        ("Perry Mason", ["Mason"])
    ]
    assert ("Perry Mason", "worked_in", "Los Angeles") in _rels(nlp, text)


def test_common_noun_phrases_are_ends_only_for_documents(nlp) -> None:  # type: ignore[no-untyped-def]
    text = "Sammi Smith is an American country singer."
    assert _rels(nlp, text, noun_phrases=True) == {
        ("Sammi Smith", "is_a", "American country singer")
    }
    assert _rels(nlp, text) == set()
    assert _rels(nlp, "Melanie lives in Boston with her kids.", "Melanie", False) == {
        ("Melanie", "lives_in", "Boston")
    }


def test_negated_statements_give_nothing(nlp) -> None:  # type: ignore[no-untyped-def]
    assert _rels(nlp, "John Smith did not marry Anna Berg.") == set()
    assert _rels(nlp, "Anna Berg would move to Lisbon if she could.") == set()


def test_object_complements_and_part_nouns(nlp) -> None:  # type: ignore[no-untyped-def]
    assert ("Machu Picchu", "declared_as", "Peruvian Historic Sanctuary") in _rels(
        nlp, "Machu Picchu was declared a Peruvian Historic Sanctuary in 1981."
    )
    assert _rels(nlp, "South Korea occupies the southern portion of the Korean Peninsula.") == {
        ("South Korea", "occupied", "the Korean Peninsula")
    }


def test_the_speakers_name_spelled_in_full_is_the_speaker(nlp) -> None:  # type: ignore[no-untyped-def]
    """A document's title (its speaker) is what its text is about, even where the tagger
    splits the name into pieces."""
    title = "Terror of the Range"
    text = "Terror of the Range is a film serial directed by Stuart Paton."
    ex = extract_with(nlp, text, title)
    assert ("Stuart Paton", "directed", title) in {
        (r.source, r.type, r.target) for r in ex.relations
    }
    assert all(e.name not in ("Terror", "Range") for e in ex.entities)
