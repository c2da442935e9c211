"""Pure decisions of the job queue: retry backoff, what a failure does, dedup keys.

No I/O here: the queue and the worker call these, and unit tests check them without Neo4j.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from graph.memory.text import escape_part

__all__ = [
    "BACKOFF_BASE_S",
    "BACKOFF_CAP_S",
    "FailureOutcome",
    "backoff_delay",
    "dedup_key",
    "on_failure",
]

BACKOFF_BASE_S = 1.0
BACKOFF_CAP_S = 30.0


def backoff_delay(
    attempt: int,
    *,
    base_s: float = BACKOFF_BASE_S,
    cap_s: float = BACKOFF_CAP_S,
    jitter: float = 0.5,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait before retry number ``attempt`` (1 = first retry).

    Exponential (``base · 2^(attempt-1)``) capped at ``cap_s``; then up to ``jitter`` × that
    delay of random extra time, still capped, so retries of many jobs that failed together
    (e.g. Neo4j restarting) spread out instead of stampeding.

    Args:
        attempt: how many attempts have failed so far (values below 1 count as 1).
        base_s: delay of the first retry.
        cap_s: upper bound of any delay.
        jitter: fraction of the exponential delay added at random (0 disables).
        rng: random source (tests pass a seeded one).

    Returns:
        The delay in seconds, in ``[min(base·2^(n-1), cap), cap]``.
    """
    n = max(1, attempt)
    # 2**n overflows floats long before it matters; clamp the exponent first.
    raw = base_s * (2.0 ** min(n - 1, 62))
    delay = min(cap_s, raw)
    if jitter > 0:
        delay += (rng or random).uniform(0.0, jitter * delay)
    return min(cap_s, delay)


@dataclass(frozen=True)
class FailureOutcome:
    """What becomes of a job whose attempt failed."""

    status: str  # "pending" (retry later) or "dead" (kept for audit)
    delay_s: float


def on_failure(
    attempts: int, max_attempts: int, *, permanent: bool = False, rng: random.Random | None = None
) -> FailureOutcome:
    """Decide between a retry (with backoff) and ``dead``.

    Args:
        attempts: attempts made so far, including the one that just failed.
        max_attempts: the job's budget (3 by default).
        permanent: the handler said retrying cannot help (bad payload): dead at once.
        rng: random source for the jitter.
    """
    if permanent or attempts >= max_attempts:
        return FailureOutcome("dead", 0.0)
    return FailureOutcome("pending", backoff_delay(attempts, rng=rng))


def dedup_key(kind: str, agent_id: str, subject: str | None) -> str:
    """The default dedup key: one pending/leased job per (kind, agent, subject).

    Parts are escaped (:func:`graph.memory.text.escape_part`), so agent "a|b" with subject "c"
    and agent "a" with subject "b|c" are two keys; no (or an empty) subject is ``*``, one that is
    literally ``*`` is ``\\*``, which no escaped part can be.
    """
    sub = "*" if not subject else "\\*" if subject == "*" else escape_part(subject)
    return f"{escape_part(kind)}|{escape_part(agent_id)}|{sub}"
