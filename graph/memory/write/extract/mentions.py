"""The names an extraction mentions — its entities first, then the subjects and relation ends
it did not list — with their hints stripped ("Carol (Rafael's girlfriend)" → Carol, a person):
what the resolution stage resolves, embedded with the facts in one call."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graph.memory.text import fold
from graph.memory.write.extract.extraction import Extraction

__all__ = ["RELATIONSHIP_TERMS", "Mention", "collect_mentions", "strip_hint"]

# A bare relationship word as an entity name ("Mom lives in Curitiba") means "the speaker's
# mom": it resolves to one entity per speaker and term ("Rafael's mom"), never to the speaker
# (that would move the speaker to Curitiba); a merge can later join it with her real name.
RELATIONSHIP_TERMS = frozenset(
    {
        "girlfriend",
        "boyfriend",
        "wife",
        "husband",
        "partner",
        "brother",
        "sister",
        "mother",
        "father",
        "mom",
        "dad",
        "friend",
        "boss",
        "son",
        "daughter",
        "namorada",
        "namorado",
        "esposa",
        "marido",
        "amigo",
        "amiga",
        "irmao",
        "irma",
        "mae",
        "pai",
        "chefe",
    }
)
# Greedy name (stripped afterwards): a lazy name followed by ``\s*`` is quadratic on spaces.
_HINT = re.compile(r"^(?P<name>[^()]+)\((?P<hint>[^)]*)\)\s*$")
_POSSESSIVE_HINT = re.compile(r"('s|’s)\s|\bde\b|\bdo\b|\bda\b", re.IGNORECASE)


def strip_hint(name: str) -> tuple[str, bool]:
    """ "Carol (Rafael's girlfriend)" → ("Carol", True): a relational hint forces a person."""
    m = _HINT.match(name)
    if not m:
        return name.strip(), False
    hint = m.group("hint")
    relational = bool(_POSSESSIVE_HINT.search(hint + " ")) or fold(hint) in RELATIONSHIP_TERMS
    return m.group("name").strip(), relational


@dataclass
class Mention:
    surface: str
    type: str
    aliases: list[str] = field(default_factory=list)


def collect_mentions(ex: Extraction) -> list[Mention]:
    """Every distinct name of the extraction (entities first, then subjects and relation
    endpoints that the model did not list), hints stripped."""
    out: list[Mention] = []
    seen: set[str] = set()
    for ent in ex.entities:
        name, relational = strip_hint(ent.name)
        if fold(name) in seen or not fold(name):
            continue
        seen.add(fold(name))
        seen.update(fold(a) for a in ent.aliases)
        out.append(Mention(name, "person" if relational else ent.type, list(ent.aliases)))
    extra = [f.subject for f in ex.facts] + [n for r in ex.relations for n in (r.source, r.target)]
    for raw in extra:
        name, relational = strip_hint(raw)
        if fold(name) and fold(name) not in seen:
            seen.add(fold(name))
            out.append(Mention(name, "person" if relational else "thing"))
    return out
