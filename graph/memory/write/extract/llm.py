"""The extraction's model calls: the informed extraction (one call, with the known names and
facts) and the blind fallback (entities, then facts and relations), with their answer schemas."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from graph.memory.write.extract.extraction import Extraction, KnownContext, harden
from graph.memory.write.llm import CallFailed, LLMSession

__all__ = ["INFORMED_SCHEMA", "blind_extraction", "informed_extraction"]


_ENTITY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "type": {"type": "string"},
                    "aliases": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["name"],
            },
        }
    },
    "required": ["entities"],
}


_FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "subject": {"type": "string"},
                    "text": {"type": "string"},
                    "confidence": {"type": "number"},
                    "kind": {"type": "string"},
                    "action": {"type": "string"},
                    "importance_category": {"type": "string"},
                    "temporal_class": {"type": "string"},
                    "valid_until": {"type": ["string", "null"]},
                    "categories": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["subject", "text"],
            },
        }
    },
    "required": ["facts"],
}


_RELATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "relations": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "source": {"type": "string"},
                    "target": {"type": "string"},
                    "type": {"type": "string"},
                    "confidence": {"type": "number"},
                },
                "required": ["source", "target", "type"],
            },
        }
    },
    "required": ["relations"],
}


_INFORMED_FACT: dict[str, Any] = {
    "type": "object",
    "properties": {
        **_FACT_SCHEMA["properties"]["facts"]["items"]["properties"],
        "action": {"type": "string", "enum": ["ADD", "UPDATE", "DELETE", "NONE"]},
        "target_id": {"type": ["string", "null"]},
        "reason": {"type": "string"},
        # the fact in English when its text is in another language (prompt v3)
        "gloss_en": {"type": ["string", "null"]},
    },
    "required": ["subject", "text", "action"],
}


INFORMED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **_ENTITY_SCHEMA["properties"],
        "facts": {"type": "array", "items": _INFORMED_FACT},
        **_RELATION_SCHEMA["properties"],
        "profiles": {"type": "object", "additionalProperties": {"type": "string"}},
        "causal_links": {"type": "array", "items": {"type": "object"}},
        "emotion": {"type": "object"},
    },
    "required": ["entities", "facts", "relations"],
}


def _base_payload(
    message: str, speaker: str, occurred_at: datetime, recent: list[str]
) -> dict[str, Any]:
    return {
        "speaker": speaker,
        "message_time": occurred_at.isoformat(),
        "recent_messages": recent,
        "message": message,
    }


async def informed_extraction(
    session: LLMSession,
    message: str,
    speaker: str,
    occurred_at: datetime,
    recent: list[str],
    known: KnownContext,
    caps: dict[str, int],
    timeout_s: float,
) -> Extraction | None:
    """Informed extraction and reconcile in one call: extraction informed by the known entities, profiles and
    nearest facts, each fact with its reconciliation action against those facts' short ids.
    The answer's ``known_ids`` maps the short ids back. None when the answer is unusable.

    Raises:
        CallFailed: the endpoint failed (the caller does not fall back to more calls then).
    """
    payload = {**_base_payload(message, speaker, occurred_at, recent), **known.payload()}
    data = await session.ask("extract_informed", payload, INFORMED_SCHEMA, timeout_s)
    ex = harden(data, warnings=session.warnings, **caps) if data is not None else None
    if ex is not None:
        ex.known_ids = dict(known.ids)
        ex.known_entities = set(known.keys)
    return ex


async def blind_extraction(
    session: LLMSession,
    message: str,
    speaker: str,
    occurred_at: datetime,
    recent: list[str],
    caps: dict[str, int],
    timeout_s: float,
) -> tuple[Extraction | None, bool]:
    """Fallback extraction: entity scan, then facts and relations concurrently; one relations retry when
    0 relations came back for ≥ 2 entities. Returns (extraction or None, retry_triggered).

    Raises:
        CallFailed: the entity scan's or the facts call's endpoint failed (a failed relations
            call only degrades).
    """
    base = _base_payload(message, speaker, occurred_at, recent)
    data = await session.ask("extract_entities", base, _ENTITY_SCHEMA, timeout_s)
    scan = harden(data, warnings=session.warnings, **caps) if data is not None else None
    if scan is None:
        return None, False
    names = [{"name": e.name, "type": e.type, "aliases": e.aliases} for e in scan.entities]
    payload = {**base, "entities": names}

    failed: set[str] = set()

    async def safe(stage: str, schema: dict[str, Any]) -> Any:
        try:
            return await session.ask(stage, payload, schema, timeout_s)
        except CallFailed:
            failed.add(stage)
            return None

    facts_data, rel_data = await asyncio.gather(
        safe("extract_facts", _FACT_SCHEMA), safe("extract_relations", _RELATION_SCHEMA)
    )
    if "extract_facts" in failed:  # the facts are the product: an outage, not "no facts"
        raise CallFailed("extract_facts")
    retried = False
    rels = harden(
        {"relations": (rel_data or {}).get("relations", [])}, warnings=session.warnings, **caps
    )
    if rels is not None and not rels.relations and len(scan.entities) >= 2:
        retried = True
        rel_data = await safe("extract_relations", _RELATION_SCHEMA)
        rels = harden(
            {"relations": (rel_data or {}).get("relations", [])}, warnings=session.warnings, **caps
        )
    facts = harden(
        {"facts": (facts_data or {}).get("facts", [])}, warnings=session.warnings, **caps
    )
    return Extraction(
        entities=scan.entities,
        facts=facts.facts if facts else [],
        relations=rels.relations if rels else [],
    ), retried
