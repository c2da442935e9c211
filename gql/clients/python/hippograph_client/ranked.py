"""What the framework adapters say about a fact ``retrieve`` ranked: the metadata a LangChain
document or a LlamaIndex node carries (id, score, subject, kind, validity start, sources,
hops), the same in every framework."""

from __future__ import annotations

from datetime import datetime
from typing import Any

__all__ = ["fact_metadata"]


def fact_metadata(fact: Any) -> dict[str, Any]:
    """A ranked fact's metadata, JSON-ready."""
    valid_from = fact.valid_from.isoformat() if isinstance(fact.valid_from, datetime) else None
    return {
        "id": fact.id,
        "score": fact.score,
        "subject_key": fact.subject_key,
        "kind": str(getattr(fact.kind, "value", fact.kind)),
        "valid_from": valid_from,
        "sources": list(fact.sources),
        "hops": fact.hops,
    }
