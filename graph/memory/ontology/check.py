"""What changing an ontology would meet, before it is applied (``hippograph ontology check``).

Applying an ontology never changes stored data: it decides how the next writes are typed and
reconciled. What is already stored under a type the new ontology drops, or between ends it no
longer allows, stays readable; this check lists it, with counts and a few examples, so the
operator knows what the change touches. The decisions are pure (:func:`findings`, over the
counts :func:`stored_counts` reads).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor
from graph.memory.ontology.mapping import fit_ends
from graph.memory.ontology.model import Ontology

__all__ = ["Finding", "StoredCounts", "diff", "findings", "stored_counts"]


@dataclass(frozen=True)
class Finding:
    """One kind of stored item the ontology does not fit: ``kind`` is ``entity_type``
    (entities of an undeclared type), ``relation_type`` (relationships of an undeclared
    type), ``relation_ends`` (ends the type does not allow) or ``single_valued`` (sources
    holding several targets of a single-valued type). ``examples``: entity keys, or the ids of
    the facts that evidence the relationships (of the relationships without one)."""

    kind: str
    type: str
    count: int
    detail: str
    examples: tuple[str, ...] = ()


@dataclass
class StoredCounts:
    """What the agents hold, by type (the rows of the ``ontology/*_counts`` statements)."""

    entity_types: list[dict[str, Any]] = field(default_factory=list)
    relation_ends: list[dict[str, Any]] = field(default_factory=list)
    multi_targets: list[dict[str, Any]] = field(default_factory=list)


async def stored_counts(
    executor: Executor, agent_ids: Sequence[str], single_valued: Sequence[str]
) -> StoredCounts:
    """Read the counts the check needs for ``agent_ids``."""
    ids = list(agent_ids)
    return StoredCounts(
        await executor.run("ontology/entity_type_counts", {"agent_ids": ids}, read=True),
        await executor.run("ontology/relation_end_counts", {"agent_ids": ids}, read=True),
        await executor.run(
            "ontology/multi_target_counts",
            {"agent_ids": ids, "types": list(single_valued)},
            read=True,
        ),
    )


def findings(ontology: Ontology, counts: StoredCounts) -> list[Finding]:
    """Every kind of stored item ``ontology`` would not fit (an open ontology lists only its
    declared relation types' ends and single-valued conflicts)."""
    out: list[Finding] = []
    if ontology.strict:
        for row in counts.entity_types:
            etype = str(row["type"])
            if not ontology.declares_entity(etype):
                out.append(
                    Finding(
                        "entity_type", etype, int(row["n"]), "entity type not declared",
                        tuple(map(str, row["keys"])),
                    )
                )  # fmt: skip
    out.extend(_relation_findings(ontology, counts.relation_ends))
    for row in counts.multi_targets:
        out.append(
            Finding(
                "single_valued", str(row["type"]), int(row["sources"]),
                "sources with more than one active target of a single-valued type",
            )
        )  # fmt: skip
    return out


def _relation_findings(ontology: Ontology, rows: list[dict[str, Any]]) -> list[Finding]:
    undeclared: dict[str, list[dict[str, Any]]] = {}
    out: list[Finding] = []
    for row in rows:
        rtype = str(row["type"])
        if ontology.relation_type(rtype) is None:
            if ontology.strict:
                undeclared.setdefault(rtype, []).append(row)
            continue
        fit = fit_ends(ontology, rtype, str(row["source_type"]), str(row["target_type"]))
        if not fit.ok or fit.source or fit.target:
            detail = f"{row['source_type']} → {row['target_type']}: " + (
                "not allowed" if not fit.ok else "allowed once the ends are refined"
            )
            out.append(Finding("relation_ends", rtype, int(row["n"]), detail, _facts(row)))
    for rtype, group in sorted(undeclared.items()):
        n = sum(int(r["n"]) for r in group)
        examples = tuple(f for r in group for f in _facts(r))[:5]
        out.append(Finding("relation_type", rtype, n, "relation type not declared", examples))
    return out


def _facts(row: dict[str, Any]) -> tuple[str, ...]:
    facts = row.get("facts") or []
    return tuple(map(str, facts))[:5]


def diff(old: Ontology, new: Ontology) -> list[str]:
    """The declarations ``new`` adds, drops or changes against ``old``, one line each."""
    lines: list[str] = []
    old_e = {t.name: t for t in old.entity_types}
    new_e = {t.name: t for t in new.entity_types}
    lines += [f"+ entity type {n}" for n in sorted(new_e.keys() - old_e.keys())]
    lines += [f"- entity type {n}" for n in sorted(old_e.keys() - new_e.keys())]
    lines += [
        f"~ entity type {n}" for n in sorted(new_e.keys() & old_e.keys()) if new_e[n] != old_e[n]
    ]
    old_r = {r.name: r for r in old.relation_types}
    new_r = {r.name: r for r in new.relation_types}
    lines += [f"+ relation type {n}" for n in sorted(new_r.keys() - old_r.keys())]
    lines += [f"- relation type {n}" for n in sorted(old_r.keys() - new_r.keys())]
    for n in sorted(new_r.keys() & old_r.keys()):
        a, b = old_r[n], new_r[n]
        changed = [
            k
            for k in ("source", "target", "single_valued", "supersedes", "inverse", "aliases")
            if getattr(a, k) != getattr(b, k)
        ]
        if changed or a.description != b.description:
            lines.append(f"~ relation type {n} ({', '.join(changed) or 'description'})")
    if old.name != new.name:
        lines.append(f"~ name: {old.name} → {new.name}")
    if old.strict != new.strict:
        lines.append(f"~ strict: {old.strict} → {new.strict}")
    return lines
