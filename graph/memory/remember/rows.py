"""Structured remember, checks and rows: size limits refused before any work, the stored
properties of an imported fact, and the list of items not stored when a batch fails after
earlier batches committed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from graph.errors import BadInput
from graph.memory.text import clean_text, content_hash, detect_language, normalize, normalize_type
from graph.memory.write.extract.extraction import harden_gloss
from graph.memory.write.models import (
    FACT_KINDS,
    REMEMBER_SECTIONS,
    RefusedItem,
    RememberResult,
    StructuredEntity,
    StructuredEvent,
    StructuredFact,
    StructuredRelation,
)

__all__ = [
    "API_MAX_ITEMS",
    "MAX_NESTED",
    "check_sizes",
    "check_vectors",
    "fact_props",
    "report_partial",
]


def fact_props(
    agent_id: str, fact: StructuredFact, subject_key: str, warnings: list[str]
) -> dict[str, Any]:
    """The stored properties of an imported fact. Its times are the caller's or null: the
    write statement (``remember/create_facts``) fills the null ones with the import's time,
    sent once per statement rather than once per row."""
    text = clean_text(fact.text).strip()
    kind = fact.kind if fact.kind in FACT_KINDS else "fact"
    if kind != fact.kind:
        warnings.append(f"unknown fact kind {fact.kind!r} coerced to 'fact'")
    norm = normalize(text)
    gloss = harden_gloss(fact.gloss, text, warnings, name="gloss")
    return {
        "text": text,
        "normalized": norm,
        "content_hash": content_hash(agent_id, subject_key, norm),
        "subject_key": subject_key,
        "kind": kind,
        "confidence": float(fact.confidence),
        "importance": float(fact.importance),
        "temporal_class": fact.temporal_class
        if fact.temporal_class == "temporal"
        else "persistent",
        "valid_until": fact.valid_until,
        "categories": [normalize_type(c) for c in fact.categories],
        "speaker": fact.speaker,
        "language": detect_language(text),
        "source_context": fact.source_context or "structured_import",
        "valid_from": fact.valid_from,  # null: created_at
        "valid_to": fact.valid_to,
        "invalidated_at": None,
        "created_at": fact.created_at,  # null: the import's time; also last_confirmed_at
        "reinforcement_count": max(1, int(fact.reinforcement_count)),
        "review_needed": False,
        "gloss": gloss,  # embedded by the importer (gloss_embedding)
        "gloss_language": "en" if gloss else None,
    }


API_MAX_ITEMS = 1_000  # per list and call through the API (remember mutation)
MAX_NESTED = 100  # aliases of an entity, entities / categories / event ids of a fact
# Longest text of one remembered fact or event (a message's cap): they reach embedding and,
# later, consolidation and profile prompts verbatim.
MAX_TEXT_CHARS = 12_000
MAX_NAME_CHARS = 500  # an entity name, alias or reference


def check_sizes(
    entities: Sequence[StructuredEntity],
    facts: Sequence[StructuredFact],
    relations: Sequence[StructuredRelation],
    events: Sequence[StructuredEvent],
    max_items: int | None,
) -> None:
    """Refuse oversized imports before any work (pure).

    Raises:
        BadInput: a list longer than ``max_items``, a nested list longer than MAX_NESTED, or
            a text or name longer than MAX_TEXT_CHARS / MAX_NAME_CHARS.
    """
    if max_items is not None:
        for name, items in (
            ("entities", entities),
            ("facts", facts),
            ("relations", relations),
            ("events", events),
        ):
            if len(items) > max_items:
                raise BadInput(
                    f"remember takes at most {max_items} {name} per call "
                    f"(got {len(items)}); split the import into several calls"
                )
    for ent in entities:
        if len(ent.aliases) > MAX_NESTED:
            raise BadInput(f"an entity may carry at most {MAX_NESTED} aliases")
        if any(len(n) > MAX_NAME_CHARS for n in (ent.name, *ent.aliases)):
            raise BadInput(f"entity names and aliases are at most {MAX_NAME_CHARS} characters")
    for section, texts in (("fact", [f.text for f in facts]), ("event", [e.text for e in events])):
        if any(len(t) > MAX_TEXT_CHARS for t in texts):
            raise BadInput(
                f"a {section} text is at most {MAX_TEXT_CHARS} characters; "
                "write long text as a message or a document"
            )
    for rel in relations:
        if max(len(rel.source), len(rel.target), len(rel.type)) > MAX_NAME_CHARS:
            raise BadInput(f"relation ends and types are at most {MAX_NAME_CHARS} characters")
    for fact in facts:
        if any(len(r) > MAX_NAME_CHARS for r in (fact.subject, *fact.entities)):
            raise BadInput(f"fact subjects and entities are at most {MAX_NAME_CHARS} characters")
        for name, nested in (
            ("entities", fact.entities),
            ("categories", fact.categories),
            ("event ids", fact.event_ids),
        ):
            if len(nested) > MAX_NESTED:
                raise BadInput(f"a fact may carry at most {MAX_NESTED} {name}")


def check_vectors(
    entities: Sequence[StructuredEntity], facts: Sequence[StructuredFact], dimensions: int
) -> None:
    """Refuse caller-supplied vectors of the wrong size or with non-finite values (pure).

    A vector is stored as given, in the agent's embedding space: it must come from the same
    model as the configured embedder (the caller's promise; only its size can be checked).

    Raises:
        BadInput: naming the first bad item (``facts[3].embedding``).
    """
    given = [("entities", i, e.embedding) for i, e in enumerate(entities)]
    given += [("facts", i, f.embedding) for i, f in enumerate(facts)]
    for section, i, vec in given:
        if vec is not None:
            if len(vec) != dimensions:
                raise BadInput(
                    f"{section}[{i}].embedding has {len(vec)} values; the "
                    f"configured embedder's vectors have {dimensions}"
                )
            if not _finite_numbers(vec):
                raise BadInput(f"{section}[{i}].embedding must hold finite numbers only")


_PLAIN_NUMBERS = frozenset({float, int, bool})


def _finite_numbers(vec: Sequence[Any]) -> bool:
    """Every value a finite int or float (C-level passes when all are plain floats and ints:
    a large import checks millions of values)."""
    if set(map(type, vec)) <= _PLAIN_NUMBERS:
        return all(map(math.isfinite, vec))
    return all(isinstance(v, (int, float)) and math.isfinite(v) for v in vec)


_SECTIONS = REMEMBER_SECTIONS


def report_partial(result: RememberResult, exc: Exception, cursor: dict[str, Any]) -> None:
    """A batch failed after earlier batches committed: list every item not stored."""
    section, start = cursor["section"], cursor["start"]
    entity_list: list[tuple[str, StructuredEntity]] = cursor["entity_list"]
    n_events, n_facts = cursor["n_events"], cursor["n_facts"]
    rel_rows: list[dict[str, Any]] = cursor["rel_rows"]
    reason = f"not stored: a {section} batch failed ({type(exc).__name__})"
    result.complete = False
    result.error = (
        f"stopped at the {section} batch starting at item {start} "
        f"({type(exc).__name__}); earlier batches are stored, see refused"
    )
    if section == "facts":  # counted while the failed batch was prepared: undo
        del result.fact_ids[cursor["ids"] :]
        result.facts_unchanged = cursor["unchanged"]
    later = _SECTIONS[_SECTIONS.index(section) :]
    first = {name: (start if name == section else 0) for name in later}
    if "entities" in later:
        result.refused += [
            RefusedItem("entities", None, key, reason)
            for key, _ in entity_list[first["entities"] :]
        ]
    if "events" in later:
        result.refused += [
            RefusedItem("events", i, None, reason) for i in range(first["events"], n_events)
        ]
    if "facts" in later:
        result.refused += [
            RefusedItem("facts", i, None, reason) for i in range(first["facts"], n_facts)
        ]
    if "relations" in later:
        result.refused += [
            RefusedItem("relations", r["index"], r["source_key"], reason)
            for r in rel_rows[first["relations"] :]
        ]
