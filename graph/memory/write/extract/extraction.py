"""Extraction results (extraction and normalise stages): dataclasses, output hardening and normalisation.

Both the LLM path and the offline path produce an :class:`Extraction`; everything after this
point is the same for both. All functions here are pure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from graph.memory.text import (
    clean_text,
    detect_language,
    estimate_tokens,
    fold,
    normalize,
    normalize_relation_type,
    normalize_type,
)
from graph.memory.write.models import FACT_KINDS

__all__ = [
    "CONFIDENCE_LEVELS",
    "GLOSS_MAX_CHARS",
    "IMPORTANCE_BY_CATEGORY",
    "ExtractedEntity",
    "ExtractedFact",
    "ExtractedRelation",
    "Extraction",
    "KnownContext",
    "harden",
    "known_context",
    "normalize_extraction",
    "parse_datetime",
    "semantic_dedup",
]

IMPORTANCE_BY_CATEGORY: dict[str, float] = {
    "biographical_milestone": 0.9,
    "relationship_change": 0.85,
    "stable_preference": 0.6,
    "specific_event": 0.55,
    "routine_activity": 0.35,
    "conversational": 0.2,
}
CONFIDENCE_LEVELS = (0.95, 0.80, 0.60, 0.40)
# Fact actions of the informed extraction (v1 said NEW/UPDATE; NOOP is the reconcile word).
_ACTIONS = {
    "NEW": "ADD",
    "ADD": "ADD",
    "UPDATE": "UPDATE",
    "DELETE": "DELETE",
    "NONE": "NONE",
    "NOOP": "NONE",
}
# The longest English gloss kept (a fact states one proposition: its gloss is a sentence or
# two; a longer one is cut).
GLOSS_MAX_CHARS = 1_000
_IDENTITY_TYPES = {"same_as", "alias_of", "is", "also_known_as", "aka", "identical_to"}


@dataclass
class ExtractedEntity:
    name: str
    type: str = "thing"
    aliases: list[str] = field(default_factory=list)


@dataclass
class ExtractedFact:
    text: str
    subject: str
    confidence: float = 0.95
    kind: str = "fact"
    action: str = "ADD"  # ADD | UPDATE | DELETE | NONE (informed extraction, prompt v2)
    target_id: str | None = None  # a known fact's short id ("F3") for UPDATE / DELETE / NONE
    reason: str = ""
    importance_category: str | None = None
    importance: float = 0.5
    temporal_class: str = "persistent"
    valid_until: datetime | None = None
    categories: list[str] = field(default_factory=list)
    source_context: str | None = None
    retraction: bool = False
    # The fact in English when its text is in another language (``gloss_en`` of the informed
    # extraction): embedded as a second vector of the fact, never shown as its text.
    gloss: str | None = None


@dataclass
class ExtractedRelation:
    source: str
    target: str
    type: str
    confidence: float = 0.8


@dataclass
class Extraction:
    entities: list[ExtractedEntity] = field(default_factory=list)
    facts: list[ExtractedFact] = field(default_factory=list)
    relations: list[ExtractedRelation] = field(default_factory=list)
    profiles: dict[str, str] = field(default_factory=dict)
    causal: list[tuple[int, int, float]] = field(default_factory=list)
    emotion: dict[str, Any] | None = None
    # Set by the informed extraction only: short id → fact id of the known facts it was shown
    # (its answer's reconciliation targets), and the keys of the known entities shown.
    known_ids: dict[str, str] | None = None
    known_entities: set[str] = field(default_factory=set)


def _str(value: Any) -> str:
    return clean_text(value).strip() if isinstance(value, str) else ""


def _float(value: Any, default: float) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return default
    return min(1.0, max(0.0, out)) if math.isfinite(out) else default


def _snap_confidence(value: float) -> float:
    return min(CONFIDENCE_LEVELS, key=lambda level: abs(level - value))


def parse_datetime(value: Any) -> datetime | None:
    """ISO 8601 (date or datetime, "Z" allowed) → aware datetime (UTC if no offset); None if
    the value is missing or unparseable."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def harden(
    data: Any,
    *,
    max_facts: int = 20,
    max_entities: int = 50,
    min_chars: int = 10,
    max_chars: int = 2000,
    warnings: list[str] | None = None,
) -> Extraction | None:
    """Validate a model's parsed JSON into an :class:`Extraction`; never raises.

    Caps facts/entities, drops facts shorter than ``min_chars``, truncates long ones, coerces
    unknown kinds and confidences. Returns None when ``data`` is not an object at all (the
    caller treats that as a failed call).
    """
    warn = warnings if warnings is not None else []
    if not isinstance(data, dict):
        return None
    out = Extraction()
    raw_entities = _list(data.get("entities"))
    if len(raw_entities) > max_entities:
        warn.append(f"extraction returned {len(raw_entities)} entities; kept {max_entities}")
    out.entities = [e for e in map(_harden_entity, raw_entities[:max_entities]) if e is not None]
    raw_facts = _list(data.get("facts"))
    if len(raw_facts) > max_facts:
        warn.append(f"extraction returned {len(raw_facts)} facts; kept {max_facts}")
    for item in raw_facts[:max_facts]:
        fact = _harden_fact(item, min_chars, max_chars, warn)
        if fact is not None:
            out.facts.append(fact)
    for item in _list(data.get("relations")):
        relation = _harden_relation(item, warn)
        if relation is not None:
            out.relations.append(relation)
    out.profiles = _harden_profiles(data, max_chars)
    for item in _list(data.get("causal_links")):
        if (
            isinstance(item, dict)
            and isinstance(item.get("cause"), int)
            and isinstance(item.get("effect"), int)
        ):
            out.causal.append((item["cause"], item["effect"], _float(item.get("strength"), 0.5)))
    emotion = data.get("emotion")
    if isinstance(emotion, dict) and _str(emotion.get("label")):
        out.emotion = {
            "emotion": _str(emotion.get("label")).lower()[:32],
            "intensity": _float(emotion.get("intensity"), 0.0),
            "energy": _float(emotion.get("energy"), 0.0),
        }
    return out


