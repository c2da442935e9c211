"""The guard stage: the message's checks (``message``) and the PII policy on stored text
(``pii``: scan, redact, reject)."""

from __future__ import annotations

from graph.memory.write.guard.message import (
    MAX_LABEL_CHARS,
    MAX_THREAD_ID_CHARS,
    GuardResult,
    guard_message,
    stored_label,
)
from graph.memory.write.guard.pii import (
    PIIFinding,
    PIIResult,
    redact_context,
    redact_text,
    scan_pii,
)

__all__ = [
    "MAX_LABEL_CHARS",
    "MAX_THREAD_ID_CHARS",
    "GuardResult",
    "PIIFinding",
    "PIIResult",
    "guard_message",
    "redact_context",
    "redact_text",
    "scan_pii",
    "stored_label",
]
