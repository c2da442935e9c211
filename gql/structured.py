"""The records of a ``remember`` call built from what a client sent: the GraphQL input types
(``EntityInput``, ``FactInput``, ``RelationInput``) or the MCP tool's models, which carry the
same fields. A fact's kind is a ``FactKind`` member from GraphQL and a string from MCP."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any

from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation

__all__ = ["structured_entities", "structured_facts", "structured_relations"]


def structured_entities(items: Iterable[Any]) -> list[StructuredEntity]:
    return [
        StructuredEntity(
            name=e.name, type=e.type, aliases=list(e.aliases), key=e.key, importance=e.importance
        )
        for e in items
    ]


def structured_facts(items: Iterable[Any]) -> list[StructuredFact]:
    return [
        StructuredFact(
            text=f.text,
            subject=f.subject,
            entities=list(f.entities),
            kind=str(f.kind.value) if isinstance(f.kind, Enum) else f.kind,
            confidence=f.confidence,
            importance=f.importance,
            valid_from=f.valid_from,
            valid_to=f.valid_to,
            categories=list(f.categories),
        )
        for f in items
    ]


def structured_relations(items: Iterable[Any]) -> list[StructuredRelation]:
    return [
        StructuredRelation(
            source=r.source,
            target=r.target,
            type=r.type,
            strength=r.strength,
            valid_from=r.valid_from,
        )
        for r in items
    ]
