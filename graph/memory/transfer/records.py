"""The JSON Lines format of an agent export, as pure functions (no database).

One JSON object per line. The first line is the header::

    {"kind": "header", "format": "hippograph-export", "version": 1, "agent_id": "alice",
     "embedder": "minilm-l6-v2", "dimensions": 384, "exported_at": "..."}

then one line per record, in an order that lets an importer write each record once the records
it points at exist: ``entity``, ``alias``, ``event``, ``document``, ``chunk``, ``fact`` (with its
``about`` entity keys and ``from_events`` event ids), ``fact_link`` (``supersedes`` / ``causes``,
after every fact), ``relation`` (one ``RELATES_TO`` version each), ``observation``.

Every record carries the node's or relationship's properties under ``props``, datetimes as ISO
8601 strings, embeddings as lists of floats. Ids are rewritten on import (:func:`map_id`) so
one export can be imported into several agents of the same database, and re-importing it
into the same agent rewrites the same nodes instead of doubling them.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.errors import BadInput
from graph.memory.text import content_hash

__all__ = [
    "FORMAT",
    "KINDS",
    "VERSION",
    "ExportHeader",
    "decode_props",
    "encode_props",
    "map_id",
    "parse_header",
    "remap_record",
]

FORMAT = "hippograph-export"
VERSION = 1
# Record kinds in the order an export writes them (and an importer can apply them).
KINDS = (
    "entity",
    "alias",
    "event",
    "document",
    "chunk",
    "fact",
    "fact_link",
    "relation",
    "observation",
)
# Properties holding datetimes (ISO strings in the file, Neo4j DATETIME in the graph).
_DATE_SUFFIXES = ("_at",)
_DATE_NAMES = frozenset({"valid_from", "valid_to", "valid_until", "since"})
# Properties never exported: they belong to the agent's place in this database, not its memory
# (``agent_norm``: an alias's lookup key made of its agent's id and norm, set again on import;
# ``terms``: the keyword field derived from a fact's or event's text, derived again on import).
_DROPPED = frozenset({"agent_id", "agent_norm", "terms"})
# The vectors: exported only with ``embeddings`` (a fact's English gloss has one of its own).
_VECTORS = frozenset({"embedding", "gloss_embedding"})
_ID_NAMESPACE = uuid.UUID("8f4b7a52-64a5-4d1f-9d0e-6b1c2f0a9e31")


@dataclass(frozen=True)
class ExportHeader:
    """What the first line of an export says about the memory that follows."""

    agent_id: str
    embedder: str
    dimensions: int
    exported_at: datetime | None = None
    counts: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": "header",
            "format": FORMAT,
            "version": VERSION,
            "agent_id": self.agent_id,
            "embedder": self.embedder,
            "dimensions": self.dimensions,
        }
        if self.exported_at is not None:
            out["exported_at"] = self.exported_at.isoformat()
        return out


def parse_header(line: dict[str, Any]) -> ExportHeader:
    """Read the header line; raise :class:`BadInput` when the file is not an export we read."""
    if line.get("kind") != "header" or line.get("format") != FORMAT:
        raise BadInput(f"not a {FORMAT} file: the first line must be its header")
    if line.get("version") != VERSION:
        raise BadInput(
            f"{FORMAT} version {line.get('version')!r} is not supported "
            f"(this server reads version {VERSION})"
        )
    try:
        dims = int(line["dimensions"])
        name = str(line["embedder"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInput("the export header lacks embedder and dimensions") from exc
    when = line.get("exported_at")
    return ExportHeader(
        str(line.get("agent_id") or ""),
        name,
        dims,
        datetime.fromisoformat(when) if isinstance(when, str) else None,
    )


def _is_date(name: str) -> bool:
    return name in _DATE_NAMES or name.endswith(_DATE_SUFFIXES)


def encode_props(props: dict[str, Any], *, embeddings: bool = True) -> dict[str, Any]:
    """Graph properties → JSON-ready: datetimes as ISO strings, ``agent_id`` (and an alias's
    ``agent_norm``) dropped, the embedding kept only when ``embeddings`` (an importer with
    another model re-embeds)."""
    out: dict[str, Any] = {}
    for key, value in sorted(props.items()):
        if key in _DROPPED or (key in _VECTORS and not embeddings):
            continue
        out[key] = value.isoformat() if isinstance(value, datetime) else value
    return out


def decode_props(props: dict[str, Any]) -> dict[str, Any]:
    """JSON props → graph properties: ISO strings of datetime properties parsed back.

    Raises:
        BadInput: a datetime property that is not an ISO 8601 string with a timezone.
    """
    out: dict[str, Any] = {}
    for key, value in props.items():
        if key in _DROPPED or value is None:
            continue
        if _is_date(key) and isinstance(value, str):
            try:
                parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError as exc:
                raise BadInput(f"{key}: {value!r} is not an ISO 8601 datetime") from exc
            if parsed.tzinfo is None:
                raise BadInput(f"{key}: {value!r} has no timezone")
            value = parsed
        out[key] = value
    return out


def map_id(agent_id: str, old_id: str | None) -> str | None:
    """The id a record gets in ``agent_id``: a UUID derived from both, so importing the same
    export twice into one agent hits the same nodes, and into two agents never collides."""
    if old_id is None:
        return None
    return str(uuid.uuid5(_ID_NAMESPACE, f"{agent_id}\x1f{old_id}"))


def _need(record: dict[str, Any], key: str) -> Any:
    value = record.get(key)
    if value is None:
        raise BadInput(f"{record.get('kind')} record without {key!r}")
    if key in _STRING_FIELDS and not isinstance(value, str):
        raise BadInput(f"{record.get('kind')} record: {key!r} must be a string")
    return value


# Fields that hold an id or a key: strings.
_STRING_FIELDS = frozenset({"id", "key", "norm", "document_id", "source", "target"})
_SCALARS = (str, bool, int, float)


def _property(kind: str, name: str, value: Any) -> None:
    """A value Neo4j can store as a property: a string, number or boolean, or a list of one of
    those kinds (a vector); anything else (an object, a list of objects) is refused."""
    if isinstance(value, _SCALARS):
        return
    if isinstance(value, list):
        kinds = {
            str
            if isinstance(v, str)
            else bool
            if isinstance(v, bool)
            else float
            if isinstance(v, (int, float))
            else None
            for v in value
        }
        if None not in kinds and len(kinds) <= 1:
            return
    raise BadInput(
        f"{kind} record: props.{name} must be a string, number, boolean or a list of one of "
        f"those, not {type(value).__name__}"
    )


def _props(record: dict[str, Any]) -> dict[str, Any]:
    kind = record.get("kind")
    raw = record.get("props")
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise BadInput(f"{kind} record: 'props' must be an object, not {type(raw).__name__}")
    for name, value in raw.items():
        if value is not None:
            _property(str(kind), name, value)
    return decode_props(dict(raw))


def _strings(record: dict[str, Any], key: str) -> list[str]:
    """``record[key]``: a list of strings (absent or null: empty)."""
    value = record.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadInput(f"{record.get('kind')} record: {key!r} must be a list of strings")
    return value


def _objects(record: dict[str, Any], key: str, field: str) -> list[dict[str, Any]]:
    """``record[key]``: a list of objects, each with a string ``field``."""
    value = record.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(
        isinstance(v, dict) and isinstance(v.get(field), str) for v in value
    ):
        raise BadInput(
            f"{record.get('kind')} record: {key!r} must be a list of objects with a "
            f"string {field!r}"
        )
    return value


def remap_record(record: dict[str, Any], agent_id: str) -> dict[str, Any]:
    """One export record rewritten for ``agent_id``: ids mapped, props decoded, the fact's
    content hash recomputed (it includes the agent id). Returns the row an import query takes.

    Raises:
        BadInput: an unknown kind, a record missing what its kind needs, or a field of the wrong
            type (``props`` not an object, a property Neo4j cannot store, an id not a string,
            ``about`` or ``causes`` items without their key or id).
    """
    kind = record.get("kind")
    if kind not in KINDS:
        raise BadInput(f"unknown record kind {kind!r}")
    props = _props(record)
    m = lambda old: map_id(agent_id, old)  # noqa: E731 - local shorthand
    if kind == "entity":
        return {"key": _need(record, "key"), "props": {**props, "key": record["key"]}}
    if kind == "alias":
        return {
            "norm": _need(record, "norm"),
            "entity_keys": _strings(record, "entity_keys"),
            "props": {**props, "norm": record["norm"]},
        }
    if kind in ("event", "document"):
        new = m(_need(record, "id"))
        return {"id": new, "props": {**props, "id": new}}
    if kind == "chunk":
        new, doc = m(_need(record, "id")), m(_need(record, "document_id"))
        return {"id": new, "document_id": doc, "props": {**props, "id": new, "document_id": doc}}
    if kind == "fact":
        new = m(_need(record, "id"))
        for name in ("subject_key", "normalized"):
            if name in props and not isinstance(props[name], str):
                raise BadInput(f"fact record: props.{name} must be a string")
        if "subject_key" in props and "normalized" in props:
            props["content_hash"] = content_hash(
                agent_id, props["subject_key"], props["normalized"]
            )
        return {
            "id": new,
            "props": {**props, "id": new},
            "about": [
                {"key": a["key"], "primary": bool(a.get("primary"))}
                for a in _objects(record, "about", "key")
            ],
            "from_events": [m(e) for e in _strings(record, "from_events")],
        }
    if kind == "fact_link":
        return {
            "id": m(_need(record, "id")),
            "supersedes": [m(s) for s in _strings(record, "supersedes")],
            "causes": [
                {"id": m(c["id"]), "props": _props({"kind": "cause", "props": c.get("props")})}
                for c in _objects(record, "causes", "id")
            ],
        }
    if kind == "relation":
        new = m(_need(record, "id"))
        props["id"] = new
        if props.get("evidence_fact_id"):
            props["evidence_fact_id"] = m(str(props["evidence_fact_id"]))
        if props.get("evidence_fact_ids"):
            props["evidence_fact_ids"] = [m(str(f)) for f in props["evidence_fact_ids"]]
        return {
            "id": new,
            "source": _need(record, "source"),
            "target": _need(record, "target"),
            "props": props,
        }
    new = m(_need(record, "id"))  # observation
    return {
        "id": new,
        "props": {**props, "id": new},
        "derived_from": [m(f) for f in _strings(record, "derived_from")],
    }
