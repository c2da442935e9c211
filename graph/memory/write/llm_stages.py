"""The LLM calls of the write pipeline: informed extraction, blind fallback extraction, entity
disambiguation and reconciliation. Each call is fail-safe: errors become warnings and a
``None``/empty answer, never an exception."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.memory import prompts
from graph.memory.write.extract.extraction import Extraction, KnownContext, harden
from graph.providers import ChatLLM, TokenUsage

__all__ = ["CallFailed", "LLMSession", "blind_extraction", "informed_extraction"]

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
_DECISION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"decisions": {"type": "array", "items": {"type": "object"}}},
    "required": ["decisions"],
}
_MATCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"matches": {"type": "array", "items": {"type": "object"}}},
    "required": ["matches"],
}


# The calls whose answers carry entity or relation types (the ontology is shown to them).
_TYPED_STAGES = frozenset({"extract_informed", "extract_entities", "extract_relations"})


class CallFailed(Exception):
    """Internal marker: the endpoint failed (timeout/transport), as opposed to bad output."""


@dataclass
class LLMSession:
    """One write call's view of the LLM: accumulates usage, call count, warnings and trace."""

    llm: ChatLLM
    usage: TokenUsage = field(default_factory=TokenUsage)
    calls: int = 0
    warnings: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    # The agent's ontology as the extraction prompts show it (None: the open built-in one,
    # and the prompts are unchanged).
    ontology: dict[str, Any] | None = None

    async def ask(
        self, stage: str, payload: dict[str, Any], schema: dict[str, Any], timeout_s: float
    ) -> Any:
        """One JSON call. Returns the parsed object, or None for unusable output.

        Raises:
            CallFailed: timeout or transport error (after the provider's own retries).
        """
        self.calls += 1
        system = prompts.load(stage)
        if self.ontology is not None and stage in _TYPED_STAGES:
            payload = {**payload, "ontology": self.ontology}
            system = f"{system}\n\n{prompts.load('ontology_rules')}"
        user = json.dumps(payload, ensure_ascii=False, default=str)
        try:
            resp = await self.llm.complete_json(
                stage, system, user, schema=schema, timeout_s=timeout_s
            )
        except Exception as exc:  # LLMError, timeouts, or a provider bug: the stage degrades
            self.warnings.append(f"{stage}: LLM call failed ({type(exc).__name__}): {exc}"[:300])
            self.trace.append({"llm": stage, "ok": False, "error": "call_failed"})
            raise CallFailed(stage) from exc
        self.usage.add(resp.usage)
        ok = isinstance(resp.data, dict)
        self.trace.append({"llm": stage, "ok": ok, "prompt_version": prompts.version_of(stage)})
        if not ok:
            self.warnings.append(f"{stage}: the model's answer was not a JSON object")
            return None
        return resp.data


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


async def disambiguate(
    session: LLMSession, message: str, items: list[dict[str, Any]], timeout_s: float
) -> dict[int, str | None]:
    """Entity resolution phase 3: one call for every ambiguous name. Index → chosen key or
    None; only keys offered for that index are accepted."""
    if not items:
        return {}
    try:
        data = await session.ask(
            "resolve_entities", {"message": message, "items": items}, _MATCH_SCHEMA, timeout_s
        )
    except CallFailed:
        return {}
    out: dict[int, str | None] = {}
    offered = {it["index"]: {c["key"] for c in it["candidates"]} for it in items}
    for match in (data or {}).get("matches", []) if isinstance(data, dict) else []:
        if not isinstance(match, dict) or not isinstance(match.get("index"), int):
            continue
        key = match.get("key")
        if key is None or key in offered.get(match["index"], set()):
            out[match["index"]] = key
        else:
            session.warnings.append(f"resolve_entities: key {key!r} was not offered; ignored")
    return out


async def reconcile_batch(
    session: LLMSession, items: list[dict[str, Any]], timeout_s: float
) -> dict[int, Any] | None:
    """Reconciliation for the ambiguous facts, one call. Index → raw decision; None when the
    call failed (the caller then ADDs)."""
    if not items:
        return {}
    try:
        data = await session.ask("reconcile", {"facts": items}, _DECISION_SCHEMA, timeout_s)
    except CallFailed:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), list):
        return None
    return {
        d["index"]: d
        for d in data["decisions"]
        if isinstance(d, dict) and isinstance(d.get("index"), int)
    }
