"""Offline extraction, Portuguese: rules for simple first- and third-person sentences ("Moro em
Curitiba e trabalho na Acme.", "Pedro mora em Porto Alegre", "Me mudei para São Paulo").

The English model cannot parse Portuguese, so a few verb patterns give the relations, and the
sentence is cut at each matched verb so that every clause becomes its own fact with the subject
stated ("Ana mora em Curitiba." / "Ana trabalha na Acme."), first person rewritten to the
speaker with third-person verb forms.
"""

from __future__ import annotations

import re

from graph.memory.write.extract.extraction import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
)

__all__ = ["extract_portuguese"]

# A capitalised name of at most 6 words starting at a word start: bounded repeats keep every
# rule linear (an unbounded word repeat made "Aa Aa Aa …" quadratic, 1.7 s at 12k chars).
_NAME = (
    r"((?<![\wÀ-ÿ\-])[A-ZÀ-Ý][\wÀ-ÿ\-]{1,40}"
    r"(?:\s{1,3}(?:d[aoe]s?\s{1,3})?[A-ZÀ-Ý][\wÀ-ÿ\-]{1,40}){0,5})"
)
_OBJ = r"\s+(?:[oa]\s+)?" + _NAME
# (pattern, relation, target type, retraction, subject): subject "speaker" for first-person
# verbs, "named" when group 1 is the subject's name, "inherit" for a verb continuing the
# clause ("Pedro mora em X e trabalha na Y" → Pedro).
_PT_RULES: tuple[tuple[re.Pattern[str], str, str, bool, str], ...] = (
    (
        re.compile(r"\bnão\s+(?:moro|vivo)\s+mais\s+(?:em|no|na)" + _OBJ),
        "lives_in",
        "place",
        True,
        "speaker",
    ),
    (
        re.compile(r"\bnão\s+trabalho\s+mais\s+(?:na|no|em|para|pra)" + _OBJ),
        "works_at",
        "organization",
        True,
        "speaker",
    ),
    (
        re.compile(r"(?<!não )\b(?:moro|vivo)\s+(?:em|no|na)" + _OBJ),
        "lives_in",
        "place",
        False,
        "speaker",
    ),
    (
        re.compile(r"\b(?:me\s+)?mudei\s+(?:para|pra|pro)" + _OBJ),
        "lives_in",
        "place",
        False,
        "speaker",
    ),
    (
        re.compile(r"(?<!não )\btrabalho\s+(?:na|no|em|para|pra)" + _OBJ),
        "works_at",
        "organization",
        False,
        "speaker",
    ),
    (re.compile(r"\bsou\s+casad[oa]\s+com" + _OBJ), "married_to", "person", False, "speaker"),
    (
        re.compile(_NAME + r"\s+(?:mora|vive)\s+(?:em|no|na)" + _OBJ),
        "lives_in",
        "place",
        False,
        "named",
    ),
    (
        re.compile(_NAME + r"\s+trabalha\s+(?:na|no|em|para|pra)" + _OBJ),
        "works_at",
        "organization",
        False,
        "named",
    ),
    (
        re.compile(_NAME + r"\s+(?:se\s+)?mudou\s+(?:para|pra|pro)" + _OBJ),
        "lives_in",
        "place",
        False,
        "named",
    ),
    (
        re.compile(r"\be\s+(?:mora|vive)\s+(?:em|no|na)" + _OBJ),
        "lives_in",
        "place",
        False,
        "inherit",
    ),
    (
        re.compile(r"\be\s+trabalha\s+(?:na|no|em|para|pra)" + _OBJ),
        "works_at",
        "organization",
        False,
        "inherit",
    ),
    (
        re.compile(r"\bentrei\s+(?:na|no|em|para)" + _OBJ),
        "works_at",
        "organization",
        False,
        "speaker",
    ),
    (
        re.compile(r"\bsaí\s+(?:da|do|de)" + _OBJ),
        "former_employee_of",
        "organization",
        False,
        "speaker",
    ),
    (re.compile(r"\bnasci\s+(?:em|no|na)" + _OBJ), "born_in", "place", False, "speaker"),
    (re.compile(_NAME + r"\s+nasceu\s+(?:em|no|na)" + _OBJ), "born_in", "place", False, "named"),
    (
        re.compile(r"\b(?:estudo|estudei)\s+(?:em|no|na)" + _OBJ),
        "studies_at",
        "organization",
        False,
        "speaker",
    ),
    (
        re.compile(_NAME + r"\s+(?:estuda|estudou)\s+(?:em|no|na)" + _OBJ),
        "studies_at",
        "organization",
        False,
        "named",
    ),
    (
        re.compile(r"\b(?:gosto\s+(?:muito\s+)?d[eoa]s?|adoro|amo)" + _OBJ),
        "likes",
        "thing",
        False,
        "speaker",
    ),
    (
        re.compile(_NAME + r"\s+(?:gosta\s+(?:muito\s+)?d[eoa]s?|adora|ama)" + _OBJ),
        "likes",
        "thing",
        False,
        "named",
    ),
    (
        re.compile(_NAME + r"\s+(?:é|está)\s+casad[oa]\s+com" + _OBJ),
        "married_to",
        "person",
        False,
        "named",
    ),
)
# Family words: "minha irmã Helena" (the speaker's) and "Helena é irmã de Pedro" give a
# relation without cutting the sentence. (word → relation type, the relative is the target
# when True, else the source): "my mother X" → speaker child_of X, "my son X" → speaker
# parent_of X, as in English.
_FAMILY: dict[str, str] = {
    "irmã": "sibling_of",
    "irmão": "sibling_of",
    "mãe": "child_of",
    "pai": "child_of",
    "filha": "parent_of",
    "filho": "parent_of",
    "esposa": "spouse_of",
    "marido": "spouse_of",
    "mulher": "spouse_of",
    "namorada": "dating",
    "namorado": "dating",
    "prima": "cousin_of",
    "primo": "cousin_of",
    "amiga": "friend_of",
    "amigo": "friend_of",
    "chefe": "reports_to",
    "colega": "colleague_of",
}
_FAMILY_WORD = "(" + "|".join(_FAMILY) + ")"
_MY_RELATIVE = re.compile(r"\b(?:minha|meu)\s+" + _FAMILY_WORD + r"(?:\s*,)?\s+" + _NAME)
_RELATIVE_OF = re.compile(
    _NAME + r"\s+é\s+(?:[oa]\s+)?(?:\w+\s+)?" + _FAMILY_WORD + r"\s+d[eoa]s?\s+" + _NAME
)
# The inverse reading of "X é mãe de Y": Y child_of X; "X é filho de Y": Y parent_of X.
_INVERSE = {"child_of": "parent_of", "parent_of": "child_of", "reports_to": "manages"}
_PT_HINT = re.compile(
    r"\b(eu|moro|mudei|mudou|trabalho|sou|não|nao|minha|meu|estou|vivo|mora|vive|"
    r"trabalha|nasci|nasceu|estudo|estuda|estudei|estudou|gosto|gosta|adoro|adora|entrei|"
    r"entrou|saí|saiu|casad[oa]|" + "|".join(_FAMILY) + r")\b",
    re.IGNORECASE,
)
_PT_VERBS = (
    (r"\bme mudei\b", "se mudou"),
    (r"\bmudei\b", "se mudou"),
    (r"\bmoro\b", "mora"),
    (r"\bvivo\b", "vive"),
    (r"\btrabalho\b", "trabalha"),
    (r"\bsou\b", "é"),
    (r"\bestou\b", "está"),
    (r"\btenho\b", "tem"),
    (r"\bgosto\b", "gosta"),
    (r"\badoro\b", "adora"),
    (r"\bamo\b", "ama"),
    (r"\bnasci\b", "nasceu"),
    (r"\bestudo\b", "estuda"),
    (r"\bestudei\b", "estudou"),
    (r"\bentrei\b", "entrou"),
    (r"\bsaí\b", "saiu"),
    (r"\bmorei\b", "morou"),
    (r"\btrabalhei\b", "trabalhou"),
    (r"\bminha\b", "sua"),
    (r"\bmeu\b", "seu"),
)


