"""Messages whose extraction failed: stored (raw-first, nothing is lost) but without facts.

The write pipeline records the failure's kind on the event (``extraction_error``: the error
class and the stage-independent summary, never a driver or provider message). They are listed
(:func:`failed_messages`) and re-run by ``extract`` jobs once the cause is fixed
(``graph.memory.jobs.orphans.retry_failed``); a successful extraction clears the mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graph.executor import Executor

__all__ = ["FailedMessage", "failed_messages", "mark_failed"]

MAX_LISTED = 500


@dataclass(frozen=True)
class FailedMessage:
    """A stored message whose extraction failed."""

    event_id: str
    speaker: str
    text: str
    occurred_at: datetime | None
    error: str
    failed_at: datetime | None


async def mark_failed(
    executor: Executor, agent_id: str, event_id: str, error: str, now: datetime
) -> None:
    """Record that ``event_id``'s extraction failed with ``error`` (a client-safe summary)."""
    await executor.run(
        "write/mark_extraction_failed",
        {"agent_id": agent_id, "event_id": event_id, "error": error[:300], "now": now},
    )


async def failed_messages(
    executor: Executor, agent_id: str, limit: int = 50, event_ids: list[str] | None = None
) -> list[FailedMessage]:
    """The agent's messages whose extraction failed and has not succeeded since, newest first."""
    rows = await executor.run(
        "write/failed_events",
        {"agent_id": agent_id, "event_ids": event_ids, "limit": max(1, min(limit, MAX_LISTED))},
        read=True,
    )
    return [
        FailedMessage(
            r["id"],
            r["speaker"] or "",
            r["text"] or "",
            _native(r["occurred_at"]),
            r["error"],
            _native(r["failed_at"]),
        )
        for r in rows
    ]


def _native(value: object) -> datetime | None:
    to_native = getattr(value, "to_native", None)
    return to_native() if to_native is not None else value if isinstance(value, datetime) else None
