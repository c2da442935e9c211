"""Open relations from a dependency parse (offline extraction, pure functions).

The verb pattern table of the offline extractor is precise but knows a dozen relations; this
module reads relations off any English parse, so encyclopedic text and documents get a graph:

- verbs: subject–verb–object ("Y directed X" → ``directed``), particles and prepositions
  ("played_for", "took_over"), a light verb's object noun ("made_debut_for"), coordinated
  subjects, objects and predicates, participle and relative clauses ("a film directed by Y",
  "singers who originated in Gary"), subjects shared through ``xcomp`` ("went on to play for");
- passive voice: with an agent it is stated actively ("X was written by Y" → Y ``wrote`` X),
  without one the participle stays ("born_in", "located_in", "released_in");
- copular, appositive and possessive nominal relations: "X is the capital of Y", "X, the
  capital of Y", "the capital of Y, X", "Y's capital X", "The winner of Y was X" → X
  ``capital_of`` / ``winner_of`` Y; "X is famous for Y" → ``famous_for``; "X is a country
  singer" → X ``is_a`` "country singer" (only when common noun phrases may be ends);
- places named by apposition contain: "flows through Kluang in Gary, Indiana" relates the river
  to Gary and to Indiana; "Gary, Indiana" alone is Gary ``located_in`` Indiana;
- negated, wished or hypothetical statements and questions give nothing.

Dates are never relation ends. A year or a day ("1990", "April 5, 1972") joined by relations
would become a hub node tying together everything that happened then, and a graph walk through
it bridges unrelated passages; "born in Recife in 1990" gives ``born_in`` Recife only. The date
stays in the fact's text (and its time), where retrieval reads it. For the same reason a
description is never a relation's subject ("an engineering degree followed…").

Common noun phrases ("American country singer") are ends only when ``noun_phrases`` is on —
for documents (chunk extraction sets the write option ``offline_noun_phrase_ends``). In a
conversation "her kids" or "painting" would become entities of every speaker's facts.

Ends come from :mod:`coref` (names, pronouns and definite descriptions resolved in the
passage, optional noun phrases). Confidence: the construction's base (named ends) times the
weakest end's link weight (coreference and noun phrases are less sure).
"""

from __future__ import annotations

from typing import Any

from graph.memory.write.extract.extraction import ExtractedRelation
from graph.memory.write.extract.offline.coref import End, Ends, Mentions, conjuncts
from graph.memory.write.extract.offline.nominal import life_parenthesis, nominal_relations
from graph.memory.write.extract.offline.predicates import noun_predicate, verb_predicate
from graph.memory.write.extract.offline.relation_parts import (
    OpenRelation,
    Out,
    pobjs,
    targets,
    targets_of,
    unreal,
)

__all__ = ["OpenRelation", "merge_open_relations", "open_relations"]

_COPULAS = {"be", "become", "remain"}


def _passive(verb: Any) -> bool:
    if any(c.dep_ in ("auxpass", "nsubjpass", "agent") for c in verb.children):
        return True
    if verb.dep_ == "conj" and verb.tag_ == "VBN" and verb.head.i != verb.i:
        return _passive(verb.head)  # "is owned and operated by…"
    return verb.dep_ in ("acl", "advcl", "relcl") and verb.tag_ == "VBN"


def _agents(verb: Any) -> list[Any]:
    """The "by" phrases of a passive, shared by coordinated participles ("owned and operated
    by Y": both have Y)."""
    own = [c for c in verb.children if c.dep_ == "agent"]
    if own:
        return own
    for conj in verb.children:
        if conj.dep_ == "conj" and conj.tag_ == "VBN":
            return [c for c in conj.children if c.dep_ == "agent"]
    return []


def _subject_tokens(verb: Any, depth: int = 0) -> list[tuple[Any, bool]]:
    """Subject tokens of a predicate, with whether each is a modified noun (participle clause:
    "a film directed by…", the noun is what the clause is about)."""
    for c in verb.children:
        if c.dep_ in ("nsubj", "nsubjpass"):
            return [(t, False) for t in conjuncts(c)]
        if c.dep_ in ("csubj", "csubjpass", "expl"):
            return []
    if depth > 4 or verb.head.i == verb.i:
        return []
    if verb.dep_ in ("conj", "xcomp"):
        return _subject_tokens(verb.head, depth + 1)
    if verb.dep_ in ("acl", "relcl") and verb.head.pos_ in ("NOUN", "PROPN"):
        return [(verb.head, True)]  # "a film directed by…", "X (born 1983)"
    if (
        verb.dep_ == "advcl"
        and verb.tag_ in ("VBN", "VBG")
        and not any(c.dep_ == "mark" for c in verb.children)
    ):
        return _subject_tokens(verb.head, depth + 1)  # "Based in Wichita, the district…"
    return []


def _subject_ends(verb: Any, ends: Ends) -> list[End]:
    """The ends of a predicate's subjects. A common noun phrase is an end only as the noun a
    participle clause modifies ("psychotherapy developed by…"): as a grammatical subject
    ("Filming began in…", "Ground was broken…") it is mostly an event, not an entity. An
    expletive "it" ("it was announced that…") is nobody."""
    out = []
    for tok, modifier in _subject_tokens(verb):
        if tok.lower_ == "it" and any(
            c.dep_ in ("ccomp", "xcomp", "csubj") and c.i > verb.i for c in verb.children
        ):
            continue
        end = ends.of(tok, modifier)
        if end is not None and end.type != "date" and (modifier or end.kind != "phrase"):
            out.append(end)
    return out


