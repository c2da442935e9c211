"""Relation type names for open relations from a parse (pure).

A relation type is a snake_case predicate that reads left to right between its ends, the same
whatever the tense of the sentence: a verb in its simple past ("Y directed X", "wrote",
"founded"), its particle and preposition appended ("took_over", "played_for"); a passive
without an agent keeps the participle ("born_in", "located_in", "known_as"); a noun predicate
is its lemma and preposition ("capital_of", "son_of", "part_of").
"""

from __future__ import annotations

import re
from typing import Any

from graph.memory.text import normalize_relation_type

__all__ = ["noun_predicate", "participle", "past", "verb_predicate"]

# lemma → (simple past, past participle) of the irregular verbs that matter in encyclopedic and
# conversational text.
_IRREGULAR: dict[str, tuple[str, str]] = {
    "be": ("was", "been"),
    "have": ("had", "had"),
    "do": ("did", "done"),
    "bear": ("bore", "born"),
    "become": ("became", "become"),
    "begin": ("began", "begun"),
    "break": ("broke", "broken"),
    "bring": ("brought", "brought"),
    "build": ("built", "built"),
    "buy": ("bought", "bought"),
    "catch": ("caught", "caught"),
    "choose": ("chose", "chosen"),
    "come": ("came", "come"),
    "draw": ("drew", "drawn"),
    "drive": ("drove", "driven"),
    "eat": ("ate", "eaten"),
    "fall": ("fell", "fallen"),
    "feel": ("felt", "felt"),
    "fight": ("fought", "fought"),
    "find": ("found", "found"),
    "fly": ("flew", "flown"),
    "forget": ("forgot", "forgotten"),
    "freeze": ("froze", "frozen"),
    "get": ("got", "gotten"),
    "give": ("gave", "given"),
    "go": ("went", "gone"),
    "grow": ("grew", "grown"),
    "hang": ("hung", "hung"),
    "hear": ("heard", "heard"),
    "hide": ("hid", "hidden"),
    "hold": ("held", "held"),
    "keep": ("kept", "kept"),
    "know": ("knew", "known"),
    "lay": ("laid", "laid"),
    "lead": ("led", "led"),
    "leave": ("left", "left"),
    "lend": ("lent", "lent"),
    "lie": ("lay", "lain"),
    "lose": ("lost", "lost"),
    "make": ("made", "made"),
    "mean": ("meant", "meant"),
    "meet": ("met", "met"),
    "pay": ("paid", "paid"),
    "ride": ("rode", "ridden"),
    "ring": ("rang", "rung"),
    "rise": ("rose", "risen"),
    "run": ("ran", "run"),
    "say": ("said", "said"),
    "see": ("saw", "seen"),
    "sell": ("sold", "sold"),
    "send": ("sent", "sent"),
    "shake": ("shook", "shaken"),
    "shoot": ("shot", "shot"),
    "show": ("showed", "shown"),
    "sing": ("sang", "sung"),
    "sink": ("sank", "sunk"),
    "sit": ("sat", "sat"),
    "sleep": ("slept", "slept"),
    "speak": ("spoke", "spoken"),
    "spend": ("spent", "spent"),
    "stand": ("stood", "stood"),
    "steal": ("stole", "stolen"),
    "strike": ("struck", "struck"),
    "swim": ("swam", "swum"),
    "take": ("took", "taken"),
    "teach": ("taught", "taught"),
    "tell": ("told", "told"),
    "think": ("thought", "thought"),
    "throw": ("threw", "thrown"),
    "understand": ("understood", "understood"),
    "wear": ("wore", "worn"),
    "win": ("won", "won"),
    "write": ("wrote", "written"),
    "set": ("set", "set"),
    "put": ("put", "put"),
    "cut": ("cut", "cut"),
    "let": ("let", "let"),
    "hit": ("hit", "hit"),
    "cost": ("cost", "cost"),
    "shut": ("shut", "shut"),
    "spread": ("spread", "spread"),
    "read": ("read", "read"),
    "feed": ("fed", "fed"),
    "bind": ("bound", "bound"),
    "seek": ("sought", "sought"),
    "split": ("split", "split"),
    "undergo": ("underwent", "undergone"),
    "withdraw": ("withdrew", "withdrawn"),
    "overtake": ("overtook", "overtaken"),
    "forbid": ("forbade", "forbidden"),
    "arise": ("arose", "arisen"),
    "awake": ("awoke", "awoken"),
    "dig": ("dug", "dug"),
    "flee": ("fled", "fled"),
    "light": ("lit", "lit"),
    "slide": ("slid", "slid"),
    "stick": ("stuck", "stuck"),
    "sweep": ("swept", "swept"),
    "swing": ("swung", "swung"),
    "tear": ("tore", "torn"),
    "wake": ("woke", "woken"),
    "weave": ("wove", "woven"),
    "wind": ("wound", "wound"),
    "beat": ("beat", "beaten"),
    "bite": ("bit", "bitten"),
    "blow": ("blew", "blown"),
    "deal": ("dealt", "dealt"),
    "dream": ("dreamed", "dreamed"),
    "foresee": ("foresaw", "foreseen"),
    "overcome": ("overcame", "overcome"),
    "rebuild": ("rebuilt", "rebuilt"),
    "retell": ("retold", "retold"),
    "rewrite": ("rewrote", "rewritten"),
    "uphold": ("upheld", "upheld"),
    "withhold": ("withheld", "withheld"),
    "broadcast": ("broadcast", "broadcast"),
    "forecast": ("forecast", "forecast"),
}
_DOUBLE = re.compile(r"^(?:[^aeiou]*[aeiou])([bdgmnprt])$")  # stop → stopped, plan → planned
# Verbs stressed on a last short syllable double it too: refer → referred.
_DOUBLED = {
    "refer",
    "prefer",
    "occur",
    "transfer",
    "admit",
    "commit",
    "permit",
    "control",
    "compel",
    "expel",
    "propel",
    "rebel",
    "regret",
    "omit",
    "submit",
    "equip",
    "deter",
    "incur",
    "recur",
    "confer",
    "defer",
    "infer",
    "acquit",
    "patrol",
    "enrol",
    "dispel",
    "excel",
    "repel",
    "emit",
    "transmit",
    "remit",
    "upset",
    "abhor",
}
_NO_DOUBLE = {
    "open",
    "visit",
    "offer",
    "enter",
    "happen",
    "develop",
    "edit",
    "limit",
    "consider",
    "order",
    "answer",
    "differ",
    "suffer",
    "gather",
    "cover",
    "govern",
    "listen",
    "threaten",
    "number",
    "render",
    "wonder",
    "remember",
    "deliver",
    "target",
    "market",
    "benefit",
    "credit",
    "exhibit",
    "inherit",
    "audit",
}


