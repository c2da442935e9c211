"""Per-call state of one ``write``: warnings, the verbose trace of stages with their timings;
each stage is also a span when tracing is on (``graph.tracing``)."""

from __future__ import annotations

import time
from typing import Any

from graph import tracing

__all__ = ["WriteRun", "last_items"]


class WriteRun:
    """Per-call state: warnings, trace, timings."""

    def __init__(self, verbose: bool) -> None:
        self.started = time.perf_counter()
        self.mark = self.started
        self.mark_ns = time.time_ns()
        self.warnings: list[str] = []
        self.trace: list[dict[str, Any]] | None = [] if verbose else None

    def step(self, stage: str, **data: Any) -> None:
        now = time.perf_counter()
        if self.trace is not None:
            self.trace.append({"stage": stage, "ms": round((now - self.mark) * 1000, 2), **data})
        now_ns = time.time_ns()
        tracing.stage_span(f"write.{stage}", self.mark_ns, now_ns, data)
        self.mark_ns = now_ns
        self.mark = now

    def ms(self) -> float:
        return round((time.perf_counter() - self.started) * 1000, 2)


def last_items(items: list[str], n: int) -> list[str]:
    """The last ``n`` items (none for ``n <= 0``; ``items[-0:]`` would be all of them)."""
    return items[-n:] if n > 0 else []