def _harden_entity(item: Any) -> ExtractedEntity | None:
    """An entity of the answer (an object, or a bare name); None without a name."""
    if isinstance(item, str):
        item = {"name": item}
    if not isinstance(item, dict) or not _str(item.get("name")):
        return None
    aliases = [_str(a) for a in _list(item.get("aliases")) if _str(a)]
    return ExtractedEntity(_str(item["name"]), normalize_type(_str(item.get("type"))), aliases)


def _harden_fact(
    item: Any, min_chars: int, max_chars: int, warn: list[str]
) -> ExtractedFact | None:
    """A fact of the answer, its fields coerced; None when it is no object or too short."""
    if not isinstance(item, dict):
        return None
    text = _str(item.get("text") or item.get("fact"))
    if len(text) < min_chars:
        if text:
            warn.append(f"fact dropped (shorter than {min_chars} chars): {text!r}")
        return None
    if len(text) > max_chars:
        warn.append(f"fact truncated to {max_chars} chars")
        text = text[:max_chars]
    kind = _str(item.get("kind")).lower() or "fact"
    if kind not in FACT_KINDS:
        warn.append(f"unknown fact kind {kind!r} coerced to 'fact'")
        kind = "fact"
    category = _str(item.get("importance_category")).lower() or None
    importance = IMPORTANCE_BY_CATEGORY.get(category or "", _float(item.get("importance"), 0.5))
    temporal = (
        "temporal" if _str(item.get("temporal_class")).lower() == "temporal" else "persistent"
    )
    target = item.get("target_id")
    target_id = _str(target) if isinstance(target, str) else None
    if isinstance(target, int) and not isinstance(target, bool):  # "3" for "F3"
        target_id = f"F{target}"
    until = parse_datetime(item.get("valid_until"))
    if item.get("valid_until") and until is None:
        warn.append(f"unparseable valid_until {str(item.get('valid_until'))[:40]!r} ignored")
    raw_gloss = item.get("gloss_en", item.get("gloss"))
    return ExtractedFact(
        text=text,
        subject=_str(item.get("subject")) or "",
        confidence=_snap_confidence(_float(item.get("confidence"), 0.95)),
        kind=kind,
        action=_ACTIONS.get(_str(item.get("action")).upper(), "ADD"),
        target_id=target_id or None,
        reason=_str(item.get("reason"))[:500],
        importance_category=category,
        importance=importance,
        temporal_class=temporal,
        valid_until=until,
        categories=[normalize_type(_str(c)) for c in _list(item.get("categories")) if _str(c)][:10],
        gloss=harden_gloss(raw_gloss, text, warn),
    )


