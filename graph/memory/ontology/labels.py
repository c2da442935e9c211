"""Entity type labels: Neo4j Browser styles nodes by label, so an entity whose type the ontology
in force declares also carries that type as a label (``support_ticket`` → ``:SupportTicket``).

The type stays the entity's ``type`` property (and its key's prefix); the label is derived from
it and the ontology: the write path sets it, applying an ontology (and importing an export)
recomputes it for every entity of the scope, a stale one (the type changed, or the ontology no
longer declares it) is removed. A type the ontology does not declare (the open built-in one
keeps undeclared types as they come) gets no label.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from graph.executor import Executor
from graph.memory.ontology.builtin import BUILTIN
from graph.memory.ontology.label_names import PRODUCT_LABELS, type_label
from graph.memory.ontology.model import Ontology, parse_ontology

__all__ = [
    "PRODUCT_LABELS",
    "declared_labels",
    "relabel_agent",
    "type_label",
    "type_labels",
]

RELABEL_BATCH = 2_000


def type_labels(ontology: Ontology) -> dict[str, str]:
    """Declared entity type → its label (the statements' ``$labels`` map). A type whose label
    is one of the product's own gets none: the built-in ``event`` (``:Event`` is a message),
    or a type of a version stored before the parser refused such names."""
    return {
        t.name: label
        for t in ontology.entity_types
        if (label := type_label(t.name)) not in PRODUCT_LABELS
    }


async def relabel_agent(
    executor: Executor, agent_id: str, ontology: Ontology, *, batch: int = RELABEL_BATCH
) -> int:
    """Give every entity of ``agent_id`` the label of its type under ``ontology`` and remove a
    stale one, ``batch`` entities a transaction; returns how many entities were visited."""
    labels, after, visited = type_labels(ontology), "", 0
    while True:
        rows = await executor.run(
            "ontology/relabel_entities",
            {
                "agent_id": agent_id,
                "labels": labels,
                "keep": sorted(PRODUCT_LABELS),
                "after": after,
                "batch": batch,
            },
        )
        if not rows or rows[0]["last"] is None:
            return visited
        visited += rows[0]["visited"]
        after = rows[0]["last"]


async def declared_labels(
    executor: Executor, *, tenant: str | None = None, agents: Iterable[str] | None = None
) -> dict[str, str]:
    """Type → label of every type an entity may carry a label for: the built-in ontology's and
    those of the newest version of the stored ontologies: every one (``tenant`` None), or a
    tenant's own and those of its agents (``agents``: only these of them; None: all)."""
    labels = type_labels(BUILTIN)
    if tenant is None:
        rows = await executor.run("ontology/stored_documents", read=True)
    else:
        wanted = sorted(agents) if agents is not None else None
        rows = await executor.run(
            "ontology/tenant_documents", {"tenant": tenant, "agents": wanted}, read=True
        )
    for row in rows:
        labels.update(type_labels(parse_ontology(json.loads(row["document"]), stored=True)))
    return labels
