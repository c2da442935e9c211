"""Which declared type an extracted type is (pure decisions on names).

Both extraction paths give free-form types: an LLM writes "client" or "purchased", the offline
extractor a verb in its simple past ("bought", "subscribed_to") and spaCy's entity kinds. Under
a strict ontology each is mapped, in this order, to:

1. the declared type of that name;
2. the relation type whose ``inverse`` it is (the relation is then turned around);
3. the type that lists it in ``aliases`` (the operator's editable table);
4. the type whose name, inverse or alias has the same stem ("owned" and "owns", "bought" and
   "buy", "subscribes_to" and "subscribed_to");
5. the closest spelling (a typo: "recieved_from"), above :data:`SPELLING_CUTOFF`;
6. for an entity, a word of its name that names a type ("the Pro subscription" →
   ``subscription``), else the root ``thing``; a relation is dropped.

A relation must also fit its declared ends: an end whose type is an ancestor of exactly one
allowed type (a ``person`` where a ``customer`` is asked for, an untyped ``thing``) is refined
to that type; any other misfit drops the relation. Every mapping, refinement and drop carries
the reason the write result's warnings show. An open ontology keeps undeclared types as they
are and checks only what it declares.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from graph.memory.ontology.model import ROOT_TYPE, Ontology, RelationType
from graph.memory.text import slugify

__all__ = [
    "SPELLING_CUTOFF",
    "EndFit",
    "RelationDecision",
    "TypeDecision",
    "fit_ends",
    "map_entity_type",
    "map_relation_type",
    "stem",
]

SPELLING_CUTOFF = 0.85

# Simple past / participle → lemma of the irregular verbs extraction meets most.
_IRREGULAR = {
    "bought": "buy", "sold": "sell", "paid": "pay", "had": "have", "has": "have",
    "made": "make", "gave": "give", "given": "give", "got": "get", "gotten": "get",
    "took": "take", "taken": "take", "sent": "send", "met": "meet", "left": "leave",
    "led": "lead", "wrote": "write", "written": "write", "found": "find", "built": "build",
    "began": "begin", "begun": "begin", "born": "bear", "bore": "bear", "became": "become",
    "brought": "bring", "kept": "keep", "held": "hold", "knew": "know", "known": "know",
    "ran": "run", "saw": "see", "seen": "see", "spoke": "speak", "spoken": "speak",
    "told": "tell", "thought": "think", "won": "win", "lost": "lose", "went": "go",
    "gone": "go", "is": "be", "was": "be", "were": "be", "been": "be", "are": "be",
}  # fmt: skip


@dataclass(frozen=True)
class TypeDecision:
    """An entity's type under the ontology; ``reason`` is empty when nothing changed."""

    type: str
    reason: str = ""


@dataclass(frozen=True)
class RelationDecision:
    """A relation's type under the ontology: ``type`` None when it is dropped; ``turned`` when
    the extraction named the inverse (store it from the target to the source)."""

    type: str | None
    turned: bool = False
    reason: str = ""


@dataclass(frozen=True)
class EndFit:
    """Whether a relation fits its declared ends: ``ok`` False drops it; a refined end names
    the type its entity is given (None: unchanged)."""

    ok: bool
    source: str | None = None
    target: str | None = None
    reason: str = ""


def stem(name: str) -> str:
    """A crude English stem per word of a snake_case name, the same for a verb's forms:
    "owned" / "owns" / "own" → "own", "subscribed_to" / "subscribes_to" → "subscrib_to"."""
    return "_".join(_stem_word(w) for w in name.split("_") if w)


def _stem_word(word: str) -> str:
    word = _IRREGULAR.get(word, word)
    for suffix in ("ies", "ied"):
        if word.endswith(suffix) and len(word) > 4:
            return word[: -len(suffix)] + "y"
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]  # "stopped" → "stopp" → "stop"
    return word.removesuffix("e") if len(word) > 3 else word


@lru_cache(maxsize=64)
def _relation_names(ontology: Ontology) -> dict[str, tuple[str, bool, str]]:
    """Every name a relation type answers to → (type, turned, how)."""
    names: dict[str, tuple[str, bool, str]] = {}
    for r in ontology.relation_types:
        names.setdefault(r.name, (r.name, False, "declared"))
    for r in ontology.relation_types:
        if r.inverse and r.inverse != r.name:
            names.setdefault(r.inverse, (r.name, True, f"the inverse of {r.name!r}"))
        for alias in r.aliases:
            names.setdefault(alias, (r.name, False, f"an alias of {r.name!r}"))
    return names


