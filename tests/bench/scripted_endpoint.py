"""A scripted OpenAI-compatible chat endpoint on loopback, for LLM cost measurements.

``ScriptedEndpoint`` serves ``POST /<tag>/v1/chat/completions`` from a thread of the benchmark
process (stdlib ``ThreadingHTTPServer``, 127.0.0.1, a free port), so a client in another process
(Graphiti in its own venv) and our pipeline (through the real ``openai`` client) can both point
their ``base_url`` at it; ``<tag>`` separates the systems in the counts.

The "model" behind it is the offline extractor (``graph.memory.write.extract.offline``) applied to the
message being written, so every system gets the same, plausible extraction:

- Hippograph's ``extract_informed`` (prompt v2): the extractor's entities, facts and relations
  as one answer; a fact whose text equals a shown known fact is answered ``NONE`` on it, the
  rest ``ADD``.
- Graphiti's structured requests (``response_format`` = ``json_schema`` of a pydantic model):
  ``ExtractedEntities`` → the speaker, the extractor's entities and the ends of
  ``fact_edges``; ``ExtractedEdges`` → ``fact_edges`` (Graphiti's facts are edges: one per
  extracted relation and one per extracted fact with a second entity); any other schema → a minimal instance
  generated from the JSON schema (required fields only, empty arrays, "" / 0 / null), which is
  schema-valid. Graphiti's conditional calls (dedupe, timestamps) thus happen as its own code
  decides from what it finds in its graph.

``ScriptedEndpoint(recorded=...)`` replays recorded extractions instead (passage text → an
informed-extraction answer, e.g. ``corpus_texts.recorded_extractions()``): the extraction call
for a message is answered with its recording (an empty extraction, counted as ``unmatched``,
for a message without one); the offline extractor is not loaded.

Per tag it counts calls, prompt and completion characters, and estimated tokens
(``estimate_tokens``: ~4 characters per token) which it also returns as ``usage``.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from graph.memory.text import estimate_tokens, normalize
from graph.memory.write.extract.extraction import Extraction
from graph.memory.write.extract.offline import extract_with, load_nlp
from tests.fakes import chat_completion

__all__ = ["ScriptedEndpoint", "TagCounts", "minimal_instance"]


@dataclass
class TagCounts:
    calls: int = 0
    prompt_chars: int = 0
    completion_chars: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    unmatched: int = 0  # replay: extraction calls for a message without a recording


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = root.get("$defs", root.get("definitions", {}))[name]
    return schema


def minimal_instance(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """The smallest value valid against a (pydantic-style) JSON schema."""
    root = root or schema
    schema = _resolve(schema, root)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [_resolve(o, root) for o in schema[key]]
            if any(o.get("type") == "null" for o in options):
                return None
            return minimal_instance(options[0], root)
    if "allOf" in schema:
        return minimal_instance(schema["allOf"][0], root)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = "null" if "null" in kind else kind[0]
    if kind == "object":
        props = schema.get("properties", {})
        return {
            k: minimal_instance(props[k], root) for k in schema.get("required", []) if k in props
        }
    return {
        "array": [],
        "string": "",
        "integer": 0,
        "number": 0.0,
        "boolean": False,
        "null": None,
    }.get(kind)


def _hippograph_answer(ex: Extraction, known: list[dict[str, Any]]) -> dict[str, Any]:
    by_text = {normalize(f["text"]): f["id"] for f in known}
    facts = []
    for f in ex.facts:
        target = by_text.get(normalize(f.text))
        facts.append(
            {
                "subject": f.subject,
                "text": f.text,
                "action": "NONE" if target else "ADD",
                "target_id": target,
                "reason": "already known" if target else "",
                "confidence": 0.95,
                "kind": f.kind,
                "importance_category": "specific_event",
                "temporal_class": "persistent",
                "valid_until": None,
                "categories": [],
            }
        )
    return {
        "entities": [{"name": e.name, "type": e.type, "aliases": e.aliases} for e in ex.entities],
        "facts": facts,
        "relations": [
            {"source": r.source, "target": r.target, "type": r.type, "confidence": r.confidence}
            for r in ex.relations
        ],
        "profiles": {},
        "causal_links": [],
        "emotion": {"label": "neutral", "intensity": 0.2, "energy": 0.3},
    }


def fact_edges(nlp: Any, ex: Extraction) -> list[tuple[str, str, str, str]]:
    """Graphiti stores a fact as an edge between two entities: (source, RELATION, target, fact)
    for every extracted relation, and for every other fact its subject → the first known entity
    it mentions, else its last noun chunk that is not the subject or a pronoun."""
    edges = [
        (
            r.source,
            r.type.upper(),
            r.target,
            next(
                (f.text for f in ex.facts if f.subject == r.source),
                f"{r.source} {r.type} {r.target}",
            ),
        )
        for r in ex.relations
    ]
    names = [e.name for e in ex.entities]
    for f in ex.facts:
        doc = nlp(f.text)
        target = next((n for n in names if n != f.subject and n in f.text), None)
        if target is None:
            chunks = [
                c.text
                for c in doc.noun_chunks
                if c.root.pos_ != "PRON" and c.text != f.subject and f.subject not in c.text
            ]
            target = chunks[-1] if chunks else None
        if target:
            verb = next((t.lemma_ for t in doc if t.pos_ in ("VERB", "AUX")), "related_to")
            edges.append((f.subject, verb.upper(), target, f.text))
    return edges


def _graphiti_answer(
    name: str,
    schema: dict[str, Any],
    ex: Extraction,
    speaker: str,
    edges: list[tuple[str, str, str, str]],
) -> Any:
    if name == "ExtractedEntities":
        names = list(
            dict.fromkeys(
                [
                    speaker,
                    *(e.name for e in ex.entities),
                    *(n for s, _, t, _ in edges for n in (s, t)),
                ]
            )
        )
        return {
            "extracted_entities": [
                {"name": n, "entity_type_id": 0, "episode_indices": [0]} for n in names
            ]
        }
    if name == "ExtractedEdges":
        return {
            "edges": [
                {
                    "source_entity_name": s,
                    "target_entity_name": t,
                    "relation_type": rel,
                    "fact": fact,
                    "valid_at": None,
                    "invalid_at": None,
                    "episode_indices": [0],
                }
                for s, rel, t, fact in edges
            ]
        }
    return minimal_instance(schema)


_EMPTY: dict[str, Any] = {
    "entities": [],
    "facts": [],
    "relations": [],
    "profiles": {},
    "causal_links": [],
    "emotion": {"label": "neutral", "intensity": 0.2, "energy": 0.3},
}


class ScriptedEndpoint:
    """``with ScriptedEndpoint() as ep: ep.base_url("ours")`` … ``ep.counts["ours"]``.

    ``current(message, speaker, recent)`` names the message being written; requests that do
    not carry it themselves (Graphiti's) are answered from it."""

    def __init__(self, recorded: dict[str, dict[str, Any]] | None = None) -> None:
        self.counts: dict[str, TagCounts] = {}
        self.recorded = recorded
        self._lock = threading.Lock()
        self._nlp: Any = None
        self._current: tuple[str, str, list[str]] = ("", "", [])
        self._cache: dict[tuple[str, str, tuple[str, ...]], Extraction] = {}
        self._edges: dict[tuple[str, str, tuple[str, ...]], list[tuple[str, str, str, str]]] = {}
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                tag = self.path.strip("/").split("/", 1)[0]
                if not self.path.endswith("/chat/completions"):
                    self.send_error(404, "only chat completions are scripted")
                    return
                payload = json.dumps(endpoint.answer(tag, body)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedEndpoint:
        if self.recorded is None:
            self._nlp = load_nlp()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def base_url(self, tag: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{tag}/v1"

    def current(self, message: str, speaker: str, recent: list[str]) -> None:
        self._current = (message, speaker, list(recent))

    def _extract(self, message: str, speaker: str, recent: list[str]) -> Extraction:
        key = (message, speaker, tuple(recent))
        with self._lock:
            if key not in self._cache:
                self._cache[key] = extract_with(self._nlp, message, speaker, recent)
            return self._cache[key]

    def answer(self, tag: str, body: dict[str, Any]) -> dict[str, Any]:
        messages = body.get("messages", [])
        prompt = "".join(str(m.get("content") or "") for m in messages)
        system = next((str(m["content"]) for m in messages if m.get("role") == "system"), "")
        fmt = body.get("response_format") or {}
        spec = fmt.get("json_schema") or {}
        schema = spec.get("schema") or {}
        name = str(spec.get("name") or schema.get("title") or "json")
        unmatched = 0
        if "Stage: " in system:  # Hippograph: the user message is the stage's JSON payload
            stage = system.split("Stage: ", 1)[1].split(" ", 1)[0]
            user = json.loads(next(m["content"] for m in messages if m.get("role") == "user"))
            if stage == "extract_informed" and self.recorded is not None:
                got = self.recorded.get(user["message"])
                unmatched = int(got is None)
                data = {**_EMPTY, **(got or {})}
            elif stage == "extract_informed":
                ex = self._extract(user["message"], user["speaker"], user["recent_messages"])
                data = _hippograph_answer(ex, user.get("known_facts", []))
            else:
                data = minimal_instance(schema) if schema else {}
            kind = stage
        else:
            message, speaker, recent = self._current
            ex = self._extract(message, speaker, recent)
            key = (message, speaker, tuple(recent))
            with self._lock:
                if key not in self._edges:
                    self._edges[key] = fact_edges(self._nlp, ex)
            data = _graphiti_answer(name, schema, ex, speaker, self._edges[key])
            kind = name
        content = json.dumps(data, ensure_ascii=False)
        p_tok, c_tok = estimate_tokens(prompt), estimate_tokens(content)
        with self._lock:
            c = self.counts.setdefault(tag, TagCounts())
            c.calls += 1
            c.prompt_chars += len(prompt)
            c.completion_chars += len(content)
            c.prompt_tokens += p_tok
            c.completion_tokens += c_tok
            c.by_kind[kind] += 1
            c.unmatched += unmatched
        return chat_completion(
            f"scripted-{c.calls}", body.get("model", "scripted"), content, p_tok, c_tok
        )
