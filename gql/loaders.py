"""Per-request DataLoaders: nested fields of many entities cost one query per field kind.

A page of 100 entities asking for ``facts``, ``relationships``, ``aliases`` and ``history`` runs the page
query, the count query and one batch query per nested field (see tests/integration/gql).
Loaders are created for every request so nothing is cached across callers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from strawberry.dataloader import DataLoader

from graph.executor import Executor
from graph.memory import browse

__all__ = [
    "AliasKey",
    "EntityKey",
    "FactKey",
    "FactsKey",
    "HistoryKey",
    "Loaders",
    "PathKey",
    "RelsKey",
]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class EntityKey(NamedTuple):
    agent_id: str
    key: str


class AliasKey(NamedTuple):
    agent_id: str
    key: str


class FactsKey(NamedTuple):
    agent_id: str
    key: str
    as_of: datetime | None
    include_invalidated: bool
    kind: str | None
    per_entity: int


class RelsKey(NamedTuple):
    agent_id: str
    key: str
    as_of: datetime | None
    include_invalidated: bool
    per_entity: int


class FactKey(NamedTuple):
    agent_id: str
    key: str  # the fact id


class PathKey(NamedTuple):
    """A retrieved fact (``key``, with its hop count) and where the retrieval started."""

    agent_id: str
    starts: tuple[str, ...]
    as_of: datetime | None
    key: str
    hops: int


class HistoryKey(NamedTuple):
    agent_id: str
    key: str
    limit: int


def _grouped(
    fetch: Callable[[tuple[Any, ...], list[str]], Awaitable[dict[str, V]]],
    default: Callable[[], V],
) -> Callable[[Sequence[Any]], Awaitable[list[V]]]:
    """Batch function: one fetch per distinct (everything but ``key``) group of keys."""

    async def load(keys: Sequence[Any]) -> list[V]:
        groups: dict[tuple[Any, ...], list[str]] = defaultdict(list)
        for k in keys:
            rest = tuple(v for name, v in zip(k._fields, k, strict=True) if name != "key")
            groups[rest].append(k.key)
        found: dict[Any, V] = {}
        for rest, entity_keys in groups.items():
            result = await fetch(rest, sorted(set(entity_keys)))
            for entity_key, value in result.items():
                found[(rest, entity_key)] = value
        out: list[V] = []
        for k in keys:
            rest = tuple(v for name, v in zip(k._fields, k, strict=True) if name != "key")
            out.append(found.get((rest, k.key), default()))
        return out

    return load


def _paths(ex: Executor) -> Callable[[Sequence[PathKey]], Awaitable[list[list[browse.HopStep]]]]:
    """Batch function of hop paths: one query per (agent, starts, as_of) group."""

    async def load(keys: Sequence[PathKey]) -> list[list[browse.HopStep]]:
        groups: dict[tuple[str, tuple[str, ...], datetime | None], list[PathKey]] = defaultdict(
            list
        )
        for k in keys:
            groups[(k.agent_id, k.starts, k.as_of)].append(k)
        found: dict[PathKey, list[browse.HopStep]] = {}
        for (agent_id, starts, as_of), group in groups.items():
            facts = [browse.PathRequest(k.key, k.hops) for k in dict.fromkeys(group)]
            paths = await browse.hop_paths(ex, agent_id, list(starts), facts, as_of)
            for k in group:
                found[k] = paths.get(k.key, [])
        return [found[k] for k in keys]

    return load


class Loaders:
    """The DataLoaders of one request."""

    def __init__(self, executor: Executor) -> None:
        ex = executor

        async def entities(rest: tuple[Any, ...], keys: list[str]) -> dict[str, Any]:
            return await browse.entities_by_keys(ex, rest[0], keys)

        async def facts(rest: tuple[Any, ...], keys: list[str]) -> dict[str, Any]:
            agent_id, as_of, include_invalidated, kind, per_entity = rest
            return await browse.facts_by_entities(
                ex,
                agent_id,
                keys,
                as_of=as_of,
                include_invalidated=include_invalidated,
                kind=kind,
                per_entity=per_entity,
            )

        async def rels(rest: tuple[Any, ...], keys: list[str]) -> dict[str, Any]:
            agent_id, as_of, include_invalidated, per_entity = rest
            return await browse.relationships_by_entities(
                ex,
                agent_id,
                keys,
                as_of=as_of,
                include_invalidated=include_invalidated,
                per_entity=per_entity,
            )

        async def history(rest: tuple[Any, ...], keys: list[str]) -> dict[str, Any]:
            agent_id, limit = rest
            return await browse.history_by_entities(ex, agent_id, keys, limit)

        async def evidence(rest: tuple[Any, ...], ids: list[str]) -> dict[str, Any]:
            return await browse.evidence_by_facts(ex, rest[0], ids)

        async def cascades(rest: tuple[Any, ...], ids: list[str]) -> dict[str, Any]:
            return await browse.cascades_by_facts(ex, rest[0], ids)

        async def aliases(rest: tuple[Any, ...], keys: list[str]) -> dict[str, Any]:
            return await browse.aliases_by_entities(ex, rest[0], keys)

        self.entity: DataLoader[EntityKey, browse.EntityRow | None] = DataLoader(
            _grouped(entities, lambda: None)
        )
        self.facts: DataLoader[FactsKey, list[browse.FactRow]] = DataLoader(_grouped(facts, list))
        self.relationships: DataLoader[RelsKey, list[browse.RelationshipRow]] = DataLoader(
            _grouped(rels, list)
        )
        self.aliases: DataLoader[AliasKey, list[str]] = DataLoader(_grouped(aliases, list))
        self.history: DataLoader[HistoryKey, list[browse.HistoryRow]] = DataLoader(
            _grouped(history, list)
        )
        self.evidence: DataLoader[FactKey, list[browse.EventRow]] = DataLoader(
            _grouped(evidence, list)
        )
        self.cascades: DataLoader[FactKey, list[browse.RelationshipRow]] = DataLoader(
            _grouped(cascades, list)
        )
        self.hop_path: DataLoader[PathKey, list[browse.HopStep]] = DataLoader(_paths(ex))
