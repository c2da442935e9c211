"""A Mem0 export (the JSON its ``get_all`` returns) as structured ``remember`` input.

Mem0 answers ``get_all`` in three shapes, all read here: a bare list of memories (API v1), an
object with ``results`` (the open-source ``Memory``, plus ``relations`` when its graph store is
on), or an object with ``memories``. A memory is ``{id, memory, hash, metadata, created_at,
updated_at, user_id | agent_id | run_id, categories?, expiration_date?}``.

Mapping: every memory becomes a fact whose subject is its owner (``user_id``, else
``agent_id``, else "user"), created and valid from ``created_at`` (``updated_at`` when
newer: Mem0 rewrites a memory in place, so its text is as of its last update), ``categories``
(top level or ``metadata.category``/``categories``) kept, ``expiration_date`` as the end of a
temporal fact, and an id derived from the Mem0 id so re-importing rewrites, never doubles.
Graph relations ``{source, relationship, target}`` become entity relationships. Everything
else (``hash``, ``score``, other metadata keys) is reported as not mapped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.memory.transfer.records import map_id
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation

__all__ = ["Mem0Import", "map_mem0"]

_KNOWN = frozenset(
    {
        "id",
        "memory",
        "text",
        "user_id",
        "agent_id",
        "run_id",
        "app_id",
        "created_at",
        "updated_at",
        "metadata",
        "categories",
        "expiration_date",
    }
)
_IGNORED = frozenset(
    {"hash", "score", "owner", "organization", "immutable", "input", "actor_id", "role"}
)


@dataclass
class Mem0Import:
    """What a Mem0 export maps to, and what it did not."""

    entities: list[StructuredEntity] = field(default_factory=list)
    facts: list[StructuredFact] = field(default_factory=list)
    relations: list[StructuredRelation] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unmapped: Counter[str] = field(default_factory=Counter)

    def report(self) -> dict[str, Any]:
        return {
            "mapped": {
                "entities": len(self.entities),
                "facts": len(self.facts),
                "relations": len(self.relations),
            },
            "skipped": self.skipped,
            "not_mapped_fields": dict(self.unmapped),
        }


def _when(value: Any, where: str) -> datetime | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise BadInput(f"{where}: expected an ISO 8601 string, got {type(value).__name__}")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise BadInput(f"{where}: {value!r} is not an ISO 8601 datetime") from exc
    if parsed.tzinfo is None:  # Mem0 writes naive UTC times in some versions
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def _memories(data: Any) -> tuple[list[Any], list[Any]]:
    if isinstance(data, list):
        return data, []
    if isinstance(data, dict):
        for key in ("results", "memories"):
            if isinstance(data.get(key), list):
                rels = data.get("relations")
                return data[key], rels if isinstance(rels, list) else []
    raise BadInput(
        "not a Mem0 get_all export: expected a list of memories or an object with 'results'"
    )


def _categories(mem: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    raw = mem.get("categories") or meta.get("categories") or meta.get("category") or []
    values = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, list) else []
    return [str(v).strip().lower() for v in values if str(v).strip()]


def map_mem0(data: Any, agent_id: str) -> Mem0Import:
    """Map a parsed Mem0 ``get_all`` JSON document for import into ``agent_id``.

    Raises:
        BadInput: the document is none of Mem0's shapes, or a date is malformed.
    """
    memories, relations = _memories(data)
    out = Mem0Import()
    owners: dict[str, None] = {}
    for i, mem in enumerate(memories):
        if not isinstance(mem, dict):
            out.skipped.append(f"memories[{i}]: not an object")
            continue
        text = str(mem.get("memory") or mem.get("text") or "").strip()
        if not text:
            out.skipped.append(f"memories[{i}]: no memory text")
            continue
        owner = str(mem.get("user_id") or mem.get("agent_id") or "user")
        owners.setdefault(owner)
        raw_meta = mem.get("metadata")
        meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
        created = _when(mem.get("created_at"), f"memories[{i}].created_at")
        updated = _when(mem.get("updated_at"), f"memories[{i}].updated_at")
        since = max((d for d in (created, updated) if d is not None), default=None)
        until = _when(mem.get("expiration_date"), f"memories[{i}].expiration_date")
        out.facts.append(
            StructuredFact(
                text,
                owner,
                created_at=since,
                valid_from=since,
                categories=_categories(mem, meta),
                id=map_id(agent_id, f"mem0:{mem['id']}") if mem.get("id") else None,
                temporal_class="temporal" if until else "persistent",
                valid_until=until,
                source_context="mem0",
            )
        )
        for key in mem:
            if key not in _KNOWN:
                out.unmapped[key if key in _IGNORED else f"unknown:{key}"] += 1
        for key in meta:
            if key not in ("category", "categories"):
                out.unmapped[f"metadata.{key}"] += 1
        if mem.get("run_id"):
            out.unmapped["run_id"] += 1
    for j, rel in enumerate(relations):
        src = rel.get("source") if isinstance(rel, dict) else None
        dst = rel.get("target") or rel.get("destination") if isinstance(rel, dict) else None
        kind = rel.get("relationship") if isinstance(rel, dict) else None
        if not (src and dst and kind):
            out.skipped.append(f"relations[{j}]: needs source, relationship and target")
            continue
        out.relations.append(StructuredRelation(str(src), str(dst), str(kind)))
    out.entities = [StructuredEntity(name, "person") for name in owners]
    return out
