"""Resolution stage: entity resolution decisions (pure). Exact → fuzzy → LLM → new.

The I/O layer fetches, for every extracted name, the alias matches and the nearest existing
entities; :func:`resolve_entity` decides. Ambiguous names (cosine within the 0.50–0.85 band)
are returned as such so the caller can ask the LLM once for all of them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from graph.memory.text import entity_key, fold, normalize_type, slugify
from graph.memory.write.extract.mentions import RELATIONSHIP_TERMS

__all__ = [
    "SPEAKER_PRONOUNS",
    "Candidate",
    "Resolution",
    "resolve_entity",
    "speaker_key",
]

SPEAKER_PRONOUNS = frozenset(
    {
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "user",
        "the user",
        "speaker",
        "eu",
        "mim",
        "meu",
        "minha",
        "comigo",
        "yo",
        "mi",
    }
)


def speaker_key(speaker: str) -> str:
    """Key of the speaker entity (``person:<slug>``)."""
    return entity_key(speaker, "person")


@dataclass(frozen=True)
class Candidate:
    """An existing entity considered for a name, with its similarity to the name."""

    key: str
    name: str
    type: str
    similarity: float


@dataclass
class Resolution:
    """How one extracted name resolved. ``method`` is speaker / alias / slug / prefix / fuzzy /
    llm / new; ``ambiguous`` lists candidates for the LLM when undecided."""

    name: str
    key: str
    type: str
    method: str
    is_new: bool = False
    similarity: float | None = None
    ambiguous: list[Candidate] = field(default_factory=list)


def _fuzzy_string(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, fold(a), fold(b)).ratio()


def resolve_entity(
    name: str,
    entity_type: str,
    speaker: str,
    alias_matches: dict[str, str],
    existing: dict[str, tuple[str, str]],
    candidates: list[Candidate],
    *,
    fuzzy_threshold: float = 0.85,
    low_threshold: float = 0.50,
    min_prefix: int = 3,
    embeddings_available: bool = True,
) -> Resolution:
    """Decide which entity ``name`` refers to.

    Args:
        name: the extracted name (hints already stripped).
        entity_type: the extracted type (lowercase).
        speaker: the speaker's display name.
        alias_matches: folded alias → entity key, for this agent (from the alias index).
        existing: key → (name, type) of entities found by key/alias lookups.
        candidates: nearest existing entities by embedding cosine (or any order without
            embeddings; then difflib ratios are used), best first.
        fuzzy_threshold: cosine at or above which a candidate resolves directly.
        low_threshold: below this a new entity is created.
        min_prefix: minimum length for person prefix/diminutive matching.
        embeddings_available: False → difflib string similarity replaces cosine.

    Returns:
        A :class:`Resolution`; ``method == "ambiguous"`` when the LLM should choose.
    """
    folded = fold(name)
    etype = normalize_type(entity_type)
    if folded in SPEAKER_PRONOUNS or folded == fold(speaker):
        return Resolution(name, speaker_key(speaker), "person", "speaker")
    if folded in RELATIONSHIP_TERMS:
        relative = f"{speaker}'s {folded}"
        key = entity_key(relative, "person")
        return Resolution(relative, key, "person", "relationship_term", is_new=key not in existing)
    if folded in alias_matches:
        key = alias_matches[folded]
        return Resolution(name, key, existing.get(key, ("", etype))[1] or etype, "alias")
    own_key = entity_key(name, etype)
    if own_key in existing:
        return Resolution(name, own_key, etype, "slug")
    slug = slugify(name)
    for key, (ename, etyp) in existing.items():
        if key.split(":", 1)[-1] == slug or fold(ename) == folded:
            return Resolution(name, key, etyp, "slug")
    if etype == "person" and len(folded) >= min_prefix:
        for cand in candidates:
            first = fold(cand.name).split(" ")[0] if cand.name else ""
            if cand.type == "person" and first != folded and first.startswith(folded):
                return Resolution(name, cand.key, "person", "prefix", similarity=cand.similarity)
    scored = candidates
    if not embeddings_available:
        scored = sorted(
            (Candidate(c.key, c.name, c.type, _fuzzy_string(name, c.name)) for c in candidates),
            key=lambda c: -c.similarity,
        )
    # A candidate of a different, specific type is a weaker match: place "Paris" ≠ person Paris.
    scored = [c for c in scored if c.type == etype or "thing" in (c.type, etype)]
    if scored and scored[0].similarity >= fuzzy_threshold:
        best = scored[0]
        return Resolution(name, best.key, best.type, "fuzzy", similarity=best.similarity)
    band = [c for c in scored if c.similarity >= low_threshold][:3]
    if band:
        return Resolution(
            name,
            own_key,
            etype,
            "ambiguous",
            is_new=True,
            similarity=band[0].similarity,
            ambiguous=band,
        )
    return Resolution(name, own_key, etype, "new", is_new=True)
