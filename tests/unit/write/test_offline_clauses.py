"""Offline extractor: salience, one proposition per clause, pronoun rewriting; and the
LoCoMo quality metric the benchmark uses."""

from __future__ import annotations

import pytest

from graph.memory.write.extract.offline.extractor import (
    end_paragraphs,
    extract_with,
    load_nlp,
    other_speaker,
)
from tests.bench.locomo_quality import GoldObservation, StoredFact, score, shifted_turns, sweep


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return load_nlp()


def _facts(
    nlp,
    text: str,
    speaker: str = "Andrew",
    recent: list[str] | None = None,  # type: ignore[no-untyped-def]
) -> list[str]:
    return [f.text for f in extract_with(nlp, text, speaker, recent).facts]


@pytest.mark.parametrize(
    "text",
    [
        "Hey Audrey! Good to see you.",
        "I hear ya.",
        "Ttyl, Bye!",
        "I totally get it.",
        "I hope you find a great spot soon!",
        "I'll keep you posted.",
        "Thanks so much!",
        "That's so cool!",
        "Sounds great, can't wait!",
        "I'm so happy for you, Audrey.",
        "What did you do last weekend?",
        "Let's go hiking next week!",
        "I understand, Audrey.",
    ],
)
def test_small_talk_gives_no_fact(nlp, text: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(nlp, text, recent=["Audrey: I found a new place!"]) == []


def test_coordinated_predicates_become_separate_facts(nlp) -> None:  # type: ignore[no-untyped-def]
    ex = extract_with(nlp, "I live in Curitiba and work at Acme.", "Ana")
    assert [(f.subject, f.text) for f in ex.facts] == [
        ("Ana", "Ana lives in Curitiba."),
        ("Ana", "Ana works at Acme."),
    ]
    assert [(r.type, r.target) for r in ex.relations] == [
        ("lives_in", "Curitiba"),
        ("works_at", "Acme"),
    ]
    assert _facts(nlp, "Clara Rezende left Vertix and joined Orion Tech.") == [
        "Clara Rezende left Vertix.",
        "Clara Rezende joined Orion Tech.",
    ]


def test_portuguese_clauses_are_split(nlp) -> None:  # type: ignore[no-untyped-def]
    assert _facts(nlp, "Moro em Curitiba e trabalho na Acme.", "Ana") == [
        "Ana mora em Curitiba.",
        "Ana trabalha na Acme.",
    ]
    assert _facts(nlp, "Me mudei para São Paulo mês passado.", "Ana") == [
        "Ana se mudou para São Paulo mês passado."
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "I'm reminding myself that I'm part of something bigger.",
            "Andrew is reminding Andrew that Andrew is part of something bigger.",
        ),
        ("Im part of a book club.", "Andrew is part of a book club."),
        ("I’m in a book club.", "Andrew is in a book club."),
        ("I'll start a new job at Globex.", "Andrew will start a new job at Globex."),
        (
            "I've been into dancing since I was a kid.",
            "Andrew has been into dancing since Andrew was a kid.",
        ),
        ("I wanna start a dance studio.", "Andrew wants to start a dance studio."),
        (
            "Still working on opening a dance studio.",
            "Andrew is still working on opening a dance studio.",
        ),
        ("Wow, just got some new shoes!", "Andrew just got some new shoes."),
        (
            "I met your brother at the gym yesterday.",
            "Andrew met Audrey's brother at the gym yesterday.",
        ),
    ],
)
def test_person_rewriting(nlp, text: str, fact: str) -> None:  # type: ignore[no-untyped-def]
    assert _facts(nlp, text, recent=["Andrew: hello", "Audrey: hi"]) == [fact]


def test_other_speaker_from_recent_messages() -> None:
    assert other_speaker(["Ana: hi", "Bruno: hello", "Ana: how are you"], "Ana") == "Bruno"
    assert other_speaker(["Ana: hi"], "Ana") is None
    assert other_speaker(None, "Ana") is None
    assert other_speaker(["no speaker here"], "Ana") is None


def test_wishes_make_no_relation(nlp) -> None:  # type: ignore[no-untyped-def]
    assert extract_with(nlp, "I'd love to visit Paris.", "Ana").relations == []
    assert extract_with(nlp, "I want to move to Rome.", "Ana").relations == []
    assert [r.type for r in extract_with(nlp, "I visited Paris.", "Ana").relations] == ["visited"]


