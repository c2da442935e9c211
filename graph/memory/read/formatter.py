"""Context formatting (pure): token-budgeted ``Known facts`` / ``Observed patterns`` /
``Relevant conversations`` sections, plus an offline token counter.

Token counter: a regex word-piece estimate tuned to BPE tokenizers of the GPT family. Each
alphabetic run of up to 7 ASCII letters counts 1 token, longer runs one more per 5 letters;
non-ASCII words (accents, other scripts) count one token per 3 characters; digit runs one token
per 3 digits; every other non-space character 1. Measured against the all-MiniLM-L6-v2
WordPiece tokenizer on the 3,970 LoCoMo turns and observations (English): total +7 %, per
string mean ratio 1.08 ± 0.08. Portuguese is under-counted (~ -35 % against that English
WordPiece vocabulary, which splits Portuguese words into many pieces; GPT-style BPE splits
them less). ``tests/unit/read/test_formatter.py`` pins examples.
Budgets are targets, not hard caps (the top fact is always kept).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, ObservationHit, ScoredFact
from graph.memory.read.past_turns import turn_label

__all__ = ["FormattedContext", "count_tokens", "format_context", "snippet"]

_PIECE = re.compile(r"[A-Za-z]+|[^\W\d_]+|\d+|[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")


def count_tokens(text: str) -> int:
    """Offline token estimate (see module docstring for its accuracy)."""
    total = 0
    for piece in _PIECE.findall(text or ""):
        if piece.isascii() and piece.isalpha():
            total += 1 if len(piece) <= 7 else 1 + math.ceil((len(piece) - 7) / 5)
        elif piece.isalpha() or piece.isdigit():
            total += max(1, math.ceil(len(piece) / 3))
        else:
            total += 1
    return total


def _clean(text: str) -> str:
    return _SPACE.sub(" ", text or "").strip()


def snippet(text: str, max_chars: int) -> str:
    """One-line text cut at a word boundary to at most ``max_chars`` (with an ellipsis)."""
    text = _clean(text)
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    if " " in cut[max_chars // 2 :]:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:.") + "…"


@dataclass
class FormattedContext:
    """The context string and how the budget was spent."""

    text: str
    tokens: int
    facts_used: int
    observations_used: int
    events_used: int


def format_context(
    facts: Sequence[ScoredFact],
    observations: Sequence[ObservationHit],
    events: Sequence[EventHit],
    config: RetrieveConfig,
    counter: Callable[[str], int] = count_tokens,
) -> FormattedContext:
    """Render the three sections within ``context_max_tokens``.

    Facts fill the hot tier (``hot_tier_ratio``) then the warm tier (``warm_tier_ratio``) in
    ranking order and are marked ``fact.tier``; observations use the cold tier (at most
    ``max_observations``); conversation snippets use what is left plus
    ``event_overflow_tokens``. The facts section carries no ids, scores or timestamps.
    """
    budget = config.context.context_max_tokens
    sections: list[str] = []
    used = 0
    fact_lines, cost = _fact_lines(facts, config, counter)
    if fact_lines:
        sections.append("Known facts:\n" + "\n".join(fact_lines))
        used += counter("Known facts:") + cost
    obs_lines, cost = _observation_lines(observations, config, counter)
    if obs_lines:
        sections.append("Observed patterns:\n" + "\n".join(obs_lines))
        used += counter("Observed patterns:") + cost
    remaining = budget - used + config.context.event_overflow_tokens
    event_lines = _event_lines(events, config, counter, remaining)
    if event_lines:
        sections.append("Relevant conversations:\n" + "\n".join(event_lines))
    text = "\n\n".join(sections)
    return FormattedContext(
        text=text,
        tokens=counter(text) if text else 0,
        facts_used=len(fact_lines),
        observations_used=len(obs_lines),
        events_used=len(event_lines),
    )


def _fact_lines(
    facts: Sequence[ScoredFact], config: RetrieveConfig, counter: Callable[[str], int]
) -> tuple[list[str], int]:
    """The facts' lines in the hot then the warm tier (each fact marked with its tier, or
    None when left out), and their cost in tokens."""
    budget = config.context.context_max_tokens
    hot_budget = budget * config.context.hot_tier_ratio
    warm_budget = budget * config.context.warm_tier_ratio
    fact_lines: list[str] = []
    hot = warm = 0
    seen_texts: set[str] = set()
    for fact in facts:
        text = _clean(fact.text)
        if not text or text.lower() in seen_texts:
            fact.tier = None
            continue
        line = f"- {text}"
        cost = counter(line)
        if not fact_lines or hot + cost <= hot_budget:  # the top fact is always kept
            hot += cost
            fact.tier = "hot"
        elif warm + cost <= warm_budget:
            warm += cost
            fact.tier = "warm"
        else:
            fact.tier = None
            continue
        seen_texts.add(text.lower())
        fact_lines.append(line)
    return fact_lines, hot + warm


def _observation_lines(
    observations: Sequence[ObservationHit], config: RetrieveConfig, counter: Callable[[str], int]
) -> tuple[list[str], int]:
    """The observations' lines within the cold tier, and their cost in tokens."""
    cold_budget = config.context.context_max_tokens * config.context.cold_tier_ratio
    obs_lines: list[str] = []
    cold = 0
    for obs in observations[: config.context.max_observations]:
        line = f"- {_clean(obs.text)}"
        cost = counter(line)
        if cold + cost > cold_budget:
            break
        cold += cost
        obs_lines.append(line)
    return obs_lines, cold


def _event_lines(
    events: Sequence[EventHit],
    config: RetrieveConfig,
    counter: Callable[[str], int],
    remaining: float,
) -> list[str]:
    """The snippets' lines within ``remaining`` tokens (the section's heading counted), each
    dated; a superseded turn is marked as earlier (``past_turns.turn_label``)."""
    event_lines: list[str] = []
    spent = counter("Relevant conversations:")
    for ev in events:
        speaker = f"{ev.speaker}: " if ev.speaker else ""
        text = snippet(ev.text, config.context.event_snippet_chars)
        line = f"- {turn_label(ev)}{speaker}{text}"
        cost = counter(line)
        if spent + cost > remaining:
            break
        spent += cost
        event_lines.append(line)
    return event_lines