def extract_portuguese(sentence: str, speaker: str, ex: Extraction) -> bool:
    """Rule-based extraction for simple Portuguese sentences; True when a rule matched. The
    sentence is cut before every matched verb: each clause becomes one fact with its own
    subject, and each non-negated match one relation."""
    if not _PT_HINT.search(sentence):
        return False
    sentence = sentence.strip()
    first = sentence.split(" ", 1)[0]
    if _PT_HINT.fullmatch(first) or first.lower() == "me":  # "Sou casado…", "Moro em…"
        sentence = sentence[0].lower() + sentence[1:]
    _family_relations(sentence, speaker, ex)
    hits: list[tuple[int, str, str, str, str, bool]] = []
    for pattern, rtype, ttype, retract, subject_kind in _PT_RULES:
        for m in pattern.finditer(sentence):
            subject = m.group(1) if subject_kind == "named" else subject_kind
            hits.append((m.start(), subject, m.group(m.lastindex or 1), rtype, ttype, retract))
    if not hits:
        return False
    hits.sort()
    starts = [0, *[h[0] for h in hits[1:]], len(sentence)]
    subjects: list[str] = []
    for n, (_, kind, target, rtype, ttype, retract) in enumerate(hits):
        subject = (
            speaker
            if kind == "speaker"
            else ((subjects[-1] if subjects else speaker) if kind == "inherit" else kind)
        )
        subjects.append(subject)
        clause = _clause_text(sentence[starts[n] : starts[n + 1]], kind, subject)
        if clause:
            ex.facts.append(ExtractedFact(clause, subject, 0.8, retraction=retract))
        if subject == target:
            continue
        for name, etype in ((subject, "person"), (target, ttype)):
            if name != speaker and all(e.name != name for e in ex.entities):
                ex.entities.append(ExtractedEntity(name, etype))
        if not retract:
            ex.relations.append(ExtractedRelation(subject, target, rtype, 0.8))
    return True


