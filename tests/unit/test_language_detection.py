"""The stop-word vote that tags a message's language: Portuguese, Spanish and French share
many short words ("de", "la", "en", "a"), and each must still come out as itself. The
sentences are written for this test."""

from __future__ import annotations

import pytest

from graph.memory.text import detect_language

SENTENCES = [
    ("en", "I live in Lisbon with my sister."),
    ("en", "The water temperature rose during the summer."),
    ("pt", "Eu moro em Lisboa com a minha irmã."),
    ("pt", "A temperatura da água do mar aumentou no verão."),
    ("pt", "Guilherme se mudou para Lisboa em fevereiro."),
    ("es", "Vivo en Madrid con mi hermana Lucía."),
    ("es", "Trabajo en Telefónica desde 2019."),
    ("es", "La temperatura del agua subió en el verano."),
    ("fr", "J'habite à Lyon depuis trois ans."),
    ("fr", "Le week-end, je fais de la randonnée dans les Alpes."),
    ("fr", "La température de l'eau a monté pendant l'été."),
]


@pytest.mark.parametrize(("language", "sentence"), SENTENCES)
def test_each_language_is_told_apart(language: str, sentence: str) -> None:
    assert detect_language(sentence) == language


@pytest.mark.parametrize("text", ["", "Clara Rezende", "2019", "😅 !!!"])
def test_nothing_stands_out_in_names_numbers_and_symbols(text: str) -> None:
    assert detect_language(text) is None


QUESTIONS = [
    ("en", "Where does Guilherme live?"),
    ("en", "Who is Helena?"),
    ("en", "When did Caroline go hiking?"),
    ("pt", "Onde o Guilherme mora?"),
    ("pt", "Quem é Helena?"),
    ("es", "¿Dónde vive Lucía?"),
    ("fr", "Quand Claire part-elle?"),
]


@pytest.mark.parametrize(("language", "question"), QUESTIONS)
def test_a_short_question_is_told_by_its_question_word(language: str, question: str) -> None:
    assert detect_language(question) == language