def past(lemma: str) -> str:
    """Simple past of a verb lemma: "direct" → "directed", "write" → "wrote"."""
    lemma = lemma.lower()
    if lemma in _IRREGULAR:
        return _IRREGULAR[lemma][0]
    if not lemma.isalpha():
        return lemma
    if lemma.endswith("e"):
        return lemma + "d"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ied"
    if lemma.endswith("c"):
        return lemma + "ked"
    if lemma in _DOUBLED or (len(lemma) <= 4 and lemma not in _NO_DOUBLE and _DOUBLE.match(lemma)):
        return lemma + lemma[-1] + "ed"
    return lemma + "ed"


def participle(lemma: str) -> str:
    """Past participle of a verb lemma: "bear" → "born", "locate" → "located"."""
    lemma = lemma.lower()
    if lemma in _IRREGULAR:
        return _IRREGULAR[lemma][1]
    return past(lemma)


def _join(*parts: str | None) -> str | None:
    return normalize_relation_type("_".join(p for p in parts if p))


def verb_predicate(
    verb: Any, prep: str | None = None, passive: bool = False, noun: str | None = None
) -> str | None:
    """``verb`` (a spaCy token) as a relation type: past (active) or participle (passive, no
    agent), then its particle, an object noun of a light verb ("made_debut_for"), the
    preposition."""
    lemma = verb.lemma_.lower() if verb.lemma_ else verb.lower_
    if lemma == "bear" or verb.lower_ == "born":
        form = "born"
    elif verb.tag_ in ("VBD", "VBN") and lemma not in _IRREGULAR and verb.is_alpha:
        form = verb.lower_  # regular: the sentence's own past form ("referred", "occurred")
    elif passive:
        form = participle(lemma)
    else:
        form = past(lemma)
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
    return _join(form, particle, noun, prep)


def noun_predicate(noun: Any, prep: str | None = "of") -> str | None:
    """A relational noun as a relation type: "capital" + "of" → "capital_of"."""
    lemma = noun.lemma_.lower() if noun.lemma_ else noun.lower_
    return _join(lemma, prep)