def _verb(verb: Any, out: Out) -> None:
    ends = out.ends
    if unreal(verb):
        return
    subjects = _subject_ends(verb, ends)
    if not subjects:
        return
    passive = _passive(verb)
    lemma = verb.lemma_.lower()
    if passive:  # "X was directed by Y" → Y directed X
        for agent_prep in _agents(verb):
            for agent in targets(agent_prep, ends):
                for s in subjects:
                    out.add(agent, s, verb_predicate(verb), 0.75, "passive")
    for child in verb.children:
        dep = child.dep_
        if dep == "dobj" and not passive:
            for obj in conjuncts(child):
                target = ends.of(obj)
                if target is not None:
                    for s in subjects:
                        out.add(s, target, verb_predicate(verb), 0.75, "svo")
                    if target.kind != "phrase":
                        continue
                for prep in obj.children:  # "made his debut for Chelsea"
                    if prep.dep_ == "prep" and prep.lower_ != "of":
                        rtype = verb_predicate(verb, prep.lower_, noun=obj.lemma_.lower())
                        for end in targets(prep, ends):
                            if end.kind != "phrase":
                                for s in subjects:
                                    out.add(s, end, rtype, 0.65, "svo")
        elif dep == "prep":
            rtype = verb_predicate(verb, child.lower_, passive=passive)
            for target in targets(child, ends):
                for s in subjects:
                    out.add(s, target, rtype, 0.7, "passive" if passive else "prep")
        elif dep in ("acomp", "attr", "oprd") and lemma in _COPULAS:
            _complement(child, subjects, out)
        elif dep in ("oprd", "attr") and child.pos_ in ("NOUN", "PROPN"):
            # "X was declared a World Heritage Site", "was named Y", "was voted one of Z"
            rtype = verb_predicate(verb, "as", passive=passive)
            for comp in conjuncts(child):
                for target in [ends.of(comp), *targets_of(comp, ends)]:
                    for s in subjects:
                        out.add(s, target, rtype, 0.65, "svo")


def _complement(comp: Any, subjects: list[End], out: Out) -> None:
    """ "X is famous for Y" / "X became known as Y": an adjective or participle complement
    with prepositions."""
    if comp.pos_ not in ("ADJ", "VERB"):
        return
    for prep in comp.children:
        if prep.dep_ == "prep":
            rtype = (
                verb_predicate(comp, prep.lower_, passive=True)
                if comp.pos_ == "VERB"
                else noun_predicate(comp, prep.lower_)
            )
            for pobj in pobjs(prep):
                for s in subjects:
                    out.add(s, out.ends.of(pobj), rtype, 0.65, "adjective")


def _copula(be: Any, out: Out) -> None:
    """ "X is famous for Y", "X is in Y" (noun complements are nominal relations)."""
    if unreal(be):
        return
    subjects = _subject_ends(be, out.ends)
    if not subjects:
        return
    for child in be.children:
        if child.dep_ == "acomp":
            _complement(child, subjects, out)
        elif child.dep_ == "prep" and child.lower_ in ("in", "from", "on", "at", "near"):
            for target in targets(child, out.ends):
                for s in subjects:
                    out.add(s, target, f"is_{child.lower_}", 0.6, "prep")


def open_relations(doc: Any, mentions: Mentions, noun_phrases: bool = False) -> list[OpenRelation]:
    """Relations stated by a parsed passage (see module docstring). ``mentions`` are the
    extractor's entity names by token; ``noun_phrases``: common noun phrases may be ends (new
    entities of type "thing")."""
    out = Out(Ends(doc, mentions, noun_phrases))
    for sent in doc.sents:
        if sent.text.rstrip().endswith("?"):
            continue
        for tok in sent:
            if tok.pos_ in ("VERB", "AUX") and tok.dep_ not in ("aux", "auxpass"):
                if tok.lemma_ == "be":
                    _copula(tok, out)
                else:
                    _verb(tok, out)
            elif tok.pos_ in ("NOUN", "PROPN"):
                nominal_relations(tok, out)
            elif tok.text == "(":
                life_parenthesis(tok, out)
    return out.relations


def merge_open_relations(
    doc: Any,
    by_token: dict[int, str],
    types: dict[str, str],
    speaker: str | None,
    other: str | None,
    existing: list[ExtractedRelation],
    noun_phrases: bool = False,
) -> tuple[list[ExtractedRelation], dict[str, str]]:
    """The open relations of a parse that the extractor's own relations (``existing``, from
    its precise verb pattern table) do not already state for the same pair of ends, and the new
    entities (common noun phrases: name → type) their ends need. ``noun_phrases``: see
    :func:`open_relations`."""
    found = open_relations(doc, Mentions(by_token, types, speaker, other), noun_phrases)
    pairs = {frozenset((r.source, r.target)) for r in existing}
    out: list[ExtractedRelation] = []
    new: dict[str, str] = {}
    for rel in found:
        if frozenset((rel.source.name, rel.target.name)) in pairs:
            continue
        for end in (rel.source, rel.target):
            if end.name not in types and end.name != speaker:
                new.setdefault(end.name, end.type)
        out.append(ExtractedRelation(rel.source.name, rel.target.name, rel.type, rel.confidence))
    return out, new