def _add_entity(ex: Extraction, name: str, etype: str, speaker: str) -> None:
    if name != speaker and all(e.name != name for e in ex.entities):
        ex.entities.append(ExtractedEntity(name, etype))


def _family_relations(sentence: str, speaker: str, ex: Extraction) -> None:
    """ "minha irmã Helena" → speaker sibling_of Helena; "Helena é irmã de Pedro" → Helena
    sibling_of Pedro ("X é mãe de Y" → Y child_of X)."""
    for m in _MY_RELATIVE.finditer(sentence):
        _add_entity(ex, m.group(2), "person", speaker)
        ex.relations.append(
            ExtractedRelation(speaker, m.group(2), _FAMILY[m.group(1).lower()], 0.8)
        )
    for m in _RELATIVE_OF.finditer(sentence):
        who, word, of = m.group(1), m.group(2).lower(), m.group(3)
        rtype = _FAMILY[word]
        for name in (who, of):
            _add_entity(ex, name, "person", speaker)
        if rtype in _INVERSE:
            ex.relations.append(ExtractedRelation(of, who, rtype, 0.8))
        else:
            ex.relations.append(ExtractedRelation(who, of, rtype, 0.8))


def _clause_text(segment: str, kind: str, subject: str) -> str:
    """One clause as a self-contained fact: joining "e"/commas trimmed, subject stated, first
    person rewritten to the subject with third-person verb forms."""
    text = re.sub(r"(?:[\s,;]+e)?[\s,;.!]*$", "", segment.strip())
    text = re.sub(r"^(?:e|mas)\s+", "", text)
    # "minha irmã Helena trabalha…": the clause is about Helena (the family relation says whose).
    text = re.sub(r"^(?:minha|meu)\s+" + _FAMILY_WORD + r"\s*,?\s+(?=[A-ZÀ-Ý])", "", text)
    if kind == "speaker":
        text = re.sub(r"^[Ee]u\b\s*", "", text)
        for pat, repl in _PT_VERBS:
            text = re.sub(pat, repl, text)
        text = f"{subject} {text}"
    elif kind == "inherit":
        text = f"{subject} {text}"
    return text + "." if len(text) > len(subject) + 1 else ""