def harden_gloss(
    value: Any,
    text: str,
    warn: list[str],
    max_chars: int = GLOSS_MAX_CHARS,
    name: str = "gloss_en",
) -> str | None:
    """The English gloss of a fact, or None: not text, empty, the fact is in English, the gloss
    says the same as the text, or the gloss is in another language than English. A long
    gloss is cut to ``max_chars``. Every drop of a given gloss leaves a warning; never
    raises."""
    if value is None:
        return None
    if not isinstance(value, str):
        warn.append(f"{name} of a fact is not text ({type(value).__name__}); dropped")
        return None
    gloss = _str(value)
    if not gloss:
        return None
    if fold(gloss) == fold(text) or normalize(gloss) == normalize(text):
        warn.append(f"{name} repeats the fact's text; dropped")
        return None
    if detect_language(text) == "en":
        warn.append(f"{name} of a fact in English; dropped")
        return None
    language = detect_language(gloss)
    if language not in ("en", None):
        warn.append(f"{name} is not in English (reads as {language!r}); dropped")
        return None
    if len(gloss) > max_chars:
        warn.append(f"{name} truncated to {max_chars} chars")
        gloss = gloss[:max_chars].rstrip()
    return gloss


def _harden_relation(item: Any, warn: list[str]) -> ExtractedRelation | None:
    """A relation of the answer with both ends and a usable type, else None."""
    if not isinstance(item, dict):
        return None
    src, dst = _str(item.get("source")), _str(item.get("target"))
    raw_type = _str(item.get("type") or item.get("relation"))
    rtype = normalize_relation_type(raw_type)
    if not (src and dst):
        return None
    if rtype is None:
        warn.append(f"relation type {raw_type!r} is not usable; dropped")
        return None
    return ExtractedRelation(src, dst, rtype, _float(item.get("confidence"), 0.8))


def _harden_profiles(data: dict[str, Any], max_chars: int) -> dict[str, str]:
    """The answer's profiles by name (an object, or a list of name/profile objects)."""
    profiles = data.get("profiles") or data.get("updated_profiles") or {}
    if isinstance(profiles, list):
        profiles = {
            _str(p.get("name")): _str(p.get("profile")) for p in profiles if isinstance(p, dict)
        }
    if not isinstance(profiles, dict):
        return {}
    return {_str(k): _str(v)[:max_chars] for k, v in profiles.items() if _str(k) and _str(v)}


