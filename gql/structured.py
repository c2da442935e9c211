"""The records of a ``remember`` call built from what a client sent: the GraphQL input types
(``EntityInput``, ``FactInput``, ``RelationInput``) or the MCP tool's models, which carry the
same fields. A fact's kind is a ``FactKind`` member from GraphQL and a string from MCP."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any

from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation

__all__ = ["structured_entities", "structured_facts", "structured_relations"]

_ENTITY = ("name", "type", "key", "importance")
_FACT = ("text", "subject", "confidence", "importance", "valid_from", "valid_to")
_RELATION = ("source", "target", "type", "strength", "valid_from")


def _copy(item: Any, names: tuple[str, ...], **more: Any) -> dict[str, Any]:
    """``names`` read from ``item``, with ``more`` added."""
    return {name: getattr(item, name) for name in names} | more


def structured_entities(items: Iterable[Any]) -> list[StructuredEntity]:
    return [StructuredEntity(**_copy(e, _ENTITY, aliases=list(e.aliases))) for e in items]


def structured_facts(items: Iterable[Any]) -> list[StructuredFact]:
    return [
        StructuredFact(
            **_copy(
                f,
                _FACT,
                entities=list(f.entities),
                categories=list(f.categories),
                kind=str(f.kind.value) if isinstance(f.kind, Enum) else f.kind,
            )
        )
        for f in items
    ]


def structured_relations(items: Iterable[Any]) -> list[StructuredRelation]:
    return [StructuredRelation(**_copy(r, _RELATION)) for r in items]
