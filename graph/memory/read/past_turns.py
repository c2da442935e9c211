"""Past turns (pure): a conversation turn is what was said *then* once every fact extracted from
it (FROM_EVENT) is closed as of the retrieve's ``as_of`` — updated by a later message or
retracted (``EventHit.superseded``, computed by the statements that read the turns). "I live in
Curitiba" after a move to Lisbon is such a turn: still a true record of the conversation, no
longer an answer. Such a turn keeps ``past_turn_factor`` of its score, so the turns of what holds
now rank above it, and the context shows it with its date as earlier (``PAST_TURN_MARK``) so an
agent reads it as history. A turn no fact was extracted from is never superseded: nothing says
it went out of date."""

from __future__ import annotations

from collections.abc import Iterable

from graph.memory.read.models import EventHit

__all__ = ["PAST_TURN_MARK", "demote_past_turns", "turn_label"]

PAST_TURN_MARK = "earlier; since updated"


def demote_past_turns(events: Iterable[EventHit], factor: float) -> int:
    """Multiply the score of every superseded turn by ``factor`` (in place), after whichever
    ranker scored the turns. Returns how many turns were demoted."""
    demoted = 0
    for ev in events:
        if ev.superseded:
            ev.score *= factor
            demoted += 1
    return demoted


def turn_label(ev: EventHit) -> str:
    """The parenthesis before a snippet: its date, and the mark of a superseded turn
    ("(2025-03-10) ", "(2025-03-10, earlier; since updated) "; "" for a current undated one)."""
    parts = [ev.occurred_at.date().isoformat()] if ev.occurred_at else []
    if ev.superseded:
        parts.append(PAST_TURN_MARK)
    return f"({', '.join(parts)}) " if parts else ""