def normalize_extraction(ex: Extraction, speaker: str) -> Extraction:
    """Normalise stage (pure part): alias grouping → canonical names, identity relations dropped,
    exact duplicates (same subject + same normalised text) removed, subjectless facts given
    the speaker as subject."""
    canonical: dict[str, str] = {}
    entities: list[ExtractedEntity] = []
    for ent in ex.entities:
        existing = canonical.get(fold(ent.name))
        if existing is not None:  # same entity mentioned twice: merge aliases
            target = next(e for e in entities if e.name == existing)
            target.aliases = list(dict.fromkeys([*target.aliases, *ent.aliases]))
            continue
        entities.append(replace(ent, aliases=list(ent.aliases)))
        canonical[fold(ent.name)] = ent.name
        for alias in ent.aliases:
            canonical.setdefault(fold(alias), ent.name)

    def canon(name: str) -> str:
        return canonical.get(fold(name), name)

    facts: list[ExtractedFact] = []
    seen: set[tuple[str, str]] = set()
    for fact in ex.facts:
        subject = canon(fact.subject) if fact.subject else speaker
        key = (fold(subject), normalize(fact.text))
        if key in seen:
            continue
        seen.add(key)
        facts.append(replace(fact, subject=subject))
    relations: list[ExtractedRelation] = []
    seen_rel: set[tuple[str, str, str]] = set()
    for rel in ex.relations:
        src, dst = canon(rel.source), canon(rel.target)
        rkey = (fold(src), rel.type, fold(dst))
        if fold(src) == fold(dst) or rel.type in _IDENTITY_TYPES or rkey in seen_rel:
            continue
        seen_rel.add(rkey)
        relations.append(replace(rel, source=src, target=dst))
    profiles = {canon(k): v for k, v in ex.profiles.items()}
    return Extraction(
        entities,
        facts,
        relations,
        profiles,
        list(ex.causal),
        ex.emotion,
        ex.known_ids,
        set(ex.known_entities),
    )


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity (vectors need not be normalised); 0 for empty/zero vectors."""
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def semantic_dedup(vectors: Sequence[Sequence[float]], threshold: float) -> list[int]:
    """Indices to keep: a fact whose cosine with an earlier kept fact exceeds ``threshold`` is
    dropped (the first occurrence wins)."""
    kept: list[int] = []
    for i, vec in enumerate(vectors):
        if all(cosine(vec, vectors[j]) <= threshold for j in kept):
            kept.append(i)
    return kept


@dataclass
class KnownContext:
    """Context stage output, the informed extraction's view of memory: the known entities the
    message names, their profiles, and the nearest active facts with short ids ("F1"…) that the
    model may target with UPDATE / DELETE / NONE (``ids`` maps them back to fact ids)."""

    entities: list[dict[str, str]] = field(default_factory=list)
    profiles: list[str] = field(default_factory=list)
    facts: list[dict[str, str]] = field(default_factory=list)
    ids: dict[str, str] = field(default_factory=dict)
    keys: set[str] = field(default_factory=set)  # entity keys behind ``entities``

    def payload(self) -> dict[str, Any]:
        return {
            "known_entities": self.entities,
            "known_profiles": self.profiles,
            "known_facts": self.facts,
        }


def known_context(
    alias_rows: list[dict[str, Any]], facts: list[dict[str, Any]], budget: int
) -> KnownContext:
    """Context stage: the matched entities, then their profiles, then their facts nearest to the
    message (best first, across entities), within a token budget for profiles + facts."""
    out = KnownContext()
    names: dict[str, str] = {}
    profiles: dict[str, str] = {}
    for row in alias_rows:
        if row["key"] not in names:
            names[row["key"]] = row["name"]
            out.keys.add(row["key"])
            out.entities.append({"name": row["name"], "type": row.get("type") or "thing"})
            if row["profile_text"]:
                profiles[row["key"]] = f"[{row['name']}] {row['profile_text']}"
    used = 0
    for line in profiles.values():
        cost = estimate_tokens(line)
        if used + cost > budget:
            return out
        out.profiles.append(line)
        used += cost
    seen: set[str] = set()
    ranked = sorted(facts, key=lambda r: -float(r.get("similarity") or 0.0))
    for row in ranked:
        fid = row.get("id") or f"?{len(out.facts)}"
        if fid in seen:
            continue
        seen.add(fid)
        about = names.get(row["key"], row["key"])
        cost = estimate_tokens(f"{about} {row['text']}") + 3
        if used + cost > budget:
            break
        short = f"F{len(out.facts) + 1}"
        out.facts.append({"id": short, "about": about, "text": row["text"]})
        out.ids[short] = fid
        used += cost
    return out