def test_quality_metric_matches_within_the_turn_only() -> None:
    gold = [
        GoldObservation("g1", {"c/D1:1"}, [1.0, 0.0]),
        GoldObservation("g2", {"c/D1:2"}, [0.0, 1.0]),
    ]
    facts = [
        StoredFact("f1", {"c/D1:1"}, [0.9, 0.1]),
        StoredFact("f2", {"c/D1:1"}, [0.0, 1.0]),
        StoredFact("f3", {"c/D1:3"}, [1.0, 0.0]),
    ]
    best_fact, best_gold = score(facts, gold)
    assert best_fact[0] > 0.99 and best_fact[1] == 0.0 and best_fact[2] == 0.0
    assert best_gold[0] > 0.99 and best_gold[1] == 0.0  # f2 is like g2 but from another turn
    [q] = sweep(
        facts,
        gold,
        shifted_turns(["c/D1:1", "c/D1:2", "c/D1:3"], {"c/D1:1", "c/D1:2"}, shift=1),
        (0.6,),
    )
    assert (q.precision, q.recall) == (pytest.approx(1 / 3), 0.5)
    # control: D1:1 → D1:2's gold (f2 "matches" by chance, f1 no longer), D1:3 → D1:1's (f3)
    assert q.control_precision == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("text", "question", "fact"),
    [
        (
            "The Minnesota Wolves! I can't wait to play with them!",
            "Woohoo! Congrats on the new team. Which team did you sign with?",
            "Which team did John sign with? The Minnesota Wolves.",
        ),
        (
            "A sunset over the lake.",
            "Nice! What did you paint last week?",
            "What did John paint last week? A sunset over the lake.",
        ),
        (
            "Thanks, Tim! I was really excited.",
            "How did you feel when you found out?",
            "How did John feel when John found out? John was really excited.",
        ),
    ],
)
def test_a_short_answer_is_kept_with_the_question_it_answers(  # type: ignore[no-untyped-def]
    nlp, text: str, question: str, fact: str
) -> None:
    """A turn that states nothing on its own but answers the other speaker's question becomes
    one question-and-answer fact, in the third person."""
    assert _facts(nlp, text, "John", [f"Tim: {question}"]) == [fact]


@pytest.mark.parametrize(
    ("text", "recent"),
    [
        ("I'm good, thanks!", "Audrey: Hey! How are you doing?"),  # asks nothing
        ("Yeah, me too!", "Audrey: I love contemporary dance. What's your fave?"),  # no content
        ("That's great!", "Audrey: Want to see my new painting?"),  # a reaction
        ("The Minnesota Wolves!", "Audrey: I signed with the Minnesota Wolves!"),  # no question
        ("The Minnesota Wolves!", "Andrew: Which team did you sign with?"),  # own question
    ],
)
def test_no_answer_fact_without_a_question_and_an_answer(  # type: ignore[no-untyped-def]
    nlp, text: str, recent: str
) -> None:
    assert _facts(nlp, text, "Andrew", [recent]) == []


def test_a_statement_spliced_before_a_reaction_is_kept(nlp) -> None:  # type: ignore[no-untyped-def]
    """ "I was in Chicago, it was awesome!": the parser hangs the statement under the reaction;
    the reaction stays out, the statement is a fact. "heard" with a real object is news, not
    backchannel ("I hear ya" stays out)."""
    assert _facts(nlp, "I was in Chicago, it was awesome!", "John") == ["John was in Chicago."]
    assert _facts(
        nlp, "I heard some cool stories from an elderly veteran named Samuel.", "John"
    ) == ["John heard some cool stories from an elderly veteran named Samuel."]
    assert _facts(nlp, "I hear ya.", "John", ["Tim: It was a long day."]) == []


def test_which_questions_are_real_questions() -> None:
    from graph.memory.write.extract.offline.answers import last_question

    def asked(text: str) -> str | None:
        got = last_question([f"Tim: {text}"], "John")
        return got[1] if got else None

    assert asked("Cool! What's your fave? [shares a photo: a dog]") == "What's your fave?"
    assert asked("So, how've you been using it?") == "So, how've you been using it?"
    assert asked("It was a blast, you know?") is None  # a tag
    assert asked("Can't wait to see your art - got any previews?") is None
    assert asked("I'm fine. Which team did you sign with? Tell me!") == (
        "Which team did you sign with?"
    )


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # A title above a paragraph is not part of its first sentence.
        ("Profile\n\nAna Souza grew up in Faro.", ["Ana Souza grew up in Faro."]),
        (
            "# Notes\n\nAna Souza studied marine biology in Porto.",
            ["Ana Souza studied marine biology in Porto."],
        ),
        # A paragraph that ends without a full stop still ends its sentence; the next
        # paragraph's pronoun keeps its person.
        (
            "Ana lives in Lisbon\n\nShe works at a bakery.",
            ["Ana lives in Lisbon.", "Ana works at a bakery."],
        ),
        (
            "Ana lives in Lisbon.\nShe works at a bakery.",
            ["Ana lives in Lisbon.", "Ana works at a bakery."],
        ),
    ],
)
def test_headings_and_paragraph_ends_are_sentence_ends(  # type: ignore[no-untyped-def]
    nlp, text: str, facts: list[str]
) -> None:
    extraction = extract_with(nlp, text, "document", noun_phrases=True)
    assert [f.text for f in extraction.facts] == facts
    assert not {e.name for e in extraction.entities} & {"Profile", "Notes"}


def test_which_lines_end_a_paragraph() -> None:
    assert end_paragraphs("one line without a stop") == "one line without a stop"
    assert end_paragraphs("# Title\nText here.\n\nMore text") == "Title.\nText here.\n\nMore text."
    assert end_paragraphs("Done!\n\nAsked: \n\nyes") == "Done!\n\nAsked: \n\nyes."
    assert end_paragraphs("## Heading two.\nbody\ngoes on") == "Heading two.\nbody\ngoes on."
    said = 'Ana said "hi."\n\nShe left (for good.)'
    assert end_paragraphs(said) == said
    assert end_paragraphs('A "quoted"\n\nnext') == 'A "quoted".\n\nnext.'