@lru_cache(maxsize=64)
def _entity_names(ontology: Ontology) -> dict[str, tuple[str, str]]:
    names: dict[str, tuple[str, str]] = {
        t.name: (t.name, "declared") for t in ontology.entity_types
    }
    for t in ontology.entity_types:
        for alias in t.aliases:
            names.setdefault(alias, (t.name, f"an alias of {t.name!r}"))
    return names


def _by_stem(raw: str, names: Mapping[str, tuple[Any, ...]]) -> tuple[str, tuple[Any, ...]] | None:
    wanted = stem(raw)
    hits = sorted(n for n in names if stem(n) == wanted)
    return (hits[0], names[hits[0]]) if hits else None


def _by_spelling(
    raw: str, names: Mapping[str, tuple[Any, ...]]
) -> tuple[str, tuple[Any, ...]] | None:
    close = difflib.get_close_matches(raw, sorted(names), n=1, cutoff=SPELLING_CUTOFF)
    return (close[0], names[close[0]]) if close else None


def map_relation_type(ontology: Ontology, raw: str) -> RelationDecision:
    """The declared relation type an extracted ``raw`` type is (see the module's order)."""
    names = _relation_names(ontology)
    if raw in names:
        rtype, turned, how = names[raw]
        return RelationDecision(rtype, turned, "" if how == "declared" else f"{raw!r} is {how}")
    if not ontology.strict:
        return RelationDecision(raw)
    for way, found in (
        ("the same stem as", _by_stem(raw, names)),
        ("spelt like", _by_spelling(raw, names)),
    ):
        if found is not None:
            name, (rtype, turned, _) = found
            return RelationDecision(rtype, turned, f"{raw!r} mapped to {rtype!r} ({way} {name!r})")
    return RelationDecision(
        None, reason=f"relation type {raw!r} is not in ontology {ontology.name!r}; dropped"
    )


def map_entity_type(ontology: Ontology, raw: str, name: str = "") -> TypeDecision:
    """The declared entity type of an extracted entity (``raw``: its extracted type)."""
    names = _entity_names(ontology)
    if raw in names:
        how = names[raw][1]
        return TypeDecision(
            names[raw][0], "" if how == "declared" else f"entity type {raw!r} is {how}"
        )
    if not ontology.strict and raw != ROOT_TYPE:
        return TypeDecision(raw)
    for word in reversed(slugify(name).split("_")):
        found = names.get(word) or (_by_stem(word, names) or (None, None))[1]
        if found is not None and len(word) >= 3:
            return TypeDecision(found[0], f"{name!r} typed {found[0]!r} by its word {word!r}")
    for way, hit in (
        ("the same stem as", _by_stem(raw, names)),
        ("spelt like", _by_spelling(raw, names)),
    ):
        if hit is not None:
            return TypeDecision(
                hit[1][0], f"entity type {raw!r} mapped to {hit[1][0]!r} ({way} {hit[0]!r})"
            )
    if raw == ROOT_TYPE:
        return TypeDecision(raw)
    return TypeDecision(
        ROOT_TYPE, f"entity type {raw!r} is not in ontology {ontology.name!r}; typed {ROOT_TYPE!r}"
    )


def fit_ends(ontology: Ontology, rtype: str, source_type: str, target_type: str) -> EndFit:
    """Whether ``source_type -[rtype]-> target_type`` fits the relation's declared ends."""
    declared = ontology.relation_type(rtype)
    if declared is None:
        return EndFit(True)
    source = _fit_end(ontology, declared, "source", source_type)
    target = _fit_end(ontology, declared, "target", target_type)
    if source is None or target is None:
        wanted = declared.source if source is None else declared.target
        got = source_type if source is None else target_type
        end = "source" if source is None else "target"
        return EndFit(
            False,
            reason=f"{rtype!r} needs a {end} of type {' or '.join(wanted)}, got {got!r}; dropped",
        )
    refined = [
        f"{t} refined to {r}" for t, r in ((source_type, source), (target_type, target)) if r != t
    ]
    return EndFit(
        True,
        source if source != source_type else None,
        target if target != target_type else None,
        f"{rtype!r}: " + ", ".join(refined) if refined else "",
    )


def _fit_end(ontology: Ontology, declared: RelationType, end: str, etype: str) -> str | None:
    """The type the end has (``etype`` or a refinement of it), or None when it does not fit."""
    allowed: tuple[str, ...] = getattr(declared, end)
    if not allowed or any(ontology.is_a(etype, a) for a in allowed):
        return etype
    below = [a for a in allowed if ontology.is_a(a, etype)]
    return below[0] if len(below) == 1 else None
