"""The PII policy on stored text: secrets, keys, cards, national ids, phones and emails found,
then redacted or refused (``pii_mode`` off / redact / reject)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.memory.write.models import PIIRejected

__all__ = ["PIIFinding", "PIIResult", "redact_context", "redact_text", "scan_pii"]


@dataclass(frozen=True)
class PIIFinding:
    kind: str
    start: int
    end: int
    redactable: bool


@dataclass(frozen=True)
class PIIResult:
    text: str
    findings: list[PIIFinding]


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


# (kind, pattern, redactable). Order matters: secrets before generic numbers.
# Every pattern runs in linear time (tests/unit/test_regex_linear.py checks the
# shapes): no nested or overlapping unbounded quantifiers, and a pattern whose first repeat
# spans punctuation starts only at the beginning of a run (negative lookbehind), so a long
# run is not rescanned from every position ("a.a.a.a…" for email, "eyJ-eyJ-…" for JWT).
_PATTERNS: tuple[tuple[str, re.Pattern[str], bool], ...] = (
    (
        "private_key",
        re.compile(
            r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?"
            r"(?:-----END [A-Z ]{0,40}PRIVATE KEY-----|$)"
        ),
        True,
    ),
    (
        "api_key",
        re.compile(
            r"\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_\-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}"
            r"|xox[baprs]-[A-Za-z0-9\-]{10,}|AIza[0-9A-Za-z_\-]{35}|hg_[A-Za-z0-9_\-]{20,})"
        ),
        True,
    ),
    (
        "jwt",
        re.compile(
            r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"
            r"\.[A-Za-z0-9_\-]{10,}"
        ),
        True,
    ),
    ("password", re.compile(r"(?i)\b(?:password|passwd|senha|pwd)\s*(?:is|=|:|é)\s*(\S+)"), True),
    (
        "email",
        re.compile(
            r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+"
            r"\.[A-Za-z]{2,}\b"
        ),
        True,
    ),
    ("credit_card", re.compile(r"\b(?:\d[ \-]?){12,18}\d\b"), True),
    ("ssn", re.compile(r"\b\d{3}-\d{2}-\d{4}\b"), True),
    (
        "phone",
        re.compile(
            r"(?<![\w+])(?:\+\d{1,3}[ .\-]?)?\(?\d{2,3}\)?[ .\-]?\d{4,5}[ .\-]\d{4}"
            r"(?![\d\w])"
        ),
        True,
    ),
)


# A keyword that announces a secret without a clear span cannot be redacted safely.
_SECRET_HINT = re.compile(r"(?i)\b(?:my|the|our)\s+(?:password|passphrase|pin|senha)\b")


def _findings(text: str) -> list[PIIFinding]:
    """Every clear PII span (non-overlapping, earlier patterns win), then a bare secret hint."""
    findings: list[PIIFinding] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern, redactable in _PATTERNS:
        for m in pattern.finditer(text):
            start, end = (m.start(1), m.end(1)) if m.groups() else (m.start(), m.end())
            if any(s < end and start < e for s, e in taken):
                continue
            if kind == "credit_card" and not _luhn(re.sub(r"\D", "", m.group())):
                continue
            findings.append(PIIFinding(kind, start, end, redactable))
            taken.append((start, end))
    hint = _SECRET_HINT.search(text)
    if hint and not any(f.kind == "password" for f in findings):
        findings.append(PIIFinding("secret_hint", hint.start(), hint.end(), False))
    return findings


def _replace(text: str, findings: list[PIIFinding]) -> str:
    out = text
    for f in sorted(findings, key=lambda f: f.start, reverse=True):
        out = out[: f.start] + f"[REDACTED:{f.kind}]" + out[f.end :]
    return out


def scan_pii(text: str, mode: str) -> PIIResult:
    """Detect secrets/PII. ``redact`` replaces clear spans with ``[REDACTED:<kind>]``;
    ``reject`` raises on any finding; ``off`` returns the text unchanged.

    Raises:
        PIIRejected: reject mode with a finding, or a secret announced without a clear span.
    """
    if mode == "off":
        return PIIResult(text, [])
    findings = _findings(text)
    if not findings:
        return PIIResult(text, [])
    kinds = sorted({f.kind for f in findings})
    if mode == "reject" or any(not f.redactable for f in findings):
        raise PIIRejected(f"message contains sensitive data ({', '.join(kinds)}); not stored")
    return PIIResult(_replace(text, findings), findings)


def redact_text(text: str, mode: str, what: str = "text") -> PIIResult:
    """The PII policy for stored text other than a message: structured ``remember`` fields,
    document content and titles. ``redact`` replaces the clear spans; ``reject`` refuses a
    text with a clear span (naming ``what``); ``off`` keeps it. Unlike :func:`scan_pii`, a bare
    hint ("the password") is not a finding: a document or an imported fact often mentions one
    without holding a secret, and there is nothing to redact.

    Raises:
        PIIRejected: reject mode and the text holds a clear PII span.
    """
    if mode == "off" or not text:
        return PIIResult(text, [])
    findings = [f for f in _findings(text) if f.redactable]
    if not findings:
        return PIIResult(text, [])
    if mode == "reject":
        kinds = ", ".join(sorted({f.kind for f in findings}))
        raise PIIRejected(f"{what} contains sensitive data ({kinds}); not stored")
    return PIIResult(_replace(text, findings), findings)


def redact_context(messages: list[str], mode: str) -> list[str]:
    """Recent messages sent to the LLM as context (and kept in an async job's payload):
    every clear span is redacted in both ``redact`` and ``reject`` mode (an earlier message is
    context, not the thing being stored, so it does not fail the write); ``off`` keeps them."""
    if mode == "off":
        return list(messages)
    return [redact_text(m, "redact").text for m in messages]
