"""The names of one parsed message for the offline extractor: NER spans grown over proper
nouns, proper-noun chunks, then the alias passes — a name in parentheses after another, the
speaker's name spelt in full, a later shorter name made of an earlier name's words."""

from __future__ import annotations

import re
from typing import Any

from graph.memory.write.extract.offline.clauses import FIRST_PERSON

__all__ = ["LABEL_TYPES", "MessageNames"]

LABEL_TYPES = {
    "PERSON": "person",
    "ORG": "organization",
    "GPE": "place",
    "LOC": "place",
    "FAC": "organization",
    "PRODUCT": "product",
    "WORK_OF_ART": "product",
    "DATE": "date",
    "NORP": "group",
    "EVENT": "event",
    "LANGUAGE": "language",
}


class MessageNames:
    """Per-message state: entity spans by token index, the entity list, the speaker."""

    def __init__(self, doc: Any, speaker: str, other: str | None = None) -> None:
        self.speaker = speaker
        self.other = other
        self.by_token: dict[int, str] = {}
        self.types: dict[str, str] = {}
        self.order: list[str] = []
        self.aliases: dict[str, list[str]] = {}
        for ent in doc.ents:
            if ent.label_ in ("CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "TIME"):
                continue
            if ent.label_ == "DATE" and not any(ch.isdigit() for ch in ent.text):
                continue
            start, end = ent.start, ent.end
            # The small model often splits "Ana Souza" into two spans: grow over proper nouns.
            while start > 0 and doc[start - 1].pos_ == "PROPN" and ent.label_ != "DATE":
                start -= 1
            while end < len(doc) and doc[end].pos_ == "PROPN" and ent.label_ != "DATE":
                end += 1
            if any(i in self.by_token for i in range(start, end)):
                start, end = ent.start, ent.end
            self._add(
                doc[start:end].text.strip(),
                LABEL_TYPES.get(ent.label_, "thing"),
                range(start, end),
            )
        # "November", "Summer": a date without digits is not a name either
        dated = {t.i for ent in doc.ents if ent.label_ in ("DATE", "TIME") for t in ent}
        chunk: list[Any] = []
        for tok in [*doc, None]:
            if (
                tok is not None
                and tok.pos_ == "PROPN"
                and tok.i not in self.by_token
                and tok.i not in dated
            ):
                chunk.append(tok)
                continue
            if chunk:
                self._add(
                    doc[chunk[0].i : chunk[-1].i + 1].text,
                    "thing",
                    range(chunk[0].i, chunk[-1].i + 1),
                )
                chunk = []

    def alias_parentheses(self, message: str) -> None:
        """A name in parentheses after another name is the same entity ("Guili (Guilherme
        Maturana)"): the parenthesised name stays, the other becomes its alias."""
        for m in re.finditer(r"([^()\n]{2,60}?)\s{0,3}\(([^()\n]{2,60})\)", message):
            inner = m.group(2).strip()
            names = [n for n in self.order if n == inner or m.group(1).rstrip().endswith(n)]
            if (
                inner in self.types
                and self.types[inner] != "date"
                and len(names) >= 2
                and self.types[names[0]] != "date"
            ):
                alias = next(n for n in names if n != inner)
                self.aliases.setdefault(inner, []).append(alias)
                self.types[inner] = (
                    "person" if self.types[alias] in ("person", "thing") else self.types[inner]
                )
                self.order.remove(alias)
                for i, name in list(self.by_token.items()):
                    if name == alias:
                        self.by_token[i] = inner

    def name_speaker(self, doc: Any) -> None:
        """Where the text spells the speaker's name in full, those words are the speaker — a
        document's title ("Terror of the Range is a film serial…") is what its text is about,
        even when the tagger splits it or misses it."""
        name = self.speaker
        if len(name) < 3 or not name[:1].isupper():
            return
        for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", doc.text):
            span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
            if span is None or len(span) > 12:
                continue
            covered = [self.by_token.get(t.i) for t in span]  # in token order: deterministic
            if set(covered) == {name}:
                continue
            self.types.setdefault(
                name,
                next(
                    (self.types[n] for n in covered if n is not None and n in self.types), "thing"
                ),
            )
            for t in span:
                self.by_token[t.i] = name
        left = set(self.by_token.values())
        for gone in [n for n in self.order if n not in left]:
            self.order.remove(gone)
            del self.types[gone]

    def _add(self, name: str, etype: str, span: range) -> None:
        if not name or name.lower() in FIRST_PERSON:
            return
        if name not in self.types:
            self.order.append(name)
            self.types[name] = etype
        for i in span:
            self.by_token[i] = name

    def merge_short_names(self) -> None:
        """A later, shorter name made of words of an earlier name is that entity ("Perry
        Mason" … "Mason", "Katherine Simonds Dhanani" … "Dhanani"): an alias, not a second
        entity. Places are left apart ("New York" / "New York City" are two places)."""
        for short in list(self.order):
            words = short.split()
            stype = self.types[short]
            if stype in ("date", "place") or not words or not all(w[:1].isupper() for w in words):
                continue
            longer = next(
                (
                    n
                    for n in self.order
                    if n != short
                    and len(n.split()) > len(words)
                    and self.types[n] in (stype, "person", "thing")
                    and self.types[n] not in ("date", "place")
                    and _contains(n.split(), words)
                ),
                None,
            )
            if longer is None or self._first(longer) > self._first(short):
                continue
            self.aliases.setdefault(longer, []).append(short)
            self.order.remove(short)
            del self.types[short]
            for i, name in list(self.by_token.items()):
                if name == short:
                    self.by_token[i] = longer

    def _first(self, name: str) -> int:
        return min((i for i, n in self.by_token.items() if n == name), default=-1)

    def entity_of(self, token: Any) -> str | None:
        if token.lower_ in ("i", "me", "myself", "we", "us"):
            return self.speaker
        if token.lower_ in ("you", "ya", "yourself") and token.pos_ == "PRON" and self.other:
            return self.other
        if token.i in self.by_token:
            return self.by_token[token.i]
        for child in token.children:  # "my wife Ana" → Ana
            if child.dep_ == "appos" and child.i in self.by_token:
                return self.by_token[child.i]
        return None

    def retype(self, name: str, etype: str) -> None:
        if name in self.types and self.types[name] in (
            "thing",
            "person",
            "place",
            "organization",
            "date",
        ):
            self.types[name] = etype


def _contains(words: list[str], part: list[str]) -> bool:
    """``part`` occurs in ``words`` as a run of whole words."""
    n = len(part)
    return any(words[i : i + n] == part for i in range(len(words) - n + 1))
