"""The resolution's model call: ambiguous mentions matched against their candidates."""

from __future__ import annotations

from typing import Any

from graph.memory.write.llm import CallFailed, LLMSession

__all__ = ["disambiguate"]


_MATCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"matches": {"type": "array", "items": {"type": "object"}}},
    "required": ["matches"],
}


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
