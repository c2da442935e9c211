"""Offline extraction of a whole message in Portuguese or Spanish, which the English parser
cannot read: it cuts "Eu me mudei para Lisboa … por causa do escritório" in two and takes
capitalised words at a sentence start for names.

Here sentences are cut at their punctuation (abbreviations and numbers kept), every sentence
becomes one fact whole, names are capitalised word runs (with "de/da/do/dos/das" inside, a
parenthesised short form as alias), and relations come from two sources:

- the Portuguese rules (``portuguese.extract_portuguese``: residence, work, moves, family,
  likes, studies, birth), which rewrite first-person clauses to the speaker;
- open relations between two names of one sentence joined by a short verb phrase ("a Corrente
  do Brasil transporta águas para o Atlântico Sul" → ``transporta_para``).

A sentence without a name of its own is about the last subject named, else the speaker. Pure
(regular expressions only): deterministic and fast, and lower in quality than a parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.memory.text import fold
from graph.memory.write.extract.extraction import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
)
from graph.memory.write.extract.offline.portuguese import extract_portuguese

__all__ = ["Name", "extract_romance", "names_in", "open_relations", "split_sentences"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Sentence ends: . ! ? (and closing quotes or brackets) before a space and an upper-case letter,
# a digit or an opening quote; blank lines; bullets.
_SENTENCE_END = re.compile(
    r"(?<=[.!?…])[\"'”’)\]]{0,3}\s{1,20}(?=[\"'“(\[¿¡]?[A-ZÀ-Ý0-9])|\n[ \t\r]{0,40}\n"
    r"|\n(?=[ \t]{0,20}[-*•]\s)"
)
_ABBREVIATIONS = _words(
    "sr sra srta dr dra prof profa eng av no nº n p pp ex etc al fig figs vol cap sec séc "
    "ltda cia inc jr sto sta ed eds aprox"
)
_NAME_WORD = r"[A-ZÀ-Ý][\wÀ-ÿ'’\-]{0,40}"
_CONNECTOR = r"(?:d[aoe]s?|del|e\s(?=[A-ZÀ-Ý][\wÀ-ÿ]*\s(?:d[aoe]s?\s)?[A-ZÀ-Ý]))"
# A capitalised run of at most 6 words; bounded repeats keep it linear.
_NAME_RUN = re.compile(
    rf"(?<![\wÀ-ÿ\-]){_NAME_WORD}(?:\s{{1,3}}(?:{_CONNECTOR}\s{{1,3}})?{_NAME_WORD}){{0,5}}"
)
_SHORT_FORM = re.compile(r"\s{0,3}\(([A-ZÀ-Ý][\wÀ-ÿ\-]{1,20})\)")
# Capitalised only because a sentence starts with them (folded).
_COMMON_STARTS = _words(
    """a o as os um uma uns umas ao aos à às este esta estes estas esse essa esses essas isto
    isso aquele aquela neste nesta nestes nestas nesse nessa desse dessa deste desta no na nos
    nas em de do da dos das para pra por pelo pela com sem sobre entre durante apos antes depois
    como quando onde que qual quais quem porque se mas e ou eu ele ela eles elas nos voce voces
    meu minha meus minhas seu sua seus suas nosso nossa tambem alem assim ainda ja hoje ontem
    amanha aqui la todos todas cada muitos muitas alguns algumas outro outra outros outras
    resultados results foram foi sao e ha the el la los las un una es y o en para con por
    yo mi mis su sus este esta esto"""
)
_PLACE_WORDS = _words(
    """rio oceano mar baia bacia ilha ilhas praia lagoa estado cidade serra costa golfo estreito
    canal cabo ponta arquipelago plataforma atlantico pacifico indico antartica brasil portugal
    lisboa porto sul norte nordeste sudeste leste oeste"""
)
_ORG_WORDS = _words(
    """universidade instituto empresa sa ltda companhia agencia centro laboratorio programa
    petrobras fundacao ministerio secretaria departamento associacao tech inc marinha
    conselho comissao projeto escola faculdade banco grupo"""
)
_PLACE_BEFORE = re.compile(r"\b(?:em|no|na|nos|nas|para|pra|en)\s+$", re.IGNORECASE)
_PREPOSITION_NEXT = re.compile(r"\s{1,3}(?:em|en|no|na|de|do|da|con|com|para|a|al|por)\b")
_ARTICLES = _words("o a os as um uma el la los las")
_PREPOSITIONS = {
    "de": "de",
    "do": "de",
    "da": "de",
    "dos": "de",
    "das": "de",
    "em": "em",
    "no": "em",
    "na": "em",
    "nos": "em",
    "nas": "em",
    "para": "para",
    "pra": "para",
    "por": "por",
    "pelo": "por",
    "pela": "por",
    "com": "com",
    "a": "a",
    "ao": "a",
    "à": "a",
    "entre": "entre",
    "sobre": "sobre",
    "del": "de",
    "en": "en",
    "con": "con",
}
# Verb forms by ending (3rd person present / past / future / gerund / participle) or a few
# irregular ones; a heuristic for "is there a verb between these two names".
_VERB_END = re.compile(
    r"^[a-zà-ÿ]{2,}(?:ou|aram|eram|iram|ará|arão|erá|erão|irá|irão|ando|endo|indo|ado|ados|ada|"
    r"adas|ida|ido|idos|iu|eu)$|^[a-zà-ÿ]{4,}(?:am|em)$"
)
_IRREGULAR_VERBS = _words(
    "tem têm há possui possuem fica ficam faz fazem vai vão mora vive trabalha estuda gosta "
    "adora liga separa cobre forma inclui incluem contém produz produzem opera operam"
)
_NOT_VERBS = _words(
    "estado estados lado mercado resultado resultados período sentido conteúdo partido "
    "também porém além alguém ninguém vida medida década entrada saída corrida camada "
    "estrada temporada chegada enseada jornada quantidade cidade unidade"
)
# ", subsidiária da", ", a empresa de": a name, then what it is of the next name.
_APPOSITION = re.compile(
    r"\s{0,3},\s{0,3}(?:(?:[oa]s?|um|uma)\s{1,3})?([a-zà-ÿ]{3,30})\s{1,3}(d[aoe]s?|em|n[oa]s?)\s{0,3}"
)
_COPULAS = _words("é são foi foram está estão era eram será serão es")
_MAX_GAP_WORDS = 10


@dataclass(frozen=True)
class Name:
    """A name found in a sentence: its text, where it starts and ends, a guessed type and the
    parenthesised short form that followed it, if any."""

    text: str
    start: int
    end: int
    type: str
    alias: str | None = None


def split_sentences(text: str) -> list[str]:
    """Sentences cut at their end punctuation; "Dr. Silva", "45.000" and "et al." stay whole."""
    pieces = [p.strip() for p in _SENTENCE_END.split(text) if p and p.strip()]
    out: list[str] = []
    for piece in pieces:
        last = out[-1].rstrip(".").rsplit(None, 1)[-1] if out else ""
        if out and out[-1].endswith(".") and fold(last) in _ABBREVIATIONS:
            out[-1] = f"{out[-1]} {piece}"
        elif out and out[-1].endswith(".") and len(last) == 1 and last.isupper():
            out[-1] = f"{out[-1]} {piece}"  # an initial: "J. Silva"
        else:
            out.append(piece)
    return out


def _entity_type(name: str, before: str) -> str:
    words = set(fold(name).split())
    if words & _ORG_WORDS:
        return "organization"
    if words & _PLACE_WORDS or _PLACE_BEFORE.search(before):
        return "place"
    return "thing"


def names_in(sentence: str) -> list[Name]:
    """The capitalised names of one sentence, in order. A run's leading words that are only
    capitalised because they start the sentence ("Este", "A") are dropped."""
    out: list[Name] = []
    short_forms: set[int] = set()  # where a parenthesised short form of the last name starts
    for m in _NAME_RUN.finditer(sentence):
        if m.start() in short_forms:
            continue
        words = m.group(0).split()
        start = m.start()
        if m.start() == 0 and len(words) == 1 and _PREPOSITION_NEXT.match(sentence, m.end()):
            continue  # "Vivo en Madrid", "Moro em…": a verb starting the sentence
        while words and (m.start() == 0 or start == 0) and fold(words[0]) in _COMMON_STARTS:
            start = sentence.index(words[1], start) if len(words) > 1 else m.end()
            words = words[1:]
        while words and fold(words[-1]) in _PREPOSITIONS:
            words = words[:-1]
        if not words:
            continue
        text = " ".join(words)
        end = start + len(text) if sentence[start : start + len(text)] == text else m.end()
        if len(text) < 2 or text.isdigit():
            continue
        short = _SHORT_FORM.match(sentence, m.end())
        alias = short.group(1) if short and short.group(1) != text else None
        if short:
            short_forms.add(short.start(1))
        out.append(Name(text, start, end, _entity_type(text, sentence[:start]), alias))
    return out


def _is_verb(word: str) -> bool:
    """A verb form by its ending or a few irregular ones; "é", "está" and other copulas are
    not verbs here (the word after them says more)."""
    if word in _COPULAS or word in _NOT_VERBS:
        return False
    return word in _IRREGULAR_VERBS or bool(_VERB_END.match(word))


def _relation_type(gap: str) -> str | None:
    """The verb phrase between two names as a relation type ("transporta águas para o" →
    ``transporta_para``), an apposition's noun (", subsidiária da" → ``subsidiaria_de``), or
    None when the gap holds neither."""
    apposition = _APPOSITION.fullmatch(gap.lower())
    if apposition and apposition.group(1) not in _PREPOSITIONS:
        return fold(f"{apposition.group(1)}_{_PREPOSITIONS[apposition.group(2)]}")
    words = [w for w in re.findall(r"[\wÀ-ÿ]+", gap.lower()) if w not in _ARTICLES]
    if not words or len(words) > _MAX_GAP_WORDS:
        return None
    verbs = [i for i, w in enumerate(words) if _is_verb(w)]
    if not verbs:
        return None
    verb = verbs[-1]  # "está localizada em", "foi descoberto por": the participle
    head = words[verb]
    if verb > 0 and words[verb - 1] == "se":
        head = f"se_{head}"
    prep = next((_PREPOSITIONS[w] for w in reversed(words[verb + 1 :]) if w in _PREPOSITIONS), None)
    slug = fold(head if prep is None else f"{head}_{prep}").replace(" ", "_")
    return slug if re.fullmatch(r"[a-z][a-z0-9_]{0,63}", slug) else None


def open_relations(sentence: str, names: list[Name]) -> list[ExtractedRelation]:
    """Relations between the names of a sentence: from each name to the next one (or, when
    those two are not joined, the one after) that a short verb phrase or an apposition joins
    (at most ``_MAX_GAP_WORDS`` words, no semicolon, colon or bracket between them)."""
    out: list[ExtractedRelation] = []
    for i, left in enumerate(names):
        for right in names[i + 1 : i + 3]:
            gap = sentence[left.end : right.start]
            if re.search(r"[;:()]", gap) or fold(left.text) == fold(right.text):
                continue
            rtype = _relation_type(gap)
            if rtype is not None:
                out.append(ExtractedRelation(left.text, right.text, rtype, 0.6))
                break
    return out


def _first_person(sentence: str) -> bool:
    """ "Eu …", "Yo …", or a verb then a preposition ("Moro em…", "Vivo en…")."""
    return bool(
        re.match(r"\s{0,5}(?:eu|yo)\b", sentence, re.IGNORECASE)
        or re.match(r"\s{0,5}[A-ZÀ-Ý][a-zà-ÿ]{1,30}o" + _PREPOSITION_NEXT.pattern, sentence)
    )


def extract_romance(message: str, speaker: str) -> Extraction:
    """Facts, names and relations of a Portuguese or Spanish message (see the module
    docstring)."""
    ex = Extraction()
    subject = speaker
    types: dict[str, str] = {}
    aliases: dict[str, list[str]] = {}
    for sentence in split_sentences(message):
        names = [n for n in names_in(sentence) if fold(n.text) != fold(speaker)]
        for n in names:
            types.setdefault(n.text, n.type)
            if n.alias:
                aliases.setdefault(n.text, []).append(n.alias)
        if extract_portuguese(sentence, speaker, ex):  # its clauses, facts and relations
            subject = ex.facts[-1].subject if ex.facts else subject
            continue
        if _first_person(sentence):
            subject = speaker
        elif names:
            subject = names[0].text
        text = sentence if sentence.endswith((".", "!", "?", "…")) else sentence + "."
        if len(text) >= 10:
            ex.facts.append(ExtractedFact(text, subject, 0.7))
        ex.relations += open_relations(sentence, names)
    known = {fold(e.name) for e in ex.entities}
    used = {r.source for r in ex.relations} | {r.target for r in ex.relations}
    used |= {f.subject for f in ex.facts}
    for name, etype in types.items():
        if name in used and fold(name) not in known and name != speaker:
            ex.entities.append(ExtractedEntity(name, etype, aliases.get(name, [])))
            known.add(fold(name))
    known.add(fold(speaker))
    ex.relations = [r for r in ex.relations if fold(r.source) in known and fold(r.target) in known]
    return ex
