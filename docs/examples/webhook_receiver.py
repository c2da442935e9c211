"""A webhook receiver for Hippograph, standard library only: it checks each delivery's
signature and age, drops deliveries it has already handled, and prints the events.

    python docs/examples/webhook_receiver.py --port 8787 --secret whsec_...

Register it (the secret is printed once, at registration):

    hippograph webhook add http://127.0.0.1:8787/hooks --agent demo

A loopback target needs HIPPOGRAPH_WEBHOOK_ALLOW_PRIVATE=true on the server; a real receiver
is a public https:// URL. What a delivery carries and how it is signed: docs/webhooks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

REPLAY_WINDOW_S = 300  # refuse a signature older (or newer) than 5 minutes
MAX_BODY = 1_000_000


def verify(
    secret: str, header: str, body: bytes, now: float | None = None, window_s: float = 300
) -> bool:
    """True when ``header`` (``Hippograph-Signature: t=<unix>,v1=<hex>``) is the HMAC-SHA256
    of ``<t>.<body>`` under ``secret`` and ``t`` lies within ``window_s`` of ``now``."""
    fields = [part.split("=", 1) for part in header.split(",") if "=" in part]
    stamps = [value for key, value in fields if key.strip() == "t"]
    if len(stamps) != 1 or not stamps[0].strip().isdigit():
        return False
    t = int(stamps[0])
    if abs((time.time() if now is None else now) - t) > window_s:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, v.strip()) for k, v in fields if k.strip() == "v1")


class Receiver(ThreadingHTTPServer):
    """The server: its secret, and the deliveries it accepted (by id, in arrival order)."""

    def __init__(self, address: tuple[str, int], secret: str) -> None:
        super().__init__(address, Handler)
        self.secret = secret
        self.events: dict[str, dict[str, Any]] = {}
        self.refused = 0
        self.lock = threading.Lock()

    def handle_event(self, event: dict[str, Any]) -> None:
        """What the application does with an event (here: print it)."""
        print(event["type"], event["agent_id"], json.dumps(event["data"], ensure_ascii=False))


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(min(length, MAX_BODY))
        signature = self.headers.get("Hippograph-Signature", "")
        if length > MAX_BODY or not verify(self.server.secret, signature, body):
            with self.server.lock:
                self.server.refused += 1
            self._answer(401)
            return
        event = json.loads(body)
        delivery = self.headers.get("Hippograph-Delivery") or event["id"]
        with self.server.lock:
            repeat = delivery in self.server.events  # a retry of one already handled
            if not repeat:
                self.server.events[delivery] = event
        if not repeat:
            self.server.handle_event(event)
        self._answer(200)

    def _answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8787)
    parser.add_argument("--secret", required=True, help="the whsec_... shown at registration")
    args = parser.parse_args()
    server = Receiver(("127.0.0.1", args.port), args.secret)
    print(f"listening on http://127.0.0.1:{args.port}/ (Ctrl-C stops)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
