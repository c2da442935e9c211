"""Structured remember, name resolution: an import's entity references (names, aliases or
``type:slug`` keys) → entity keys, the import's own declarations first, then the agent's
aliases and keys in Neo4j (one read)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor, Transaction
from graph.memory.text import entity_key, fold
from graph.memory.write.models import StructuredEntity

__all__ = ["Registry", "is_key", "load_known"]


@dataclass
class Registry:
    """Name → key resolution for one import (declared entities first, then the database)."""

    by_norm: dict[str, str] = field(default_factory=dict)
    keys: dict[str, StructuredEntity] = field(default_factory=dict)
    existing_keys: set[str] = field(default_factory=set)

    def declare(self, entity: StructuredEntity) -> str:
        key = entity.key or entity_key(entity.name, entity.type)
        self.keys.setdefault(key, entity)
        for text in (entity.name, *entity.aliases):
            if fold(text):
                self.by_norm.setdefault(fold(text), key)
        return key

    def lookup(self, ref: str) -> str | None:
        if ref in self.keys or ref in self.existing_keys:
            return ref
        return self.by_norm.get(fold(ref))


def is_key(ref: str) -> bool:
    head, sep, tail = ref.partition(":")
    return bool(sep and head and tail and " " not in head)


async def load_known(
    executor: Executor, agent_id: str, refs: Sequence[str], registry: Registry
) -> None:
    norms = sorted({fold(r) for r in refs if fold(r) and fold(r) not in registry.by_norm})
    keys = sorted({r for r in refs if is_key(r) and r not in registry.keys})
    if not norms and not keys:
        return

    async def work(tx: Transaction) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        a = await tx.run("write/match_aliases", agent_id=agent_id, norms=norms)
        k = await tx.run("write/match_keys", agent_id=agent_id, keys=keys)
        return a, k

    alias_rows, key_rows = await executor.read(work)
    for row in alias_rows:
        registry.by_norm.setdefault(row["norm"], row["key"])
        registry.existing_keys.add(row["key"])
    for row in key_rows:
        registry.existing_keys.add(row["merged_into"] or row["key"])
