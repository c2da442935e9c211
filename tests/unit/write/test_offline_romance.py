"""The offline path for Portuguese (and Spanish) messages: sentences cut by punctuation, each
sentence one fact, names by capitalisation, the common relations by rules, open relations
between names. The labelled sample below is written for these tests (not taken from any
benchmark); precision and recall of the common relations are measured on it."""

from __future__ import annotations

import pytest

from graph.memory.write.extract.offline import extract_with, load_nlp
from graph.memory.write.extract.offline.romance import (
    extract_romance,
    names_in,
    open_relations,
    split_sentences,
)

SPEAKER = "Guilherme Maturana"

# (message, the relations a careful reader would extract: residence, work, family, moves,
# likes, studies, birth)
LABELLED: list[tuple[str, set[tuple[str, str, str]]]] = [
    ("Eu moro em Curitiba.", {(SPEAKER, "lives_in", "Curitiba")}),
    ("Me mudei para São Paulo no fim de maio.", {(SPEAKER, "lives_in", "São Paulo")}),
    (
        "Eu me mudei para Lisboa em fevereiro por causa do escritório da Orion Tech.",
        {(SPEAKER, "lives_in", "Lisboa")},
    ),
    ("Trabalho na Vertix como engenheiro de backend.", {(SPEAKER, "works_at", "Vertix")}),
    ("Entrei na Orion Tech em setembro.", {(SPEAKER, "works_at", "Orion Tech")}),
    ("Saí da Vertix no ano passado.", {(SPEAKER, "former_employee_of", "Vertix")}),
    (
        "Minha irmã Helena trabalha na Universidade do Porto.",
        {(SPEAKER, "sibling_of", "Helena"), ("Helena", "works_at", "Universidade do Porto")},
    ),
    (
        "Meu pai Roberto mora em Maringá.",
        {(SPEAKER, "child_of", "Roberto"), ("Roberto", "lives_in", "Maringá")},
    ),
    (
        "Clara Rezende é casada com Thiago Nogueira.",
        {("Clara Rezende", "married_to", "Thiago Nogueira")},
    ),
    ("Sou casado com Marina.", {(SPEAKER, "married_to", "Marina")}),
    ("Nasci em Londrina.", {(SPEAKER, "born_in", "Londrina")}),
    (
        "Pedro nasceu em Recife e mora em Olinda.",
        {("Pedro", "born_in", "Recife"), ("Pedro", "lives_in", "Olinda")},
    ),
    (
        "Estudei na Universidade Federal do Paraná.",
        {(SPEAKER, "studies_at", "Universidade Federal do Paraná")},
    ),
    ("Ana estuda na Unicamp.", {("Ana", "studies_at", "Unicamp")}),
    ("Adoro Lisboa.", {(SPEAKER, "likes", "Lisboa")}),
    ("Rafael gosta muito do Flamengo.", {("Rafael", "likes", "Flamengo")}),
    ("Helena é irmã de Pedro Alves.", {("Helena", "sibling_of", "Pedro Alves")}),
    ("Não moro mais em Curitiba.", set()),  # a retraction: no relation
    ("Hoje está chovendo muito.", set()),
    ("Gosto de café coado.", set()),  # not a name: no relation
]


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return load_nlp()


def _rels(message: str) -> set[tuple[str, str, str]]:
    ex = extract_romance(message, SPEAKER)
    return {(r.source, r.type, r.target) for r in ex.relations if r.confidence >= 0.8}


def test_common_relations_precision_and_recall_on_the_labelled_sample() -> None:
    found = {m: _rels(m) for m, _ in LABELLED}
    tp = sum(len(found[m] & gold) for m, gold in LABELLED)
    extracted = sum(len(found[m]) for m, _ in LABELLED)
    gold_total = sum(len(gold) for _, gold in LABELLED)
    precision, recall = tp / max(1, extracted), tp / gold_total
    wrong = {m: found[m] - gold for m, gold in LABELLED if found[m] - gold}
    assert precision >= 0.95, wrong
    assert recall >= 0.9, {m: gold - found[m] for m, gold in LABELLED if gold - found[m]}


def test_a_clause_is_kept_whole() -> None:
    ex = extract_romance(
        "Eu me mudei para Lisboa em fevereiro por causa do escritório da Orion Tech.", SPEAKER
    )
    assert [f.text for f in ex.facts] == [
        "Guilherme Maturana se mudou para Lisboa em fevereiro por causa do escritório da Orion Tech."
    ]


def test_the_portuguese_message_skips_the_english_parser(nlp) -> None:  # type: ignore[no-untyped-def]
    message = "Eu me mudei para Lisboa em fevereiro por causa do escritório da Orion Tech."
    ex = extract_with(nlp, message, SPEAKER)
    assert ex.facts[0].text.endswith("do escritório da Orion Tech.")
    assert [(r.source, r.type, r.target) for r in ex.relations] == [(SPEAKER, "lives_in", "Lisboa")]


def test_sentences_keep_abbreviations_numbers_and_initials() -> None:
    text = (
        "O Dr. Silva mediu 45.000 b/d em 2003. A equipe de J. Souza et al. confirmou. "
        "Foi um ano bom! E agora?"
    )
    assert split_sentences(text) == [
        "O Dr. Silva mediu 45.000 b/d em 2003.",
        "A equipe de J. Souza et al. confirmou.",
        "Foi um ano bom!",
        "E agora?",
    ]


def test_names_drop_sentence_initial_words_and_keep_connectors() -> None:
    sentence = "A Petroleo Brasileiro SA (Petrobras) opera na Bacia de Campos."
    names = names_in(sentence)
    assert [(n.text, n.alias) for n in names] == [
        ("Petroleo Brasileiro SA", "Petrobras"),
        ("Bacia de Campos", None),
    ]
    assert [n.type for n in names] == ["organization", "place"]
    assert names_in("Este artigo descreve o programa.") == []


def test_open_relations_need_a_verb_between_two_names() -> None:
    sentence = "A Corrente do Brasil está localizada no Atlântico Sul."
    rels = open_relations(sentence, names_in(sentence))
    assert [(r.source, r.type, r.target) for r in rels] == [
        ("Corrente do Brasil", "localizada_em", "Atlântico Sul")
    ]
    listed = "Visitamos Santos e Campos."  # no verb between the two names
    assert open_relations(listed, names_in(listed)) == []


def test_sentences_without_a_name_stay_with_the_last_subject() -> None:
    ex = extract_romance(
        "A Petrobras opera a plataforma P-43. Este artigo descreve a primeira fase.", "Narrator"
    )
    assert [f.subject for f in ex.facts] == ["Petrobras", "Petrobras"]


@pytest.mark.parametrize(
    "message",
    [
        "Vivo en Madrid con mi hermana Lucía. Trabajo en Telefónica desde 2019.",
        "J'habite à Lyon avec ma sœur Camille. Je travaille chez Michelin.",
        "¿Dónde está la estación? No sé.",
        "Eu… não sei!!! (talvez) — 100% 😅",
    ],
)
def test_other_languages_do_not_break(nlp, message: str) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, message, SPEAKER)
    for fact in ex.facts:
        assert fact.text.strip() and fact.subject
    names = {SPEAKER, *(e.name for e in ex.entities)}
    assert all(r.source in names and r.target in names for r in ex.relations)


def test_spanish_first_person_sentences_are_the_speaker(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "Vivo en Madrid con mi hermana Lucía.", SPEAKER)
    assert [f.subject for f in ex.facts] == [SPEAKER]
    assert "Vivo" not in {e.name for e in ex.entities}
