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

from dataclasses import dataclass
from typing import Any

from graph.memory.write.extraction import ExtractedRelation
from graph.memory.write.offline.coref import End, Ends, Mentions, conjuncts
from graph.memory.write.offline.predicates import noun_predicate, verb_predicate

__all__ = ["OpenRelation", "merge_open_relations", "open_relations"]

_NEG_ADV = {"longer", "anymore", "never", "not"}
_MODALS = {"would", "'d", "’d", "might", "could", "should", "may", "must"}
_WISH = {"want", "wanna", "love", "like", "hope", "wish", "plan", "dream", "try", "consider",
         "think", "need", "intend", "aim", "seek", "expect", "refuse", "fail", "decline",
         "propose", "suggest", "ask", "attempt", "threaten", "promise", "offer"}
_NOUN_PREPS = {"of", "in", "at", "for", "from", "to", "on", "with", "by", "into", "near", "about"}
_LOCATIVE = {"in", "at", "near", "on", "within", "across", "throughout"}
_COPULAS = {"be", "become", "remain"}
_NAMED_PREPS = {"from": "is_from", "in": "is_in", "at": "is_at", "near": "is_near",
                "with": "with", "for": "for", "on": "is_on"}


@dataclass(frozen=True)
class OpenRelation:
    """A relation read off the parse: ends, snake_case type, confidence, and the construction
    that produced it (svo, prep, passive, born, nominal, possessive, adjective, is_a)."""

    source: End
    target: End
    type: str
    confidence: float
    construction: str


class _Out:
    def __init__(self, ends: Ends) -> None:
        self.ends = ends
        self.relations: list[OpenRelation] = []
        self._seen: set[tuple[str, str, str]] = set()

    def add(self, source: End | None, target: End | None, rtype: str | None, base: float,
            construction: str) -> None:
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


def _negated(verb: Any) -> bool:
    for c in verb.children:
        if c.dep_ == "neg" or (c.dep_ == "advmod" and c.lower_ in _NEG_ADV):
            return True
        if c.dep_ == "advmod" and any(g.dep_ == "neg" for g in c.children):
            return True
    return False


def _unreal(verb: Any) -> bool:
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
    return _negated(verb)


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
    if verb.dep_ == "advcl" and verb.tag_ in ("VBN", "VBG") and not any(
            c.dep_ == "mark" for c in verb.children):
        return _subject_tokens(verb.head, depth + 1)  # "Based in Wichita, the district…"
    return []


def _subject_ends(verb: Any, ends: Ends) -> list[End]:
    """The ends of a predicate's subjects. A common noun phrase is an end only as the noun a
    participle clause modifies ("psychotherapy developed by…"): as a grammatical subject
    ("Filming began in…", "Ground was broken…") it is mostly an event, not an entity. An
    expletive "it" ("it was announced that…") is nobody."""
    out = []
    for tok, modifier in _subject_tokens(verb):
        if tok.lower_ == "it" and any(c.dep_ in ("ccomp", "xcomp", "csubj") and c.i > verb.i
                                      for c in verb.children):
            continue
        end = ends.of(tok, modifier)
        if end is not None and end.type != "date" and (modifier or end.kind != "phrase"):
            out.append(end)
    return out


def _pobjs(prep: Any) -> list[Any]:
    return [t for c in prep.children if c.dep_ == "pobj" for t in conjuncts(c)]


def _targets(prep: Any, ends: Ends) -> list[End]:
    """The ends a preposition's objects stand for; "in the rainforest of Guadacanal" also
    gives Guadacanal (locative prepositions)."""
    out: list[End] = []
    for pobj in _pobjs(prep):
        end = ends.of(pobj)
        if end is not None:
            out.append(end)
            out += _containers(pobj, end, ends)
        for inner_prep in pobj.children:
            if inner_prep.dep_ != "prep" or inner_prep.lower_ not in ("of", "in"):
                continue
            for inner in (ends.of(t) for t in _pobjs(inner_prep)):
                if inner is None or inner.kind == "phrase":
                    continue
                # "in the rainforest of Guadalcanal" → Guadalcanal; "a member of the Lok Sabha
                # of India" / "in Lunenburg County in Nova Scotia" → also the place
                if (prep.lower_ in _LOCATIVE and (end is None or end.kind == "phrase")) \
                        or inner.type == "place":
                    out.append(End(inner.name, inner.type, inner.weight * 0.85, inner.kind))
    return out


