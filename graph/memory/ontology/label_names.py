"""The label an entity type gives its entities (``support_ticket`` → ``:SupportTicket``), and the
labels no type may take: the product's own (pure; ``labels`` sets them in Neo4j)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["PRODUCT_LABELS", "label_problems", "type_label"]

# Every label the product's own nodes use (cypher/**): no entity type may take one of them.
PRODUCT_LABELS: frozenset[str] = frozenset(
    {
        "Agent",
        "AgentEmbedder",
        "AgentStats",
        "AgentTenant",
        "Alias",
        "ApiKey",
        "Audit",
        "Chunk",
        "Community",
        "Document",
        "Entity",
        "Episodic",
        "Event",
        "Fact",
        "HippographMeta",
        "Job",
        "JobDedup",
        "MergeCandidate",
        "Observation",
        "Ontology",
        "PendingExtraction",
        "SchedulerLease",
        "Tenant",
        "WriteReceipt",
    }
)


def type_label(name: str) -> str:
    """The label of an entity type: its name in PascalCase (``support_ticket`` →
    ``SupportTicket``)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def label_problems(names: Iterable[str]) -> list[str]:
    """Entity type names whose label is one of the product's own, or another type's."""
    problems: list[str] = []
    owner: dict[str, str] = {}
    for name in names:
        label = type_label(name)
        if label in PRODUCT_LABELS:
            problems.append(
                f"entity type {name!r}: its label {label!r} is one of Hippograph's own labels"
            )
        elif label in owner:
            problems.append(
                f"entity types {owner[label]!r} and {name!r} would share the label {label!r}"
            )
        owner.setdefault(label, name)
    return problems
