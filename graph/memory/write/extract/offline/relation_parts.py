"""Shared pieces of the open relations (pure): the collector that filters and scores relations,
negation and unreality of a predicate, and the ends a preposition's objects stand for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.memory.write.extract.offline.coref import End, Ends, conjuncts

__all__ = [
    "WISH_VERBS",
    "OpenRelation",
    "Out",
    "containers",
    "negated",
    "pobjs",
    "targets",
    "targets_of",
    "under_negation",
    "unreal",
]

_NEG_ADV = {"longer", "anymore", "never", "not"}
_MODALS = {"would", "'d", "’d", "might", "could", "should", "may", "must"}
WISH_VERBS = frozenset(
    [
        "want",
        "wanna",
        "love",
        "like",
        "hope",
        "wish",
        "plan",
        "dream",
        "try",
        "consider",
        "think",
        "need",
    ]
)
"""Verbs whose complement is wished or planned, not stated: "want to move", "plan to visit"."""
_WISH = WISH_VERBS | {
    "intend",
    "aim",
    "seek",
    "expect",
    "refuse",
    "fail",
    "decline",
    "propose",
    "suggest",
    "ask",
    "attempt",
    "threaten",
    "promise",
    "offer",
}
_LOCATIVE = {"in", "at", "near", "on", "within", "across", "throughout"}


@dataclass(frozen=True)
class OpenRelation:
    """A relation read off the parse: ends, snake_case type, confidence, and the construction
    that produced it (svo, prep, passive, born, nominal, possessive, adjective, is_a)."""

    source: End
    target: End
    type: str
    confidence: float
    construction: str


class Out:
    def __init__(self, ends: Ends) -> None:
        self.ends = ends
        self.relations: list[OpenRelation] = []
        self._seen: set[tuple[str, str, str]] = set()

    def add(
        self,
        source: End | None,
        target: End | None,
        rtype: str | None,
        base: float,
        construction: str,
    ) -> None:
        if source is None or target is None or rtype is None or source.name == target.name:
            return
        if "date" in (source.type, target.type):
            return  # a date is when a relation holds, never one of its ends (module docstring)
        if source.kind == "phrase":
            return  # "an engineering degree followed…": a description as subject, rarely sure
        kinds = {source.kind, target.kind}
        if "phrase" in kinds and "person" in kinds:
            return  # "I love painting": chat, not knowledge
        if kinds == {"person"}:
            return  # "I hear ya", "I miss you": the speakers addressing each other
        if kinds == {"phrase"}:
            return  # two common noun phrases: rarely a relation worth a graph edge
        key = (source.name, target.name, rtype)
        if key in self._seen:
            return
        self._seen.add(key)
        conf = round(base * min(source.weight, target.weight), 2)
        self.relations.append(OpenRelation(source, target, rtype, conf, construction))


def negated(verb: Any) -> bool:
    for c in verb.children:
        if c.dep_ == "neg" or (c.dep_ == "advmod" and c.lower_ in _NEG_ADV):
            return True
        if c.dep_ == "advmod" and any(g.dep_ == "neg" for g in c.children):
            return True
    return False


def unreal(verb: Any) -> bool:
    """A wish, possibility or condition, not a statement ("would visit", "wants to move",
    "if he wins")."""
    node = verb
    for _ in range(4):  # the verb and the predicates it hangs from
        for c in node.children:
            if c.dep_ == "aux" and c.lower_ in _MODALS:
                return True
            if c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether"):
                return True
        if node.dep_ != "xcomp" and node.dep_ != "conj":
            break
        if node.dep_ == "xcomp" and node.head.lemma_.lower() in _WISH:
            return True
        node = node.head
    return negated(verb)


def pobjs(prep: Any) -> list[Any]:
    return [t for c in prep.children if c.dep_ == "pobj" for t in conjuncts(c)]


def targets(prep: Any, ends: Ends) -> list[End]:
    """The ends a preposition's objects stand for; "in the rainforest of Guadacanal" also
    gives Guadacanal (locative prepositions)."""
    out: list[End] = []
    for pobj in pobjs(prep):
        end = ends.of(pobj)
        if end is not None:
            out.append(end)
            out += containers(pobj, end, ends)
        for inner_prep in pobj.children:
            if inner_prep.dep_ != "prep" or inner_prep.lower_ not in ("of", "in"):
                continue
            for inner in (ends.of(t) for t in pobjs(inner_prep)):
                if inner is None or inner.kind == "phrase":
                    continue
                # "in the rainforest of Guadalcanal" → Guadalcanal; "a member of the Lok Sabha
                # of India" / "in Lunenburg County in Nova Scotia" → also the place
                if (
                    prep.lower_ in _LOCATIVE and (end is None or end.kind == "phrase")
                ) or inner.type == "place":
                    out.append(End(inner.name, inner.type, inner.weight * 0.85, inner.kind))
    return out


def targets_of(noun: Any, ends: Ends) -> list[End]:
    """ "one of the New Seven Wonders": the named end after a quantity's "of"."""
    if noun.lemma_.lower() not in ("one", "some", "many", "several", "all", "each", "none"):
        return []
    return [
        e
        for prep in noun.children
        if prep.dep_ == "prep" and prep.lower_ == "of"
        for e in targets(prep, ends)
    ]


def containers(tok: Any, end: End, ends: Ends) -> list[End]:
    """The places a named place is said to lie in by apposition: "in Gary, Indiana" is also
    in Indiana (containment is transitive; the place itself is ``located_in`` them)."""
    if end.type != "place" or end.kind != "named":
        return []
    by_token = ends.mentions.by_token
    span = [t for t in tok.doc[max(0, tok.i - 8) : tok.i + 8] if by_token.get(t.i) == end.name]
    out = []
    for t in span or [tok]:
        for c in t.children:
            if c.dep_ == "appos" and c.i in by_token and by_token[c.i] != end.name:
                outer = ends.of(c)
                if outer is not None and outer.type == "place":
                    out.append(End(outer.name, outer.type, end.weight * 0.85, outer.kind))
    return out


def under_negation(noun: Any) -> bool:
    head = noun.head
    return head.i != noun.i and head.pos_ in ("AUX", "VERB") and unreal(head)
