"""Duplicate-entity detection (pure scoring) and the ``dedup_entities`` job.

Candidate pairs come from blocking (a shared name token or prefix, or embedding cosine ≥ 0.85),
so large agents are not compared n². Each pair gets a confidence from name similarity (exact,
containment — "Clara" in "Clara Rezende" — or difflib ratio, over names and aliases) blended
with embedding cosine. Pairs at or above ``merge_candidate_threshold`` become
``(:MergeCandidate)`` nodes; at or above ``merge_auto_threshold`` they are merged right away
through the write pipeline's ``merge_entities``.
"""

from __future__ import annotations

import difflib
import hashlib
import logging
import re
import unicodedata
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from graph.executor import Executor
from graph.memory.curation.edits import merge_entities
from graph.memory.jobs.context import JobContext
from graph.memory.jobs.jobs_config import MaintenanceConfig
from graph.memory.text import join_parts

__all__ = [
    "EntityPoint",
    "PairScore",
    "dedup_handler",
    "detect_duplicates",
    "find_duplicates",
    "name_similarity",
    "norm_name",
]

log = logging.getLogger(__name__)
_NS = uuid.UUID("0c8f3a86-2f4b-4a5e-8d3c-7b1f6e2a9d40")
_GENERIC_TYPES = {"", "thing", "unknown", "entity", "extracted", "other", "concept"}
_EMBED_BLOCK = 0.85


@dataclass(frozen=True)
class EntityPoint:
    key: str
    name: str
    type: str | None
    embedding: Sequence[float] | None = None
    mentions: int = 0
    aliases: tuple[str, ...] = ()
    created_at: datetime | None = None
    facts: int = 0


@dataclass(frozen=True)
class PairScore:
    keep_key: str
    drop_key: str
    confidence: float
    reason: str
    id: str = field(default="")


def norm_name(text: str) -> str:
    """Lowercase, accents and punctuation removed, whitespace collapsed."""
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w\s]", " ", folded).split())


def name_similarity(a: str, b: str) -> tuple[float, str]:
    """Similarity of two normalised names in [0, 1] and why."""
    if not a or not b:
        return 0.0, "empty name"
    if a == b:
        return 1.0, "same name"
    ta, tb = set(a.split()), set(b.split())
    short, long_ = (ta, tb) if len(ta) <= len(tb) else (tb, ta)
    if short and short < long_ and min(len(t) for t in short) >= 3:
        return 0.9, "one name contains the other"
    return difflib.SequenceMatcher(None, a, b).ratio(), "similar names"


def _types_compatible(a: str | None, b: str | None) -> bool:
    ta, tb = (a or "").lower(), (b or "").lower()
    return ta == tb or ta in _GENERIC_TYPES or tb in _GENERIC_TYPES


def _keep_first(a: EntityPoint, b: EntityPoint) -> bool:
    """Which of two duplicates survives: more facts, then mentions, then older, then the fuller
    name."""
    far = datetime.max
    ka = (
        -a.facts,
        -a.mentions,
        a.created_at.replace(tzinfo=None) if a.created_at else far,
        -len(a.name),
        a.key,
    )
    kb = (
        -b.facts,
        -b.mentions,
        b.created_at.replace(tzinfo=None) if b.created_at else far,
        -len(b.name),
        b.key,
    )
    return ka <= kb


def candidate_id(agent_id: str, key_a: str, key_b: str) -> str:
    digest = hashlib.sha256(join_parts(agent_id, *sorted([key_a, key_b])).encode()).hexdigest()
    return str(uuid.uuid5(_NS, digest))


def _blocked_pairs(entities: Sequence[EntityPoint], floor: float = 0.0) -> set[tuple[int, int]]:
    """Index pairs worth scoring: shared token/prefix, or very similar embeddings."""
    buckets: dict[str, list[int]] = {}
    for i, e in enumerate(entities):
        names = {norm_name(n) for n in (e.name, *e.aliases)}
        tokens = {t for n in names for t in n.split() if len(t) >= 3}
        tokens |= {f"^{n[:4]}" for n in names if len(n) >= 4}
        for t in tokens:
            buckets.setdefault(t, []).append(i)
    pairs: set[tuple[int, int]] = set()
    for members in buckets.values():
        if len(members) > 200:  # a token everyone shares ("the") blocks nothing useful
            continue
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                pairs.add((members[x], members[y]))
    with_vec = [i for i, e in enumerate(entities) if e.embedding]
    if len(with_vec) >= 2:
        m = np.asarray([entities[i].embedding for i in with_vec], dtype=np.float32)
        m /= np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
        for start in range(0, len(with_vec), 512):
            sims = m[start : start + 512] @ m.T
            for r, c in zip(*np.nonzero(sims >= floor + _EMBED_BLOCK * (1.0 - floor)), strict=True):
                i, j = with_vec[start + int(r)], with_vec[int(c)]
                if i < j:
                    pairs.add((i, j))
    return pairs


