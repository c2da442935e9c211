"""Offline extraction, English clauses rewritten as self-contained sentences (pure functions
over a spaCy parse): first person → the speaker with third-person verb agreement and
contractions spelled out ("I'm" → "Ana is", "I'll" → "Ana will", never "Ana'll"); "you"/"your"
→ the other speaker when known; vocatives, interjections and joining conjunctions dropped.
"""

from __future__ import annotations

from typing import Any

from graph.memory.write.extract.offline.clauses import (
    DROP_DEPS,
    FIRST_PERSON,
    LEAD_WORDS,
    SECOND_PERSON,
    SPOKEN_STARTS,
    SUBJECT_PRONOUNS,
    Clause,
)

__all__ = ["rewrite", "third_person"]

_CONTRACTIONS = {
    "'m": "is",
    "’m": "is",
    "m": "is",
    "'re": "is",
    "’re": "is",
    "'ve": "has",
    "’ve": "has",
    "'ll": "will",
    "’ll": "will",
    "'d": "would",
    "’d": "would",
}


def third_person(token: Any) -> str:
    """The third-person singular present of a first-person verb form (``token.tag_`` VBP)."""
    low = token.lower_
    if low in _CONTRACTIONS:
        return "had" if low.endswith("d") and token.lemma_ == "have" else _CONTRACTIONS[low]
    if token.lemma_ == "be":
        return "is" if token.tag_ == "VBP" else token.text
    if token.tag_ != "VBP":
        return token.text
    lemma = token.lemma_.lower() if token.lemma_ != "have" else "ha"
    if lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        return lemma + "es"
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        return lemma[:-1] + "ies"
    return lemma + "s"


def _render(
    tokens: list[Any], agree: set[int], speaker: str, other: str | None, last_person: str | None
) -> str:
    """Tokens as text with pronouns replaced and the verbs in ``agree`` (token ids whose
    subject was first person) put in the third person, contractions spelled out."""
    parts: list[str] = []
    replaced_prev = False
    for tok in tokens:
        low, text = tok.lower_, tok.text
        replaced = False
        if tok.pos_ == "PRON" and low in FIRST_PERSON:
            text, replaced = FIRST_PERSON[low].format(s=speaker), True
        elif tok.pos_ == "PRON" and low in SECOND_PERSON and other:
            text, replaced = SECOND_PERSON[low].format(o=other), True
        elif low in ("he", "she") and tok.dep_.startswith("nsubj") and last_person:
            text, replaced = last_person, True
        elif low in _SPOKEN:
            text = _SPOKEN[low][0 if tok.i in agree else 1]
        elif tok.i in agree and (tok.tag_ == "VBP" or low in _CONTRACTIONS):
            text = third_person(tok)
        if low in _CONTRACTIONS and (replaced_prev or text != tok.text):
            text = " " + (third_person(tok) if text == tok.text else text)
        elif low in ("na", "ta") and tok.i > 0 and tok.nbor(-1).lower_ in ("gon", "wan", "got"):
            text = " to"  # gonna / wanna / gotta split by the tokenizer
        elif low == "gon":
            text = "going"
        elif low == "wan":
            text = "wants" if tok.i in agree else "want"
        parts.append(text + tok.whitespace_)
        replaced_prev = replaced
    return "".join(parts).strip()


_SPOKEN = {
    "wanna": ("wants to", "want to"),
    "gonna": ("going to", "going to"),
    "gotta": ("has to", "have to"),
}


def rewrite(clause: Clause, speaker: str, other: str | None, last_person: str | None) -> str:
    """The clause as a self-contained sentence (see module docstring)."""
    tokens = list(clause.tokens)
    while tokens and (
        tokens[0].dep_ in DROP_DEPS
        or tokens[0].lower_ in LEAD_WORDS
        or (
            tokens[0].dep_ in ("npadvmod", "appos", "dep")
            and tokens[0].pos_ == "PROPN"
            and tokens[0].i < clause.head.i
        )
        or tokens[0].dep_ == "mark"
    ):
        tokens = tokens[1:]
    while tokens and tokens[-1].dep_ in ("punct", "cc"):
        tokens = tokens[:-1]
    if not tokens:
        return ""
    agree = {
        t.head.i for t in tokens if t.lower_ in SUBJECT_PRONOUNS and t.dep_.startswith("nsubj")
    }
    subj = clause.subject
    first_person = clause.implied or (subj is not None and subj.lower_ in SUBJECT_PRONOUNS)
    if first_person:
        agree.add(clause.head.i)
    agree |= {t.i for t in tokens if t.dep_ in ("aux", "auxpass") and t.head.i in agree}
    inherited = subj is not None and subj.i not in {t.i for t in tokens}
    if (
        inherited
        and first_person
        and clause.head.tag_ == "VB"
        and not any(c.dep_ in ("aux", "auxpass") for c in clause.head.children)
    ):
        agree.add(clause.head.i)  # "I live here and work there" → "… works there"
        tokens = [_AsPresent(t) if t.i == clause.head.i else t for t in tokens]
    out = _render(tokens, agree, speaker, other, last_person)
    if inherited and subj is not None:
        subject_text = _render(
            sorted(subj.subtree, key=lambda t: t.i), set(), speaker, other, last_person
        )
        out = f"{subject_text} {out}"
    elif clause.implied and subj is None:
        verb = next(
            (t for t in tokens if t.pos_ in ("VERB", "AUX") or t.lower_ in SPOKEN_STARTS),
            tokens[0],
        )
        progressive = verb.tag_ == "VBG" or verb.lower_ in ("gon", "gonna")
        out = f"{speaker} {'is ' if progressive else ''}{out[0].lower() + out[1:]}"
    out = out.rstrip(" ,;:-–—")
    # A full stop the clause kept (it is in the clause when a line break follows it) stays
    # the only one.
    return (out[0].upper() + out[1:] + ("" if out.endswith(".") else ".")) if out else ""


class _AsPresent:
    """A token seen as a present-tense verb (tag VBP), for agreement of a bare ``conj``."""

    def __init__(self, token: Any) -> None:
        self._t = token
        self.tag_ = "VBP"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)
