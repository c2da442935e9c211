"""Offline extraction, English clauses (pure functions over a spaCy parse).

- splitting: a sentence's root and the predicates coordinated with it ("I live in Curitiba and
  work at Acme") are separate clauses; a coordinated predicate without its own subject shares
  the first one's;
- salience: a clause is a fact only when it states something about someone — not a question,
  greeting, thanks, backchannel ("hears ya", "totally gets it"), a wish or reaction addressed to
  the listener ("hope you find…", "so happy for you"), nor a comment on what was just said
  ("That's cool!", "Sounds great"): those stay as events only.

Rewriting a clause as a self-contained sentence: ``rewriting``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "DROP_DEPS",
    "FIRST_PERSON",
    "LEAD_WORDS",
    "SECOND_PERSON",
    "SPOKEN_STARTS",
    "SUBJECT_PRONOUNS",
    "Clause",
    "clauses",
    "generic_noun",
    "is_deictic",
    "is_reaction",
    "subject_of",
]

FIRST_PERSON = {
    "i": "{s}",
    "me": "{s}",
    "myself": "{s}",
    "my": "{s}'s",
    "mine": "{s}'s",
    "we": "{s}",
    "us": "{s}",
    "our": "{s}'s",
    "ours": "{s}'s",
    "ourselves": "{s}",
}
SECOND_PERSON = {
    "you": "{o}",
    "ya": "{o}",
    "u": "{o}",
    "yourself": "{o}",
    "your": "{o}'s",
    "ur": "{o}'s",
    "yours": "{o}'s",
    "yourselves": "{o}",
}
SUBJECT_PRONOUNS = {"i", "we"}
# Subjects that point back at the conversation ("That's cool", "It sounds great", "What a day").
_DEICTIC_SUBJECTS = {
    "it",
    "that",
    "this",
    "there",
    "what",
    "which",
    "who",
    "everything",
    "they",
    "these",
    "those",
    "one",
    "someone",
    "everyone",
    "nothing",
    "something",
    "anything",
    "thing",
    "things",
}
# Predicates that react to the listener or the conversation rather than state something.
_REACTION_LEMMAS = {
    "thank",
    "sound",
    "seem",
    "hope",
    "wish",
    "bet",
    "agree",
    "appreciate",
    "congratulate",
    "apologize",
    "wait",
    "welcome",
    "mean",
    "guess",
    "suppose",
    "bye",
    "ttyl",
    "cheer",
    "rock",
    "glad",
    "sorry",
    "understand",
    "relate",
}
# Nouns too generic to carry a proposition on their own.
_GENERIC_NOUNS = {
    "thing",
    "things",
    "stuff",
    "lot",
    "lots",
    "bit",
    "way",
    "kind",
    "sort",
    "one",
    "ones",
    "time",
    "day",
    "idea",
    "news",
    "chat",
    "talk",
    "luck",
    "fun",
    "pic",
    "pics",
    "photo",
    "picture",
    "question",
    "problem",
    "deal",
    "moment",
    "sense",
    "point",
    "feeling",
    "glad",
    "thanks",
    "hey",
    "hi",
    "wow",
    "bye",
    "yeah",
    "haha",
    "lol",
    "omg",
    "congrats",
    "cheers",
    "ttyl",
}
DROP_DEPS = {"intj", "cc", "punct", "preconj", "discourse"}
LEAD_WORDS = {
    "so",
    "but",
    "and",
    "also",
    "anyway",
    "well",
    "oh",
    "yeah",
    "yes",
    "no",
    "ok",
    "okay",
    "plus",
    "then",
    "hey",
    "wow",
    "honestly",
    "actually",
    "btw",
}


@dataclass
class Clause:
    """One proposition: its head, its tokens (in order) and its subject token (None when the
    speaker is implied, as in "Lost my job yesterday")."""

    head: Any
    tokens: list[Any]
    subject: Any | None
    implied: bool = False


def _subject(verb: Any) -> Any | None:
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass", "csubj", "expl"):
            return child
    return None


def subject_of(verb: Any) -> Any | None:
    """The verb's own subject token, if any."""
    return _subject(verb)


def is_deictic(token: Any) -> bool:
    """A subject pointing back at the conversation ("it", "that", "this", "something")."""
    return bool(token.lower_ in _DEICTIC_SUBJECTS)


def is_reaction(head: Any) -> bool:
    """A predicate reacting to the listener or the conversation ("thanks", "sounds great")."""
    return bool(head.lemma_.lower() in _REACTION_LEMMAS or head.lower_ in _REACTION_LEMMAS)


def generic_noun(token: Any) -> bool:
    """A noun too generic to carry a proposition ("thing", "time", "pic", "thanks")."""
    return bool(token.lower_ in _GENERIC_NOUNS)


