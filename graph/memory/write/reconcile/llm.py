"""The reconciliation's model call: ADD / UPDATE / DELETE / NOOP for the facts whose
candidates the rules could not settle."""

from __future__ import annotations

from typing import Any

from graph.memory.write.llm import CallFailed, LLMSession

__all__ = ["reconcile_batch"]


_DECISION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"decisions": {"type": "array", "items": {"type": "object"}}},
    "required": ["decisions"],
}


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
