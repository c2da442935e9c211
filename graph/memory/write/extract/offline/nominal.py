"""Nominal open relations (pure): appositive, copular and possessive relations of a noun that
names or describes an entity ("X, the capital of Y", "Y's capital X", "X is a station in Y"),
a name's prepositions ("Jan Solovej from the University of Copenhagen"), and the places of a
life parenthesis ("X (1918 in Adana – 1989 in Istanbul)"). Part of :mod:`relations`."""

from __future__ import annotations

from typing import Any

from graph.memory.write.extract.offline.coref import End, Ends
from graph.memory.write.extract.offline.predicates import noun_predicate
from graph.memory.write.extract.offline.relation_parts import Out, targets, under_negation

__all__ = ["life_parenthesis", "nominal_relations"]

_NOUN_PREPS = {"of", "in", "at", "for", "from", "to", "on", "with", "by", "into", "near", "about"}
_NAMED_PREPS = {
    "from": "is_from",
    "in": "is_in",
    "at": "is_at",
    "near": "is_near",
    "with": "with",
    "for": "for",
    "on": "is_on",
}


def _governed_place(tok: Any, ends: Ends) -> bool:
    """The place is the object of a preposition ("flows through Gary, Indiana") or of a class
    noun ("the town of Kluang, Johor"): the clause's subject is related to both places
    (:func:`containers`), which says where it is; a separate ``located_in`` between the two
    places is left to where they are the subject ("Gary, Indiana is a city")."""
    node = tok
    for _ in range(3):
        if node.dep_ == "pobj":
            return True
        if node.dep_ not in ("compound", "appos") or node.head.i == node.i:
            return False
        node = node.head
    return False


def nominal_relations(noun: Any, out: Out) -> None:
    """Appositive, copular and possessive relations of a noun that names an entity."""
    ends = out.ends
    if noun.i in ends.mentions.by_token:
        if under_negation(noun):
            return
        head = noun.head
        if (
            noun.dep_ == "appos"
            and head.i in ends.mentions.by_token
            and head.i < noun.i
            and ends.mentions.types.get(ends.mentions.by_token[noun.i]) == "place"
            and head.nbor(1).text == ","  # "Gary, Indiana", "Guadalcanal, Solomon Islands"
            and not _governed_place(head, ends)
        ):
            out.add(ends.of(head), ends.of(noun), "located_in", 0.6, "nominal")
        if noun.dep_ == "appos":
            return
        _named_preps(noun, ends.of(noun), out)
        return
    same = ends.identity(noun)
    if (same is None and noun.dep_ != "pobj") or (noun.dep_ == "pobj" and noun.head.lower_ != "of"):
        via_class = ends.of(noun)  # "the port of Paloukia in Salamis"
        if via_class is not None and via_class.kind != "phrase" and not under_negation(noun):
            _named_preps(noun, via_class, out)
    if same is None and not under_negation(noun):  # "its hub at X" → its owner hub_at X
        owner = next((ends.of(c) for c in noun.children if c.dep_ == "poss"), None)
        if owner is not None and owner.kind != "phrase":
            for prep in noun.children:
                if prep.dep_ == "prep" and prep.lower_ in _NOUN_PREPS - {"of"}:
                    for target in targets(prep, ends):
                        if target.kind != "phrase":
                            out.add(
                                owner, target, noun_predicate(noun, prep.lower_), 0.6, "possessive"
                            )
    if same is None or under_negation(noun):
        return
    relational = False
    for child in noun.children:
        if child.dep_ == "prep" and child.lower_ in _NOUN_PREPS:
            rtype = noun_predicate(noun, child.lower_)
            for target in targets(child, ends):
                relational = True
                out.add(same, target, rtype, 0.7, "nominal")
        elif child.dep_ == "poss":
            relational = True
            out.add(same, ends.of(child), noun_predicate(noun), 0.7, "possessive")
    if relational:
        return  # "X is the capital of Y": X capital_of Y, not X is_a "capital"
    if noun.dep_ in ("attr", "appos") and noun.pos_ == "NOUN" and ends.noun_phrases:
        out.add(same, ends.of(noun), "is_a", 0.55, "is_a")


def _named_preps(noun: Any, named: End | None, out: Out) -> None:
    """ "Jan Philip Solovej from the University of Copenhagen", "Jackie Chan in New Fist of
    Fury", "the port of Paloukia in Salamis": a name and the named thing its preposition
    introduces (type: the preposition; no common noun phrases)."""
    if named is None:
        return
    for prep in noun.children:
        if prep.dep_ == "prep" and prep.lower_ in _NAMED_PREPS:
            for target in targets(prep, out.ends):
                if target.kind != "phrase":
                    out.add(named, target, _NAMED_PREPS[prep.lower_], 0.55, "nominal")


def life_parenthesis(paren: Any, out: Out) -> None:
    """ "X (born 1948)" is a participle clause; "X (Civitavecchia, December 21, 1948)" and
    "X (1918 in Adana – 15 December 1989 in Istanbul)" give a person's birth place and death
    place: a parenthesis holding a date is about a life, the first place before a dash is
    where it began, the first after the dash where it ended (the dates themselves are never
    ends)."""
    by_token, doc = out.ends.mentions.by_token, paren.doc
    if paren.i == 0 or paren.i - 1 not in by_token:
        return
    subject = out.ends.of(doc[paren.i - 1])
    if subject is None or subject.type in ("date", "place"):
        return
    places: list[list[End]] = [[], []]
    dated = False
    dash = False
    for tok in doc[paren.i + 1 : paren.i + 32]:
        if tok.text == ")" or tok.lower_ in ("born", "née", "nee"):
            break
        if tok.text in ("-", "–", "—"):
            dash = True
        if tok.i in by_token and (
            tok.i - 1 not in by_token or by_token[tok.i - 1] != by_token[tok.i]
        ):
            end = out.ends.of(tok)
            if end is not None and end.type == "date":
                dated = True
            elif end is not None and end.type == "place":
                places[dash].append(end)
    if not dated:
        return
    for rtype, found in zip(("born_in", "died_in"), places, strict=True):
        for place in found[:1]:
            out.add(subject, place, rtype, 0.6, "born")