def _heads(root: Any) -> list[Any]:
    """The root and the predicates coordinated with it (recursively), plus a clause with its own
    subject spliced on before the root with a comma ("I was in Chicago, it was awesome!": the
    parser hangs the statement under the reaction)."""
    out = [root]
    for child in root.children:
        if child.dep_ == "conj" and child.pos_ in ("VERB", "AUX"):
            out += _heads(child)
        elif (
            child.dep_ in ("ccomp", "parataxis")
            and child.i < root.i
            and child.pos_ in ("VERB", "AUX")
            and _subject(child) is not None
            and any(
                t.dep_ == "punct" and t.text == "," and child.i < t.i < root.i
                for t in root.children
            )
        ):
            out.insert(0, child)
    return out


def clauses(sent: Any) -> list[Clause]:
    """Split a sentence into clauses at coordinated predicates; a clause without its own
    subject shares the previous clause's (or, sentence-initial, the speaker's)."""
    heads = _heads(sent.root)
    head_ids = {h.i for h in heads}
    out: list[Clause] = []
    for n, head in enumerate(heads):
        cut: set[int] = set()
        for other in heads:
            if other.i != head.i and other.head.i == head.i:
                cut |= {t.i for t in other.subtree}
        for child in head.children:  # the "and" joining two predicates
            if child.dep_ == "cc" and any(c.i in head_ids and c.i > child.i for c in head.children):
                cut.add(child.i)
        tokens = [t for t in head.subtree if t.i not in cut]
        subject = _subject(head)
        implied = False
        if subject is None and n > 0:
            subject = out[-1].subject
            implied = out[-1].implied
        elif subject is None and _implied_speaker(head, tokens):
            implied = True  # "Lost my job yesterday", "Still working on it", "Gonna move"
        out.append(Clause(head, tokens, subject, implied))
    return out


SPOKEN_STARTS = {"gon", "gonna", "wan", "wanna", "gotta"}


def _implied_speaker(head: Any, tokens: list[Any]) -> bool:
    """A subjectless statement that starts with a past/progressive verb ("Lost my job",
    "Still working on it", "Gonna continue my studies") — the speaker is talking about
    themself. Imperatives (base form) and questions are not."""
    words = [
        t
        for t in tokens
        if t.dep_ not in DROP_DEPS
        and t.lower_ not in LEAD_WORDS
        and not (t.pos_ == "PROPN" and t.i < head.i and t.dep_ != "compound")
    ]
    while words and words[0].pos_ == "ADV":  # "Still working…", "Just got…"
        words = words[1:]
    if not words:
        return False
    first = words[0]
    return first.lower_ in SPOKEN_STARTS or (
        first.pos_ in ("VERB", "AUX")
        and (
            first.tag_ in ("VBD", "VBN", "VBG")
            or (first.tag_ == "VB" and first.lower_.endswith("ed"))
        )
    )


def _addressed(head: Any) -> bool:
    """Does the predicate take the listener as its object ("happy for you", "keep you
    posted", "hears ya", "miss you")?"""
    for child in head.children:
        if child.lower_ in SECOND_PERSON and child.dep_ in ("dobj", "nsubj", "dative", "attr"):
            return child.dep_ != "nsubj" or child.head is not head
        if child.dep_ in ("prep", "acomp", "ccomp", "xcomp"):
            for g in child.subtree:
                if g.lower_ in ("you", "ya", "u") and g.dep_ in ("pobj", "dobj", "nsubj"):
                    return True
    return False


def salient(clause: Clause, sent: Any, named: set[int], vocative: set[int] | None = None) -> bool:
    """Is the clause a statement worth keeping as a fact (see module docstring)? ``named``
    are token ids inside entity names; ``vocative`` those naming the listener."""
    vocative = vocative or set()
    if sent.text.rstrip().endswith("?") or sent.text.lstrip().startswith("["):
        return False  # questions; bracketed stage directions ("[shares a photo: …]")
    head, subj = clause.head, clause.subject
    if subj is None and not clause.implied:
        return False  # imperatives, fragments, "Can't wait!"
    if subj is not None and subj.lower_ in SECOND_PERSON:
        return False  # about the listener: compliments and questions in disguise
    if subj is not None and subj.lower_ in _DEICTIC_SUBJECTS and subj.i not in named:
        return False
    if head.lemma_.lower() in _REACTION_LEMMAS or head.lower_ in _REACTION_LEMMAS:
        return False
    if any(t.lower_ == "let" and t.i < head.i + 2 for t in clause.tokens[:3]):
        return False  # "Let's go"
    if _addressed(head):
        return False
    subj_ids = {t.i for t in subj.subtree} if subj is not None else set()
    content = [
        t
        for t in clause.tokens
        if t.i not in subj_ids
        and (
            (
                t.pos_ in ("NOUN", "PROPN", "NUM")
                and t.lower_ not in _GENERIC_NOUNS
                and t.lower_ not in SECOND_PERSON
            )
            or t.i in named
        )
        and t.i not in vocative
    ]
    return bool(content)
