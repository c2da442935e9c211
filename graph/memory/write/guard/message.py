"""The message guard: empty, oversized and control-character input is refused before anything
is stored; short client labels (thread id, reason, job subject) are bounded and put under the
PII policy."""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.errors import BadInput
from graph.memory.text import clean_text
from graph.memory.write.guard.pii import redact_text

__all__ = ["MAX_LABEL_CHARS", "MAX_THREAD_ID_CHARS", "GuardResult", "guard_message", "stored_label"]


@dataclass(frozen=True)
class GuardResult:
    text: str
    empty: bool
    warnings: list[str] = field(default_factory=list)


def guard_message(message: str | None, max_chars: int) -> GuardResult:
    """Clean the raw message; empty → ``empty``; oversized → truncated with a warning."""
    text = clean_text(message or "")
    if not text.strip():
        return GuardResult("", True)
    warnings: list[str] = []
    if len(text) > max_chars:
        warnings.append(f"message truncated from {len(text)} to {max_chars} characters")
        text = text[:max_chars]
    return GuardResult(text.strip(), False, warnings)


# Longest short label stored as given: a forget or merge reason, a job subject; a thread id.
MAX_LABEL_CHARS = 1_000


MAX_THREAD_ID_CHARS = 200


def stored_label(
    value: str | None, mode: str, what: str, max_chars: int = MAX_LABEL_CHARS
) -> str | None:
    """A short client-given label that is stored (thread id, reason, job subject): refused
    when longer than ``max_chars``, then put under the operator's PII policy like any stored
    text (``redact`` replaces clear spans, ``reject`` refuses, naming ``what``).

    Raises:
        BadInput: longer than ``max_chars``.
        PIIRejected: reject mode and the label holds a clear PII span.
    """
    if value is None:
        return None
    if len(value) > max_chars:
        raise BadInput(f"{what} is at most {max_chars} characters (got {len(value)})")
    return redact_text(value, mode, what).text