def _targets_of(noun: Any, ends: Ends) -> list[End]:
    """ "one of the New Seven Wonders": the named end after a quantity's "of"."""
    if noun.lemma_.lower() not in ("one", "some", "many", "several", "all", "each", "none"):
        return []
    return [e for prep in noun.children if prep.dep_ == "prep" and prep.lower_ == "of"
            for e in _targets(prep, ends)]


def _containers(tok: Any, end: End, ends: Ends) -> list[End]:
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


def _governed_place(tok: Any, ends: Ends) -> bool:
    """The place is the object of a preposition ("flows through Gary, Indiana") or of a class
    noun ("the town of Kluang, Johor"): the clause's subject is related to both places
    (:func:`_containers`), which says where it is; a separate ``located_in`` between the two
    places is left to where they are the subject ("Gary, Indiana is a city")."""
    node = tok
    for _ in range(3):
        if node.dep_ == "pobj":
            return True
        if node.dep_ not in ("compound", "appos") or node.head.i == node.i:
            return False
        node = node.head
    return False


def _verb(verb: Any, out: _Out) -> None:
    ends = out.ends
    if _unreal(verb):
        return
    subjects = _subject_ends(verb, ends)
    if not subjects:
        return
    passive = _passive(verb)
    lemma = verb.lemma_.lower()
    if passive:  # "X was directed by Y" → Y directed X
        for agent_prep in _agents(verb):
            for agent in _targets(agent_prep, ends):
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
                        for end in _targets(prep, ends):
                            if end.kind != "phrase":
                                for s in subjects:
                                    out.add(s, end, rtype, 0.65, "svo")
        elif dep == "prep":
            rtype = verb_predicate(verb, child.lower_, passive=passive)
            for target in _targets(child, ends):
                for s in subjects:
                    out.add(s, target, rtype, 0.7, "passive" if passive else "prep")
        elif dep in ("acomp", "attr", "oprd") and lemma in _COPULAS:
            _complement(child, subjects, out)
        elif dep in ("oprd", "attr") and child.pos_ in ("NOUN", "PROPN"):
            # "X was declared a World Heritage Site", "was named Y", "was voted one of Z"
            rtype = verb_predicate(verb, "as", passive=passive)
            for comp in conjuncts(child):
                for target in [ends.of(comp), *_targets_of(comp, ends)]:
                    for s in subjects:
                        out.add(s, target, rtype, 0.65, "svo")


def _complement(comp: Any, subjects: list[End], out: _Out) -> None:
    """ "X is famous for Y" / "X became known as Y": an adjective or participle complement
    with prepositions."""
    if comp.pos_ not in ("ADJ", "VERB"):
        return
    for prep in comp.children:
        if prep.dep_ == "prep":
            rtype = verb_predicate(comp, prep.lower_, passive=True) if comp.pos_ == "VERB" \
                else noun_predicate(comp, prep.lower_)
            for pobj in _pobjs(prep):
                for s in subjects:
                    out.add(s, out.ends.of(pobj), rtype, 0.65, "adjective")


def _copula(be: Any, out: _Out) -> None:
    """ "X is famous for Y", "X is in Y" (noun complements are nominal relations)."""
    if _unreal(be):
        return
    subjects = _subject_ends(be, out.ends)
    if not subjects:
        return
    for child in be.children:
        if child.dep_ == "acomp":
            _complement(child, subjects, out)
        elif child.dep_ == "prep" and child.lower_ in ("in", "from", "on", "at", "near"):
            for target in _targets(child, out.ends):
                for s in subjects:
                    out.add(s, target, f"is_{child.lower_}", 0.6, "prep")


