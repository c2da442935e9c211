"""Offline extraction, English answers: a turn that states nothing on its own but answers the
other speaker's question becomes one question-and-answer fact.

"The Minnesota Wolves!" after "Which team did you sign with?" says where John signed, but no
clause of it has a subject and a predicate, so the clause rules (``clauses``) keep no
fact and the answer's meaning lives only in the pair of turns. Here the last question the other
speaker put to the speaker ("you") is rewritten in the third person and followed by the first
informative sentence of the answer: "Which team did John sign with? The Minnesota Wolves." Only
for a turn that produced no fact otherwise; greetings, thanks, backchannel and reactions
("Yeah, me too!", "That's great!") are not answers worth keeping.
"""

from __future__ import annotations

import re
from typing import Any

from graph.memory.write.extract.offline.clauses import (
    SECOND_PERSON,
    Clause,
    generic_noun,
    is_deictic,
    is_reaction,
    subject_of,
)
from graph.memory.write.extract.offline.rewriting import rewrite

__all__ = ["answer_fact", "last_question"]

_ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|ya|u)\b", re.IGNORECASE)
# A real question opens with a question word or an inverted auxiliary; a tag ("…, you know?",
# "…, right?") or a statement with a question mark does not ask anything.
_ASKING = {
    "what",
    "which",
    "who",
    "whom",
    "whose",
    "when",
    "where",
    "why",
    "how",
    "any",
    "anything",
    "ever",
    "do",
    "does",
    "did",
    "are",
    "is",
    "was",
    "were",
    "have",
    "has",
    "had",
    "can",
    "could",
    "would",
    "will",
    "should",
}
_LEADS = {"so", "and", "but", "oh", "well", "also", "btw"}
# Question words in the second person → the answerer; first person → the asker. Verb
# agreement for the common inversions ("are you" → "is John", "do you" → "does John").
_INVERSIONS = (
    ("are you", "is {s}"),
    ("were you", "was {s}"),
    ("do you", "does {s}"),
    ("have you", "has {s}"),
    ("am i", "is {o}"),
)
_WORDS = {
    "you're": "{s} is",
    "you've": "{s} has",
    "you'll": "{s} will",
    "you'd": "{s} would",
    "you": "{s}",
    "ya": "{s}",
    "u": "{s}",
    "your": "{s}'s",
    "yours": "{s}'s",
    "yourself": "{s}",
    "i'm": "{o} is",
    "i've": "{o} has",
    "i'll": "{o} will",
    "i'd": "{o} would",
    "i": "{o}",
    "me": "{o}",
    "my": "{o}'s",
    "mine": "{o}'s",
    "myself": "{o}",
}
_WORD = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(w) for w in sorted([*(a for a, _ in _INVERSIONS), *_WORDS], key=len, reverse=True)
    )
    + r")\b",
    re.IGNORECASE,
)


def _unbracketed(text: str) -> str:
    """The text without bracketed stage directions ("[shares a photo: …]")."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "["
        if not depth:
            out.append(ch)
        depth -= ch == "]" and depth > 0
    return "".join(out)


def _questions(text: str) -> list[str]:
    """The sentences of ``text`` that end with a question mark."""
    out, start = [], 0
    for i, ch in enumerate(text):
        if ch in ".!?\n":
            if ch == "?" and text[start:i].strip():
                out.append(text[start : i + 1].strip())
            start = i + 1
    return out


def _asking(question: str) -> bool:
    """Does the question open (after "So,", "Nate,") with a question word or an inverted
    auxiliary?"""
    words = question.lower().split()
    while len(words) > 1 and (words[0] in _LEADS or words[0].endswith(",")):
        words = words[1:]
    first = words[0].strip(",").replace("\u2019", "'") if words else ""
    for clitic in ("'s", "'re", "'ve", "'d", "'ll"):  # "What's…", "How've…" (not "Can't…")
        first = first.removesuffix(clitic)
    return first in _ASKING


def last_question(recent: list[str] | None, speaker: str) -> tuple[str, str] | None:
    """(asker, question) when the last recent message ('Name: text') is another speaker's and
    its last question is put to the listener ("you")."""
    if not recent:
        return None
    name, sep, text = recent[-1].partition(":")
    name = name.strip()
    if not sep or not name or name == speaker or len(name) > 60:
        return None
    asked = [q for q in _questions(_unbracketed(text)) if _ADDRESSED.search(q) and _asking(q)]
    return (name, asked[-1]) if asked else None


def third_person_question(question: str, speaker: str, asker: str) -> str:
    """The question with "you" → the answerer and "I" → the asker ("Which team did you sign
    with?" → "Which team did John sign with?")."""

    def swap(m: re.Match[str]) -> str:
        low = m.group(0).lower()
        form = dict(_INVERSIONS).get(low) or _WORDS[low]
        out = form.format(s=speaker, o=asker)
        return out[0].upper() + out[1:] if m.start() == 0 else out

    text = _WORD.sub(swap, question)
    return text[0].upper() + text[1:]


def _informative(sent: Any, listener: set[int]) -> bool:
    """A statement (not a question, greeting, thanks or reaction) with some content: a noun,
    name or number, or a predicate adjective about someone other than "it/that"."""
    text = sent.text.strip()
    if not text or text.endswith("?") or text.startswith("["):
        return False
    root = sent.root
    if is_reaction(root) or sent[0].lower_ == "let":  # "Let's make sure…" proposes
        return False
    subj = subject_of(root)
    nouns = [
        t
        for t in sent
        if t.i not in listener
        and t.pos_ in ("NOUN", "PROPN", "NUM")
        and not generic_noun(t)
        and t.lower_ not in SECOND_PERSON
    ]
    if nouns:
        return True
    adjectives = [t for t in sent if t.pos_ == "ADJ" and t.dep_ in ("acomp", "attr")]
    return bool(adjectives) and subj is not None and not is_deictic(subj)


_SMALL_TALK_VERBS = {
    "be",
    "do",
    "have",
    "go",
    "get",
    "happen",
    "say",
    "think",
    "mean",
    "up",
    "believe",
    "know",
    "guess",
    "imagine",
}


def _asks_something(question: Any) -> bool:
    """Does the (parsed) question ask about something — a noun, name, number or a content
    verb — rather than how the listener is ("How are you doing?", "What's up?")?"""
    return any(
        (
            t.pos_ in ("NOUN", "PROPN", "NUM")
            and not generic_noun(t)
            and t.lower_ not in SECOND_PERSON
        )
        or (t.pos_ == "VERB" and t.lemma_.lower() not in _SMALL_TALK_VERBS)
        for t in question
    )


def answer_fact(
    doc: Any, recent: list[str] | None, speaker: str, listener: set[int], parse: Any
) -> str | None:
    """The question-and-answer fact of a turn that answers the other speaker's question, or
    None (see module docstring). ``listener`` are token ids naming the asker (vocatives);
    ``parse`` is the spaCy pipeline (the question is parsed too)."""
    asked = last_question(recent, speaker)
    if asked is None:
        return None
    asker, question = asked
    if not _asks_something(parse(question)):
        return None
    for sent in doc.sents:
        if not _informative(sent, listener):
            continue
        clause = Clause(sent.root, [t for t in sent if t.i not in listener], subject_of(sent.root))
        answer = rewrite(clause, speaker, asker, None)
        if len(answer) < 4:
            continue
        return f"{third_person_question(question, speaker, asker)} {answer}"
    return None
