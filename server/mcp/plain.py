"""JSON-ready tool results."""

from __future__ import annotations

from typing import Any

from pydantic_core import to_jsonable_python

__all__ = ["plain"]


def plain(value: Any) -> Any:
    """JSON-ready data without ``None`` fields (compact for a model's context window)."""
    data = to_jsonable_python(value)
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data
