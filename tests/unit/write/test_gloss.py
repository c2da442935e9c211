"""The English gloss of a fact not in English, as the output hardening takes it from the
informed extraction's ``gloss_en`` (and structured ``remember`` from ``gloss``): kept for a
fact in another language, dropped with a warning when it is not text, repeats the text, belongs
to an English fact or is not English itself, cut when too long; never an exception."""

from __future__ import annotations

from typing import Any

import pytest

from graph.memory.write.extract.extraction import GLOSS_MAX_CHARS, harden, harden_gloss

PT = "Rafael se mudou para Lisboa em fevereiro por causa do escritório da Orion Tech"
EN = "Rafael moved to Lisbon in February because of the Orion Tech office"


def answer(text: str, **extra: Any) -> dict[str, Any]:
    return {"facts": [{"subject": "Rafael", "text": text, **extra}], "entities": []}


def test_a_portuguese_fact_keeps_its_english_gloss() -> None:
    warnings: list[str] = []
    ex = harden(answer(PT, gloss_en=f"  {EN}\u0007 "), warnings=warnings)
    assert ex is not None
    assert ex.facts[0].gloss == EN  # cleaned like every text of the answer
    assert warnings == []


def test_no_gloss_is_no_gloss_and_no_warning() -> None:
    for extra in ({}, {"gloss_en": None}, {"gloss_en": ""}, {"gloss_en": "   "}):
        warnings: list[str] = []
        ex = harden(answer(PT, **extra), warnings=warnings)
        assert ex is not None and ex.facts[0].gloss is None, extra
        assert warnings == [], extra


@pytest.mark.parametrize(
    ("text", "gloss", "warning"),
    [
        (EN, "Rafael relocated to Lisbon in February", "gloss_en of a fact in English"),
        (PT, PT, "gloss_en repeats the fact's text"),
        (PT, PT.upper() + " ", "gloss_en repeats the fact's text"),
        (PT, "Rafael mudou-se para Lisboa em fevereiro", "gloss_en is not in English"),
        (PT, 42, "gloss_en of a fact is not text (int)"),
        (PT, {"en": EN}, "gloss_en of a fact is not text (dict)"),
        (PT, [EN], "gloss_en of a fact is not text (list)"),
    ],
)
def test_a_gloss_that_does_not_fit_is_dropped_with_a_warning(
    text: str, gloss: Any, warning: str
) -> None:
    warnings: list[str] = []
    ex = harden(answer(text, gloss_en=gloss), warnings=warnings)
    assert ex is not None
    assert [f.text for f in ex.facts] == [text]  # the fact itself is kept
    assert ex.facts[0].gloss is None
    assert len(warnings) == 1 and warnings[0].startswith(warning), warnings


def test_a_long_gloss_is_cut() -> None:
    warnings: list[str] = []
    long = " ".join([EN] * 40)
    assert len(long) > GLOSS_MAX_CHARS
    ex = harden(answer(PT, gloss_en=long), warnings=warnings)
    assert ex is not None and ex.facts[0].gloss is not None
    assert len(ex.facts[0].gloss) <= GLOSS_MAX_CHARS
    assert ex.facts[0].gloss == long[:GLOSS_MAX_CHARS].rstrip()
    assert warnings == [f"gloss_en truncated to {GLOSS_MAX_CHARS} chars"]


def test_a_fact_of_unclear_language_keeps_its_gloss() -> None:
    # no stop word votes for a language: the model's word that it is not English stands
    warnings: list[str] = []
    assert harden_gloss("Lisbon office", "Lisboa: escritório Orion", warnings) == "Lisbon office"
    assert warnings == []


def test_the_field_name_of_the_warnings() -> None:
    warnings: list[str] = []
    assert harden_gloss(EN, EN, warnings, name="gloss") is None
    assert warnings == ["gloss repeats the fact's text; dropped"]


def test_gloss_is_read_as_an_alias_and_bad_items_never_raise() -> None:
    ex = harden(answer(PT, gloss=EN))
    assert ex is not None and ex.facts[0].gloss == EN
    junk: list[Any] = [{"text": PT, "subject": "R", "gloss_en": object()}, None, 3, "x"]
    warnings: list[str] = []
    ex = harden({"facts": junk}, warnings=warnings)
    assert ex is not None and [f.gloss for f in ex.facts] == [None]
    assert any("not text (object)" in w for w in warnings)
