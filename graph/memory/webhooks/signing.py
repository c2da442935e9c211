"""Signing a delivery: ``Hippograph-Signature: t=<unix seconds>,v1=<hex>`` where the hex is
HMAC-SHA256 under the webhook's secret of ``<t>.<body>`` (the body's exact bytes). The time is
the attempt's, so a receiver refuses a signature older than its replay window
(:data:`REPLAY_WINDOW_S`, 5 minutes) and keeps the delivery ids it has seen
(``Hippograph-Delivery``) to drop a retry of one it already handled.

``docs/examples/webhook_receiver.py`` verifies the same way with the standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = [
    "REPLAY_WINDOW_S",
    "SECRET_PREFIX",
    "new_secret",
    "sign",
    "signature_header",
    "verify",
]

REPLAY_WINDOW_S = 300
SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A webhook's signing secret: 256 random bits."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``<timestamp>.<body>`` under ``secret``."""
    message = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Hippograph-Signature`` header value of one attempt."""
    return f"t={timestamp},v1={sign(secret, timestamp, body)}"


def verify(
    secret: str, header: str, body: bytes, now: float, window_s: float = REPLAY_WINDOW_S
) -> bool:
    """True when ``header`` signs ``body`` under ``secret`` at a time within ``window_s`` of
    ``now`` (any of several ``v1`` values may match, for a secret being rotated)."""
    parts = [p.split("=", 1) for p in header.split(",") if "=" in p]
    stamps = [v for k, v in parts if k.strip() == "t"]
    if len(stamps) != 1 or not stamps[0].strip().isdigit():
        return False
    timestamp = int(stamps[0])
    if abs(now - timestamp) > window_s:
        return False
    expected = sign(secret, timestamp, body)
    return any(hmac.compare_digest(expected, v.strip()) for k, v in parts if k.strip() == "v1")
