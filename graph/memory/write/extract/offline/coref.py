"""Offline relation ends: which entity a token of a spaCy parse stands for (pure).

A relation's ends must be entities the extraction returns, so every end is one of:
- a named entity the offline extractor found (NER span or proper-noun chunk, by token), also
  through an appositive name ("the singer Sammi Smith", "founder Bill Gates" → the name);
- the speaker / listener for first / second person pronouns (conversations);
- an earlier referent of the same passage (in-passage coreference): a personal pronoun ("he",
  "its", "they") → the last compatible entity, recent subjects first (encyclopedic text keeps
  talking about its topic); a definite noun phrase ("the journal", "the station") → the last
  entity whose name ends in that noun or that was described by it ("WYAV is a radio station",
  "Paris, a city…", "the city of Wichita");
- through a class noun, the name it introduces ("the city of Wichita", "the north of France");
- optionally a common noun phrase ("country singer", "five seasons"): a new entity of type
  "thing", cut to its head noun and left modifiers (no determiner, clause or preposition).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.memory.write.extract.offline.coref_words import (
    CLASS_NOUNS,
    DROP_MODIFIERS,
    FIRST,
    HE_SHE,
    IT,
    NOT_IT,
    PART_NOUNS,
    PHRASE_DEPS,
    RELATIVE,
    SECOND,
    THEY,
    VAGUE,
)

__all__ = ["End", "Ends", "Mentions", "conjuncts"]


def _bare_vague(tok: Any) -> bool:
    return bool(tok.lemma_.lower() in VAGUE or tok.lower_ in VAGUE)


@dataclass
class Mentions:
    """What the offline extractor found in a parse: entity name by token index, entity types,
    the speaker (first person) and the listener (second person), if any."""

    by_token: dict[int, str]
    types: dict[str, str]
    speaker: str | None = None
    other: str | None = None


@dataclass(frozen=True)
class End:
    """One end of a relation: the entity name, its type, how sure the link is (1.0 a name in
    place, less for coreference), and how it was found: "named", "person" (a first / second
    person pronoun), "coref", or "phrase" (a common noun phrase, a new entity)."""

    name: str
    type: str
    weight: float
    kind: str = "named"


def conjuncts(token: Any) -> list[Any]:
    """The token and the tokens coordinated with it ("A, B and C")."""
    out = [token]
    for child in token.children:
        if child.dep_ == "conj":
            out += conjuncts(child)
    return out


@dataclass
class _Mention:
    start: int
    name: str
    type: str
    subject: bool


@dataclass
class Ends:
    """Resolves tokens of one parsed passage to relation ends (see module docstring)."""

    doc: Any
    mentions: Mentions
    noun_phrases: bool = False
    _history: list[_Mention] = field(default_factory=list)
    _described: dict[str, set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_token = self.mentions.by_token
        seen: set[tuple[int, str]] = set()
        for tok in self.doc:
            name = by_token.get(tok.i)
            if name is None or (tok.i > 0 and by_token.get(tok.i - 1) == name):
                continue
            span = [t for t in self.doc[tok.i :] if by_token.get(t.i) == name]
            root = next(
                (t for t in span if t.head.i not in {s.i for s in span} or t.head.i == t.i), tok
            )
            subject = root.dep_ in ("nsubj", "nsubjpass")
            if (tok.i, name) not in seen:
                seen.add((tok.i, name))
                self._history.append(_Mention(tok.i, name, self._type(name), subject))
            last = name.split()[-1].lower() if name.split() else ""
            self._described.setdefault(name, set()).add(last)
        for tok in self.doc:  # "X is a radio station", "X, a city", "the city of X"
            named = self._named(tok)
            if named is None:
                continue
            for noun in self._descriptions(tok):
                self._described.setdefault(named, set()).add(noun.lemma_.lower())

    # -- public -------------------------------------------------------------------------------

    def of(self, tok: Any, modifier: bool = False) -> End | None:
        """The end ``tok`` stands for, or None. ``modifier``: ``tok`` is the noun a participle
        or relative clause modifies ("a journal published by…"), so a predicate noun stands for
        what it describes ("X is a journal published by Y" → X)."""
        low = tok.lower_
        m = self.mentions
        if tok.pos_ == "PRON" or low in FIRST | SECOND:
            if low in FIRST and m.speaker:
                return End(m.speaker, "person", 1.0, "person")
            if low in SECOND and m.other:
                return End(m.other, "person", 1.0, "person")
        if tok.i in m.by_token:
            name = m.by_token[tok.i]
            return End(name, self._type(name), 1.0)
        if tok.pos_ == "PRON" or (low in RELATIVE and tok.tag_ in ("WDT", "WP", "WP$")):
            return self._pronoun(tok)
        if tok.pos_ not in ("NOUN", "PROPN", "NUM"):
            return None
        for child in tok.children:  # "the singer Sammi Smith", "founder Bill Gates"
            if child.dep_ == "appos" and child.i in m.by_token and child.i > tok.i:
                name = m.by_token[child.i]
                return End(name, self._type(name), 1.0)
        lemma = tok.lemma_.lower()
        if lemma in CLASS_NOUNS or lemma in PART_NOUNS:
            inner = self._of_object(tok)
            if inner is not None and inner.kind != "phrase":
                return End(inner.name, inner.type, inner.weight * 0.95, inner.kind)
        if modifier:
            same = self.identity(tok)
            if same is not None:
                return same
        if self._definite(tok):
            ref = self._antecedent(
                tok.i, lambda mm: lemma in self._described.get(mm.name, ()), subjects_first=True
            )
            if ref is not None:
                return End(ref.name, ref.type, 0.8, "coref")
            topic = self.topic() if tok.tag_ == "NN" else None
            if (
                topic is not None
                and topic.start < tok.i
                and not _bare_vague(tok)
                and topic.type != "person"
            ):  # "the country" is not the person written of
                return End(topic.name, topic.type, 0.6, "coref")
            return None  # "the book" with nothing to point at: not an entity of its own
        return self._phrase(tok)

    def identity(self, tok: Any) -> End | None:
        """The named end a common noun is said to be: "Paris, the capital…" / "the capital,
        Paris" / "Paris is the capital…" / "The winner … was Jinkx Monsoon" → that name."""
        if tok.i in self.mentions.by_token or tok.pos_ not in ("NOUN", "PROPN"):
            return None
        for child in tok.children:
            if child.dep_ == "appos" and child.i in self.mentions.by_token:
                return self._end_named(child)
        head = tok.head
        if tok.dep_ == "appos" and head.i != tok.i:
            return self._end_named(head)
        if (
            tok.dep_ == "compound"
            and tok.pos_ == "NOUN"
            and head.i > tok.i
            and head.i in self.mentions.by_token
        ):  # "Microsoft's founder Bill Gates"
            return self._end_named(head)
        if tok.dep_ == "conj" and head.dep_ in ("attr", "appos") and head.pos_ == "NOUN":
            return self.identity(head)  # "X is a novel and the best known work by Y"
        if tok.dep_ in ("attr", "acomp") and head.lemma_ in ("be", "become", "remain"):
            subj = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
            if subj is not None and subj.i != tok.i:
                return self._end_named(subj)
        if tok.dep_ in ("nsubj",) and head.lemma_ == "be":
            attr = next((c for c in head.children if c.dep_ == "attr"), None)
            if attr is not None and attr.i in self.mentions.by_token:
                return self._end_named(attr)
        return None

    # -- helpers ------------------------------------------------------------------------------

    def _type(self, name: str) -> str:
        return self.mentions.types.get(name) or "thing"

    def _named(self, tok: Any) -> str | None:
        end = self._end_named(tok)
        return end.name if end is not None else None

    def _end_named(self, tok: Any) -> End | None:
        """``tok`` as a name, a pronoun's referent or a definite description — never a new
        phrase entity."""
        end = (
            self.of(tok)
            if tok.i not in self.mentions.by_token
            else End(self.mentions.by_token[tok.i], self._type(self.mentions.by_token[tok.i]), 1.0)
        )
        return end if end is not None and end.kind != "phrase" else None

    def _descriptions(self, tok: Any) -> list[Any]:
        """Common nouns describing the entity at ``tok``: its appositive ("X, a city"), its
        predicate noun ("X is a station"), the class noun naming it ("the city of X")."""
        out = [c for c in tok.children if c.dep_ == "appos" and c.pos_ == "NOUN"]
        head = tok.head
        if tok.dep_ in ("nsubj", "nsubjpass") and head.lemma_ in ("be", "become"):
            out += [c for c in head.children if c.dep_ == "attr" and c.pos_ == "NOUN"]
        if (
            tok.dep_ == "pobj"
            and head.lower_ == "of"
            and head.head.pos_ == "NOUN"
            and head.head.lemma_.lower() in CLASS_NOUNS
        ):
            out.append(head.head)
        if tok.dep_ == "appos" and head.pos_ == "NOUN":
            out.append(head)
        return out

    def _of_object(self, tok: Any) -> End | None:
        for prep in tok.children:
            if prep.dep_ == "prep" and prep.lower_ == "of":
                for obj in prep.children:
                    if obj.dep_ == "pobj":
                        return self.of(obj)
        return None

    def _definite(self, tok: Any) -> bool:
        """ "the journal", "this station": a determiner and no modifier that would make the
        phrase stand on its own."""
        return (
            tok.pos_ == "NOUN"
            and any(
                c.dep_ == "det" and c.lower_ in ("the", "this", "these", "that")
                for c in tok.children
            )
            and not any(
                c.dep_ in ("prep", "relcl", "acl", "compound", "amod", "nummod", "poss")
                for c in tok.children
            )
        )

    def _antecedent(self, before: int, ok: Any, subjects_first: bool = False) -> _Mention | None:
        earlier = [mm for mm in self._history if mm.start < before and ok(mm)]
        if not earlier:
            return None
        if subjects_first:
            subjects = [mm for mm in earlier if mm.subject]
            if subjects:
                return subjects[-1]
        return earlier[-1]

    def _first_of(self, before: int, tests: list[Any]) -> _Mention | None:
        """The most recent mention before ``before`` passing the first test that any passes,
        subjects before other mentions (the small model's entity types are unreliable, so the
        tests go from the expected type to any type)."""
        for subjects_only in (True, False):
            for test in tests:
                ref = self._antecedent(
                    before,
                    lambda mm, t=test, only=subjects_only: t(mm) and (mm.subject or not only),
                )
                if ref is not None:
                    return ref
        return None

    def topic(self) -> _Mention | None:
        """What the passage is about: the named subject of its first sentence, if any."""
        first = next(iter(self.doc.sents), None)
        if first is None:
            return None
        return next(
            (
                mm
                for mm in self._history
                if mm.start < first.end and mm.subject and mm.type != "date"
            ),
            None,
        )

    def _pronoun(self, tok: Any) -> End | None:
        low = tok.lower_
        if low in RELATIVE:  # "singers who originated in…" → the modified noun
            clause = tok.head
            while clause.dep_ not in ("relcl", "acl") and clause.head.i != clause.i:
                clause = clause.head
            if clause.dep_ in ("relcl", "acl") and clause.head.i != tok.i:
                return self.of(clause.head, modifier=True)
            return None
        if low in HE_SHE:
            ref = self._first_of(
                tok.i,
                [lambda mm: mm.type == "person", lambda mm: mm.type in ("thing", "organization")],
            )
            weight = 0.85
        elif low in IT:
            ref = self._first_of(
                tok.i, [lambda mm: mm.type not in NOT_IT, lambda mm: mm.type == "person"]
            )
            weight = 0.75
        elif low in THEY:
            ref = self._first_of(
                tok.i,
                [lambda mm: mm.type in ("group", "organization"), lambda mm: mm.type != "date"],
            )
            weight = 0.6
        else:
            return None
        return End(ref.name, ref.type, weight, "coref") if ref is not None else None

    def _phrase(self, tok: Any) -> End | None:
        """A common noun phrase as a new entity (head noun + left modifiers)."""
        if not self.noun_phrases or tok.pos_ != "NOUN":
            return None
        lemma = tok.lemma_.lower()
        if lemma in VAGUE or tok.lower_ in VAGUE or len(tok.text) < 3 or not tok.is_alpha:
            return None
        start = tok.i
        for child in sorted((c for c in tok.children if c.i < tok.i), key=lambda c: -c.i):
            if (
                child.right_edge.i + 1 != start
                or child.dep_ not in PHRASE_DEPS
                or child.lower_ in DROP_MODIFIERS
            ):
                break
            start = child.left_edge.i
        words = [t for t in self.doc[start : tok.i + 1]]
        while words and (
            words[0].is_punct
            or words[0].pos_ in ("DET", "PRON", "ADP", "CCONJ")
            or words[0].lower_ in DROP_MODIFIERS
        ):
            words = words[1:]
        if not words or any(t.pos_ in ("PRON", "VERB") and t.tag_ != "VBN" for t in words):
            return None
        name = self.doc[words[0].i : tok.i + 1].text.strip()
        if not name or len(name) > 80:
            return None
        return End(name, "thing", 0.7, "phrase")
