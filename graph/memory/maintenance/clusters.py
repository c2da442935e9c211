"""Pure consolidation decisions: which facts cluster together, and how an observation reads.

Clustering without GDS: facts are nodes, an edge joins two facts whose embeddings are similar
(cosine ≥ ``threshold``), or that share a subject entity and are moderately similar
(cosine ≥ ``same_subject_threshold``); connected components of at least ``min_size`` facts are
clusters. (With GDS, community detection over the same similarity graph could replace the
components; the observation step does not care where clusters come from.)
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from graph.memory.text import join_parts

__all__ = [
    "FactPoint",
    "cluster_facts",
    "observation_id",
    "pattern_text",
    "strip_subject",
    "used_to_now",
]

_NS = uuid.UUID("5b0b3c52-6a0e-4c1e-9f67-8a2f0d0c7a11")


@dataclass(frozen=True)
class FactPoint:
    id: str
    text: str
    subject_key: str | None
    subject_name: str | None
    embedding: Sequence[float]
    importance: float = 0.5


def cluster_facts(
    facts: Sequence[FactPoint],
    *,
    threshold: float = 0.75,
    same_subject_threshold: float = 0.45,
    min_size: int = 2,
    max_size: int = 8,
) -> list[list[FactPoint]]:
    """Group related facts (see module docstring); largest, most important clusters first.

    A cluster larger than ``max_size`` keeps its most important facts (an observation that
    cites 40 facts reads like a dump, not a pattern).
    """
    n = len(facts)
    if n < min_size:
        return []
    raw = np.asarray([f.embedding for f in facts], dtype=np.float64)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    matrix = raw / np.where(norms == 0, 1.0, norms)
    sims = matrix @ matrix.T
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    subjects = [f.subject_key for f in facts]
    for i in range(n):
        row = sims[i]
        for hit in np.nonzero(row[i + 1 :] >= same_subject_threshold)[0]:
            j = int(hit) + i + 1
            same = subjects[i] is not None and subjects[i] == subjects[j]
            if row[j] >= threshold or same:
                parent[find(i)] = find(j)
    groups: dict[int, list[FactPoint]] = {}
    for i, fact in enumerate(facts):
        groups.setdefault(find(i), []).append(fact)
    clusters = [
        sorted(g, key=lambda f: (-f.importance, f.id))[:max_size]
        for g in groups.values()
        if len(g) >= min_size
    ]
    clusters.sort(key=lambda g: (-len(g), -sum(f.importance for f in g), g[0].id))
    return clusters


def observation_id(agent_id: str, kind: str, fact_ids: Sequence[str]) -> str:
    """Stable id of the observation derived from exactly these facts (re-runs are no-ops)."""
    digest = hashlib.sha256(join_parts(agent_id, kind, *sorted(fact_ids)).encode()).hexdigest()
    return str(uuid.uuid5(_NS, digest))


def strip_subject(text: str, subject: str | None) -> str:
    """``"Clara lives in Porto."`` with subject Clara → ``"lives in Porto"``."""
    body = text.strip().rstrip(".!;")
    if subject:
        pattern = rf"^{re.escape(subject.strip())}(?:'s)?\s+"
        stripped = re.sub(pattern, "", body, count=1, flags=re.IGNORECASE)
        if stripped != body:
            return stripped
    return body


_IRREGULAR = {"is": "be", "has": "have", "does": "do", "goes": "go", "was": "be", "are": "be"}


def _base_verb(phrase: str) -> str:
    """Third-person present → base form for the first word ("lives in" → "live in")."""
    first, _, rest = phrase.partition(" ")
    low = first.lower()
    if low in _IRREGULAR:
        base = _IRREGULAR[low]
    elif re.fullmatch(r"[a-z]+(ches|shes|sses|xes|zzes)", low):
        base = low[:-2]
    elif re.fullmatch(r"[a-z]+[^aeiou]ies", low):
        base = low[:-3] + "y"
    elif re.fullmatch(r"[a-z]+[^su]s", low):
        base = low[:-1]
    else:
        return phrase
    return f"{base} {rest}".strip()


def used_to_now(subject: str | None, old_text: str, new_text: str) -> str:
    """Phrase a change as ``"<subject> used to X, now Y"``.

    When both facts start with the subject's name, the name is said once and the old verb is
    put in its base form ("Clara used to live in Lisbon, now lives in Porto"); otherwise the
    whole facts are quoted ("Used to: … — now: …").
    """
    old_body = strip_subject(old_text, subject)
    new_body = strip_subject(new_text, subject)
    if (
        subject
        and old_body != old_text.strip().rstrip(".!;")
        and new_body != new_text.strip().rstrip(".!;")
    ):
        return f"{subject} used to {_base_verb(old_body)}, now {new_body}."
    return f"Used to: {old_text.strip().rstrip('.')}; now: {new_text.strip().rstrip('.')}."


def pattern_text(cluster: Sequence[FactPoint], *, max_chars: int = 600) -> str:
    """Deterministic (offline) wording of a cluster: its subjects, then its facts."""
    subjects = sorted({f.subject_name for f in cluster if f.subject_name})
    head = f"About {', '.join(subjects[:3])}: " if subjects else "Related facts: "
    body = "; ".join(f.text.strip().rstrip(".") for f in cluster)
    text = head + body + "."
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"
