"""The facts recent retrieves returned, with their feature rows, kept in this process for a
while so that a user's verdict on one of them (``feedback``: helped or not) can be recorded
with the features it was ranked by (graph/memory/learning). Bounded in count and age; a
retrieve id also names its time, so a verdict on a retrieve this process no longer holds (or
never served) can rebuild its rows as memory stood then."""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from graph.errors import BadInput

__all__ = ["RecentRetrieves", "Remembered", "new_retrieve_id", "retrieve_time"]

MAX_RETRIEVES = 4_000
MAX_AGE_S = 3_600.0


def new_retrieve_id(at: datetime) -> str:
    """An opaque id that also names the retrieve's time (``r<ms hex>-<random>``)."""
    return f"r{int(at.timestamp() * 1000):x}-{secrets.token_hex(6)}"


def retrieve_time(retrieve_id: str) -> datetime:
    """The time a retrieve id names.

    Raises:
        BadInput: not a retrieve id.
    """
    head, sep, tail = retrieve_id.partition("-")
    if not sep or not head.startswith("r") or len(retrieve_id) > 40 or len(tail) != 12:
        raise BadInput("not a retrieve id (use the `retrieveId` a retrieve returned)")
    try:
        ms = int(head[1:], 16)
        int(tail, 16)
        return datetime.fromtimestamp(ms / 1000, tz=UTC)
    except (ValueError, OverflowError, OSError):
        raise BadInput("not a retrieve id (use the `retrieveId` a retrieve returned)") from None


@dataclass(frozen=True)
class Remembered:
    """One retrieve as kept: whose, when, and the returned facts' feature rows."""

    agent_id: str
    rows: dict[str, np.ndarray]
    kept_at: float


class RecentRetrieves:
    """Retrieve id → :class:`Remembered`, the newest ``max_retrieves`` of the last
    ``max_age_s`` seconds."""

    def __init__(self, max_retrieves: int = MAX_RETRIEVES, max_age_s: float = MAX_AGE_S) -> None:
        self.max_retrieves = max_retrieves
        self.max_age_s = max_age_s
        self._kept: OrderedDict[str, Remembered] = OrderedDict()

    def keep(self, retrieve_id: str, agent_id: str, rows: dict[str, np.ndarray]) -> None:
        if not rows or self.max_retrieves <= 0:
            return
        self._kept[retrieve_id] = Remembered(agent_id, rows, time.monotonic())
        while len(self._kept) > self.max_retrieves:
            self._kept.popitem(last=False)

    def get(self, retrieve_id: str) -> Remembered | None:
        kept = self._kept.get(retrieve_id)
        if kept is None:
            return None
        if time.monotonic() - kept.kept_at > self.max_age_s:
            del self._kept[retrieve_id]
            return None
        return kept

    def forget_agent(self, agent_id: str) -> None:
        """Drop every kept retrieve of ``agent_id`` (its memory was erased)."""
        for key in [k for k, v in self._kept.items() if v.agent_id == agent_id]:
            del self._kept[key]

    def __len__(self) -> int:
        return len(self._kept)