def find_duplicates(
    agent_id: str,
    entities: Sequence[EntityPoint],
    *,
    threshold: float = 0.80,
    floor: float = 0.0,
) -> list[PairScore]:
    """Scored duplicate pairs at or above ``threshold``, most confident first (pure).
    ``floor``: the embedder's similarity floor; cosines count above it (0 → 0, 1 → 1)."""
    out: list[PairScore] = []
    for i, j in sorted(_blocked_pairs(entities, floor)):
        a, b = entities[i], entities[j]
        if not _types_compatible(a.type, b.type):
            continue
        best, why = 0.0, ""
        for na in {norm_name(n) for n in (a.name, *a.aliases)}:
            for nb in {norm_name(n) for n in (b.name, *b.aliases)}:
                score, reason = name_similarity(na, nb)
                if score > best:
                    best, why = score, reason
        cos = None
        if a.embedding and b.embedding:
            va, vb = np.asarray(a.embedding), np.asarray(b.embedding)
            denom = float(np.linalg.norm(va) * np.linalg.norm(vb)) or 1.0
            cos = max(0.0, (float(va @ vb) / denom - floor) / (1.0 - floor))
        confidence = best if cos is None else 0.6 * best + 0.4 * cos
        if best == 1.0:  # the same name is strong evidence whatever the embeddings say
            confidence = max(confidence, 0.95)
        if confidence < threshold:
            continue
        reason = f"{why} ({best:.2f})" + (
            f", embedding cosine {cos:.2f}" if cos is not None else ""
        )
        keep, drop = (a, b) if _keep_first(a, b) else (b, a)
        out.append(
            PairScore(
                keep.key,
                drop.key,
                round(confidence, 4),
                reason,
                candidate_id(agent_id, a.key, b.key),
            )
        )
    out.sort(key=lambda p: (-p.confidence, p.id))
    return out


async def _auto_merge(executor: Executor, agent_id: str, pair: PairScore) -> bool:
    """Merge a near-certain pair; a failure leaves the candidate open for a human."""
    try:
        await merge_entities(executor, agent_id, pair.keep_key, pair.drop_key, reason=pair.reason)
    except Exception as exc:
        # The candidate id, not the keys nor the error's text (it may quote them): entity keys
        # name people and stay out of log files.
        log.warning("auto-merge of candidate %s failed: %s", pair.id, type(exc).__name__)
        return False
    return True


async def detect_duplicates(
    executor: Executor,
    agent_id: str,
    config: MaintenanceConfig | None = None,
    *,
    max_entities: int = 5_000,
) -> dict[str, Any]:
    """Score the agent's entities, record candidates, auto-merge the near-certain ones."""
    cfg = config or MaintenanceConfig()
    rows = await executor.run(
        "consolidation/dedup_entities", {"agent_id": agent_id, "limit": max_entities}, read=True
    )
    entities = [
        EntityPoint(
            r["key"],
            r["name"] or r["key"],
            r["type"],
            r["embedding"],
            int(r["mentions"]),
            tuple(a for a in r["aliases"] if a),
            r["created_at"],
            int(r["facts"]),
        )
        for r in rows
    ]
    pairs = find_duplicates(
        agent_id, entities, threshold=cfg.merge_candidate_threshold, floor=cfg.similarity_floor
    )
    if not pairs:
        return {"entities": len(entities), "candidates": 0, "new": 0, "merged": 0}
    stored = await executor.run(
        "consolidation/upsert_merge_candidates",
        {
            "agent_id": agent_id,
            "rows": [
                {
                    "id": p.id,
                    "keep_key": p.keep_key,
                    "drop_key": p.drop_key,
                    "confidence": p.confidence,
                    "reason": p.reason,
                }
                for p in pairs
            ],
        },
    )
    status = {r["id"]: r["status"] for r in stored}
    merged = 0
    gone: set[str] = set()
    for p in pairs:
        if (
            p.confidence < cfg.merge_auto_threshold
            or status.get(p.id) != "open"
            or {p.keep_key, p.drop_key} & gone
        ):
            continue
        if await _auto_merge(executor, agent_id, p):
            gone.add(p.drop_key)
            merged += 1
            await executor.run(
                "consolidation/set_merge_status",
                {
                    "agent_id": agent_id,
                    "id": p.id,
                    "status": "merged",
                    "note": f"auto-merged (confidence {p.confidence:.2f})",
                },
            )
    return {
        "entities": len(entities),
        "candidates": len(pairs),
        "new": sum(1 for r in stored if r["created"]),
        "merged": merged,
    }


async def dedup_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``dedup_entities``."""
    return await detect_duplicates(ctx.deps.executor, ctx.job.agent_id, ctx.deps.config.maintenance)
