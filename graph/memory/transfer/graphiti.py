"""A Graphiti graph (rows read from its Neo4j database) as structured ``remember`` input.

Graphiti keeps ``(:Entity {uuid, name, summary, group_id, created_at})`` nodes (extra labels are
entity types), ``(:Entity)-[:RELATES_TO {uuid, name, fact, episodes, created_at, valid_at,
invalid_at, expired_at}]->(:Entity)`` edges, each a sentence about two entities with its own
validity, and ``(:Episodic {uuid, content, source, source_description, valid_at})`` episodes.

Mapping:
- an entity → an entity (type from its first extra label, else ``thing``; summary → profile);
- an edge → a fact about its source entity mentioning its target, ``valid_at`` → valid from
  (else ``created_at``), ``invalid_at`` → valid to, else ``expired_at`` (Graphiti's system time of
  the invalidation: the fact was no longer believed from then), linked to its episodes;
  a still-valid edge also → an entity relationship of type ``name`` (closed ones stay as fact
  history: structured relationships start valid);
- an episode → an event (``message`` episodes "speaker: text" split into speaker and text).
Ids are derived from Graphiti's uuids, so importing a graph twice rewrites the same facts.
Not mapped (reported): ``MENTIONS`` edges (recomputed from the facts' entities), communities,
embeddings (re-embedded by this server's model), custom attributes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.memory.text import normalize_relation_type
from graph.memory.transfer.records import map_id
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact, StructuredRelation

__all__ = ["EdgeMapping", "map_edge", "map_entity", "map_episode"]

_MAX_SPEAKER = 60


def _split_speaker(content: str) -> tuple[str, str] | None:
    """``"alice: I moved"`` → ("alice", "I moved"); None when there is no short speaker."""
    head, sep, rest = content.partition(": ")
    speaker = head.strip()
    if not sep or not speaker or len(speaker) > _MAX_SPEAKER or "\n" in speaker:
        return None
    return speaker, rest.strip()


def map_entity(row: dict[str, Any]) -> StructuredEntity | None:
    """A Graphiti entity row ``{uuid, name, labels, summary}``; None without a name."""
    name = str(row.get("name") or "").strip()
    if not name:
        return None
    types = [lb for lb in row.get("labels") or [] if lb not in ("Entity", "Node")]
    kind = re.sub(r"[^a-z0-9_]", "_", types[0].lower()) if types else "thing"
    summary = str(row.get("summary") or "").strip() or None
    return StructuredEntity(name, kind or "thing", profile_text=summary)


def map_episode(row: dict[str, Any], agent_id: str) -> StructuredEvent | None:
    """A Graphiti episode row ``{uuid, content, source, source_description, valid_at,
    created_at, group_id}``; None when it has no content."""
    content = str(row.get("content") or "").strip()
    if not content:
        return None
    speaker = str(row.get("source_description") or row.get("name") or "graphiti")
    text = content
    if str(row.get("source") or "").lower().endswith("message"):
        split = _split_speaker(content)
        if split is not None:
            speaker, text = split
    when = row.get("valid_at") or row.get("created_at")
    return StructuredEvent(
        text,
        speaker,
        occurred_at=when if isinstance(when, datetime) else None,
        id=map_id(agent_id, f"graphiti:{row['uuid']}"),
        thread_id=str(row.get("group_id") or "") or None,
        source="graphiti",
    )


@dataclass(frozen=True)
class EdgeMapping:
    """One Graphiti edge mapped: its fact, its relationship when still valid, and why not."""

    fact: StructuredFact | None
    relation: StructuredRelation | None
    note: str | None = None


def map_edge(row: dict[str, Any], agent_id: str, known_events: set[str]) -> EdgeMapping:
    """A Graphiti ``RELATES_TO`` row ``{uuid, source, target, name, fact, episodes, created_at,
    valid_at, invalid_at, expired_at}`` (source/target: entity names); ``known_events`` are
    the mapped ids of the imported episodes (an edge links only to those)."""
    text = str(row.get("fact") or "").strip()
    source, target = str(row.get("source") or ""), str(row.get("target") or "")
    if not text or not source:
        return EdgeMapping(None, None, "edge without fact text or source entity")
    created = row.get("created_at")
    valid_from = row.get("valid_at") or created
    valid_to = row.get("invalid_at") or row.get("expired_at")
    if valid_to is not None and valid_from is not None and valid_to <= valid_from:
        valid_to = valid_from  # Graphiti may close an edge the instant it opens it
    events = [
        e
        for e in (map_id(agent_id, f"graphiti:{u}") for u in row.get("episodes") or [])
        if e in known_events
    ]
    if created is not None and valid_from is not None and created > valid_from:
        created_at = valid_from  # known at least from when it became valid in the source
    else:
        created_at = created
    fact = StructuredFact(
        text,
        source,
        entities=[target] if target and target != source else [],
        created_at=created_at,
        valid_from=valid_from,
        valid_to=valid_to,
        event_ids=events,
        id=map_id(agent_id, f"graphiti:{row['uuid']}"),
        source_context="graphiti",
    )
    kind = normalize_relation_type(str(row.get("name") or ""))
    if valid_to is not None:
        return EdgeMapping(fact, None, "closed edge: kept as fact history, no relationship")
    if not target or target == source or kind is None:
        return EdgeMapping(fact, None, "edge name is not a relationship type")
    return EdgeMapping(fact, StructuredRelation(source, target, kind, valid_from=valid_from))
