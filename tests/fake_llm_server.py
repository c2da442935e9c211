"""A local OpenAI-compatible chat endpoint for drills (loopback only, no internet).

It answers every stage of the write pipeline from the request itself, so any number of messages
can be written through the real ``openai`` client of a real API process:

* ``extract_informed`` / ``extract_facts``: one fact per message, the message text itself, about
  the speaker (plus the speaker as a person entity);
* ``extract_entities``: the speaker; ``extract_relations``: none;
* ``reconcile``: NOOP against a candidate with the same text (already known), else ADD;
* anything else: ``{}`` (the stage degrades, never fatal).

``hold()`` arms a gate: the next extraction request signals :attr:`arrived` and waits (up to
``hold_s``) for :meth:`release` before it answers, so a drill can kill a process at the exact
moment the event is stored and the extraction is in flight. ``mode = "error"`` answers 503.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes import chat_completion

__all__ = ["FakeLLMServer"]

_EXTRACT_STAGES = ("Stage: extract_informed", "Stage: extract_facts")


def _answer(system: str, user: dict[str, Any]) -> dict[str, Any]:
    speaker = str(user.get("speaker") or "user")
    message = str(user.get("message") or "").strip()
    if any(stage in system for stage in _EXTRACT_STAGES):
        return {
            "entities": [{"name": speaker, "type": "person", "aliases": []}],
            "facts": [
                {
                    "subject": speaker,
                    "text": message,
                    "confidence": 0.95,
                    "action": "NEW",
                    "importance_category": "specific_event",
                    "kind": "fact",
                }
            ]
            if message
            else [],
            "relations": [],
        }
    if "Stage: extract_entities" in system:
        return {"entities": [{"name": speaker, "type": "person", "aliases": []}]}
    if "Stage: extract_relations" in system:
        return {"relations": []}
    if "Stage: reconcile" in system:
        decisions = []
        for f in user.get("facts", []):
            same = [e for e in f.get("existing", []) if e.get("text") == f.get("new_fact")]
            decisions.append(
                {
                    "index": f["index"],
                    "action": "NOOP",
                    "target_id": same[0]["id"],
                    "reason": "already known",
                }
                if same
                else {"index": f["index"], "action": "ADD", "reason": "new"}
            )
        return {"decisions": decisions}
    return {}


class FakeLLMServer:
    """``with FakeLLMServer() as llm:`` serves on ``llm.base_url`` (``http://127.0.0.1:N/v1``)."""

    def __init__(self, hold_s: float = 60.0) -> None:
        self.mode = "ok"
        self.hold_s = hold_s
        self.requests = 0
        self.extractions = 0
        self.arrived = threading.Event()
        self._armed = False
        self._release = threading.Event()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                status, payload = fake._handle(body)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the caller died while we held its request (that is the drill)

        class Server(ThreadingHTTPServer):
            request_queue_size = 256  # drills open dozens of connections at once

        self._server = Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def hold(self) -> None:
        """Hold the next extraction request until :meth:`release` (or ``hold_s``)."""
        with self._lock:
            self.arrived.clear()
            self._release.clear()
            self._armed = True

    def release(self) -> None:
        self._release.set()

    def _handle(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        messages = body.get("messages") or []
        system = next((m.get("content") or "" for m in messages if m.get("role") == "system"), "")
        user_text = next(
            (m.get("content") or "" for m in messages if m.get("role") == "user"), "{}"
        )
        with self._lock:
            self.requests += 1
            extraction = any(s in system for s in (*_EXTRACT_STAGES, "Stage: extract_entities"))
            self.extractions += extraction
            held = extraction and self._armed
            if held:
                self._armed = False
        if held:
            self.arrived.set()
            self._release.wait(self.hold_s)
        if self.mode == "error":
            return 503, {"error": {"message": "fake outage", "type": "server_error"}}
        try:
            user = json.loads(user_text)
        except ValueError:
            user = {}
        content = json.dumps(_answer(system, user if isinstance(user, dict) else {}))
        return 200, chat_completion(
            f"chatcmpl-{self.requests}", body.get("model", "fake"), content, 10, 10
        )

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
