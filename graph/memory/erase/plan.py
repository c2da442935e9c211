"""Pure decisions of an erase: what to erase, how names are matched, what an audit keeps.

No I/O here (``graph.memory.erase.run`` does the Neo4j work); unit tests check these without a
database.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from graph.errors import BadInput

__all__ = [
    "CONTEXT_PROBE_CHARS",
    "MIN_NAME_CHARS",
    "EraseReport",
    "EraseTarget",
    "batches",
    "carries",
    "context_probes",
    "erase_key",
    "erase_target",
    "mention_patterns",
    "name_matcher",
    "payload_fragment",
    "scrub_context",
    "scrub_rows",
    "text_hash",
]

T = TypeVar("T")

#: Names shorter than this are not searched in free text (``"Al"`` would match too much).
MIN_NAME_CHARS = 3


@dataclass(frozen=True)
class EraseTarget:
    """What one erase removes: one fact, one subject (entity key) or the whole agent."""

    agent_id: str
    fact_id: str | None = None
    entity_key: str | None = None
    everything: bool = False

    @property
    def scope(self) -> str:
        """``fact``, ``entity`` or ``agent``."""
        return "agent" if self.everything else ("fact" if self.fact_id else "entity")


def erase_target(
    agent_id: str,
    *,
    fact_id: str | None = None,
    entity_key: str | None = None,
    everything: bool = False,
) -> EraseTarget:
    """Validate an erase request: an agent and exactly one of a fact, an entity or everything.

    Raises:
        BadInput: no agent, or not exactly one target.
    """
    if not agent_id or not agent_id.strip():
        raise BadInput("an agent id is required")
    fact = (fact_id or "").strip() or None
    key = (entity_key or "").strip() or None
    if sum((fact is not None, key is not None, everything)) != 1:
        raise BadInput("name exactly one of: a fact id, an entity key, or the whole agent")
    return EraseTarget(agent_id=agent_id, fact_id=fact, entity_key=key, everything=everything)


@dataclass
class EraseReport:
    """What an erase removed (counts of nodes and relationships)."""

    scope: str
    facts: int = 0
    events: int = 0
    documents: int = 0
    entities: int = 0
    relations_deleted: int = 0
    relations_updated: int = 0
    observations: int = 0
    audits_scrubbed: int = 0
    job_contexts: int = 0
    webhook_deliveries: int = 0  # deliveries whose text or entity keys were scrubbed
    receipts: int = 0
    jobs: int = 0
    dedup_slots: int = 0
    profiles_cleared: int = 0
    nodes: int = 0
    keys_changed: int = 0
    keys_revoked: int = 0
    audit_id: str | None = None

    def counts(self) -> dict[str, int]:
        """The non-zero counts, for logs, the audit record and the CLI."""
        return {
            f.name: v for f in fields(self) if isinstance(v := getattr(self, f.name), int) and v
        }


def erase_key() -> bytes:
    """A random key for the hashes one erase (or one retention pass) writes; never stored."""
    return secrets.token_bytes(32)


def text_hash(*parts: str | None, key: bytes) -> str | None:
    """What an audit keeps of erased text: an HMAC-SHA256 under ``key`` (first 32 hex chars),
    or None for no text.

    The key is drawn for each erase (:func:`erase_key`) and never stored, so the hashes one
    erase writes match each other (records about the same text stay comparable) but nobody,
    holding a key for the agent or the database itself, can confirm a guessed text or entity
    key against them (a plain sha256 of ``person:clara_rezende`` could be)."""
    text = "\x1f".join(p for p in parts if p)
    if not text:
        return None
    digest = hmac.new(key, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()
    return "hmac:" + digest[:32]


def searchable_names(names: Iterable[str | None]) -> list[str]:
    """Distinct names (case-insensitive) long enough to look for in free text."""
    seen: dict[str, str] = {}
    for name in names:
        clean = " ".join((name or "").split())
        if len(clean) >= MIN_NAME_CHARS:
            seen.setdefault(clean.casefold(), clean)
    return sorted(seen.values(), key=str.casefold)


def mention_patterns(names: Iterable[str | None]) -> list[str]:
    """Whole-word, case-insensitive Neo4j (Java) regexes that match a text naming one of
    ``names`` anywhere (``=~`` must match the whole string, hence the ``.*`` on both sides).

    ``\\Q...\\E`` quotes the name, so no character of it acts as regex syntax.
    """
    return [
        r"(?isU).*(?<!\w)\Q" + n.replace(r"\E", "") + r"\E(?!\w).*" for n in searchable_names(names)
    ]


def name_matcher(names: Iterable[str | None]) -> re.Pattern[str] | None:
    """The Python counterpart of :func:`mention_patterns` (None when no name is searchable)."""
    found = searchable_names(names)
    if not found:
        return None
    return re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in found), re.I)


def scrub_rows(
    rows: Sequence[dict[str, Any]],
    erased_ids: Iterable[str],
    names: re.Pattern[str] | None,
    *,
    key: bytes,
) -> list[dict[str, Any]]:
    """Audit rows → their scrubbed form: text and reason become one hash; a ``target_id`` that is
    an erased id or names an erased subject becomes its hash too (other ids stay). Hashes are
    keyed by ``key`` (see :func:`text_hash`)."""
    gone = set(erased_ids)
    out = []
    for r in rows:
        target = r.get("target_id")
        if target is not None and (target in gone or (names is not None and names.search(target))):
            target = text_hash(target, key=key)
        out.append(
            {
                "id": r["id"],
                "text_hash": text_hash(r.get("text"), r.get("reason"), key=key),
                "target_id": target,
            }
        )
    return out


#: How much of the start of an erased message identifies it among a later job's earlier messages.
CONTEXT_PROBE_CHARS = 64


def context_probes(texts: Iterable[str | None]) -> list[str]:
    """The start of each erased message (at most :data:`CONTEXT_PROBE_CHARS`), distinct: what
    an earlier message kept in a later job's payload (``recent_messages``) is recognised by
    (it may carry a ``"Speaker: "`` prefix, or be cut)."""
    return list(dict.fromkeys(p for t in texts if (p := (t or "").strip()[:CONTEXT_PROBE_CHARS])))


def payload_fragment(probe: str) -> str:
    """``probe`` as it appears inside a job's stored payload (JSON, ASCII-escaped), for a
    ``CONTAINS`` pre-filter in Cypher."""
    return json.dumps(probe)[1:-1]


def carries(message: str, probe: str, *, cut: bool) -> bool:
    """Whether an earlier ``message`` carries the erased message starting with ``probe``: the
    probe occurs in it starting at a word boundary, and ending at one unless the erased message
    was longer than the probe (``cut``)."""
    start = message.find(probe)
    while start >= 0:
        end = start + len(probe)
        before = start == 0 or not message[start - 1].isalnum()
        after = cut or end == len(message) or not message[end].isalnum()
        if before and after:
            return True
        start = message.find(probe, start + 1)
    return False


def scrub_context(messages: Sequence[Any], texts: Sequence[str]) -> list[Any]:
    """``messages`` (a job's ``recent_messages``) without those carrying one of the erased
    message ``texts`` (see :func:`carries`); other items stay in order."""
    probes = [
        (clean[:CONTEXT_PROBE_CHARS], len(clean) > CONTEXT_PROBE_CHARS)
        for text in texts
        if (clean := (text or "").strip())
    ]
    return [
        m
        for m in messages
        if not (isinstance(m, str) and any(carries(m, p, cut=cut) for p, cut in probes))
    ]


def batches(items: Sequence[T], size: int) -> Iterator[list[T]]:
    """``items`` in consecutive lists of at most ``size`` (each one bounded transaction)."""
    for start in range(0, len(items), max(1, size)):
        yield list(items[start : start + size])