def _nominal(noun: Any, out: _Out) -> None:
    """Appositive, copular and possessive relations of a noun that names an entity."""
    ends = out.ends
    if noun.i in ends.mentions.by_token:
        if _under_negation(noun):
            return
        head = noun.head
        if (noun.dep_ == "appos" and head.i in ends.mentions.by_token and head.i < noun.i
                and ends.mentions.types.get(ends.mentions.by_token[noun.i]) == "place"
                and head.nbor(1).text == ","  # "Gary, Indiana", "Guadalcanal, Solomon Islands"
                and not _governed_place(head, ends)):
            out.add(ends.of(head), ends.of(noun), "located_in", 0.6, "nominal")
        if noun.dep_ == "appos":
            return
        _named_preps(noun, ends.of(noun), out)
        return
    same = ends.identity(noun)
    if (same is None and noun.dep_ != "pobj") or (noun.dep_ == "pobj" and noun.head.lower_ != "of"):
        via_class = ends.of(noun)  # "the port of Paloukia in Salamis"
        if via_class is not None and via_class.kind != "phrase" and not _under_negation(noun):
            _named_preps(noun, via_class, out)
    if same is None and not _under_negation(noun):  # "its hub at X" → its owner hub_at X
        owner = next((ends.of(c) for c in noun.children if c.dep_ == "poss"), None)
        if owner is not None and owner.kind != "phrase":
            for prep in noun.children:
                if prep.dep_ == "prep" and prep.lower_ in _NOUN_PREPS - {"of"}:
                    for target in _targets(prep, ends):
                        if target.kind != "phrase":
                            out.add(owner, target, noun_predicate(noun, prep.lower_), 0.6,
                                    "possessive")
    if same is None or _under_negation(noun):
        return
    relational = False
    for child in noun.children:
        if child.dep_ == "prep" and child.lower_ in _NOUN_PREPS:
            rtype = noun_predicate(noun, child.lower_)
            for target in _targets(child, ends):
                relational = True
                out.add(same, target, rtype, 0.7, "nominal")
        elif child.dep_ == "poss":
            relational = True
            out.add(same, ends.of(child), noun_predicate(noun), 0.7, "possessive")
    if relational:
        return  # "X is the capital of Y": X capital_of Y, not X is_a "capital"
    if noun.dep_ in ("attr", "appos") and noun.pos_ == "NOUN" and ends.noun_phrases:
        out.add(same, ends.of(noun), "is_a", 0.55, "is_a")


def _named_preps(noun: Any, named: End | None, out: _Out) -> None:
    """ "Jan Philip Solovej from the University of Copenhagen", "Jackie Chan in New Fist of
    Fury", "the port of Paloukia in Salamis": a name and the named thing its preposition
    introduces (type: the preposition; no common noun phrases)."""
    if named is None:
        return
    for prep in noun.children:
        if prep.dep_ == "prep" and prep.lower_ in _NAMED_PREPS:
            for target in _targets(prep, out.ends):
                if target.kind != "phrase":
                    out.add(named, target, _NAMED_PREPS[prep.lower_], 0.55, "nominal")


def _parenthesis(paren: Any, out: _Out) -> None:
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
        if tok.i in by_token and (tok.i - 1 not in by_token
                                  or by_token[tok.i - 1] != by_token[tok.i]):
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


def _under_negation(noun: Any) -> bool:
    head = noun.head
    return head.i != noun.i and head.pos_ in ("AUX", "VERB") and _unreal(head)


def open_relations(doc: Any, mentions: Mentions, noun_phrases: bool = False
                   ) -> list[OpenRelation]:
    """Relations stated by a parsed passage (see module docstring). ``mentions`` are the
    extractor's entity names by token; ``noun_phrases``: common noun phrases may be ends (new
    entities of type "thing")."""
    out = _Out(Ends(doc, mentions, noun_phrases))
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
                _nominal(tok, out)
            elif tok.text == "(":
                _parenthesis(tok, out)
    return out.relations


def merge_open_relations(doc: Any, by_token: dict[int, str], types: dict[str, str],
                         speaker: str | None, other: str | None,
                         existing: list[ExtractedRelation], noun_phrases: bool = False
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
        out.append(ExtractedRelation(rel.source.name, rel.target.name, rel.type,
                                     rel.confidence))
    return out, new
