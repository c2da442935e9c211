"""LangGraph long-term memory on Hippograph: :class:`HippographStore` is a LangGraph
``BaseStore`` (``pip install 'hippograph-client[langgraph]'``) whose items are versioned facts.

How the store's model maps onto the memory (what a LangGraph user should know):

- **namespace → agent**: ``("memories", "ana")`` is the agent ``memories/ana`` (pass
  ``agent_id=`` to map otherwise). Each namespace is its own memory, with its own tenancy.
- **item → entity + fact**: the key is an entity ``item:<key>`` and the value its current fact.
  A value ``{"text": "..."}`` is stored as that text; any other dict as its JSON (sorted keys),
  so ``get`` gives back exactly the dict that was put.
- **put overwrites, history stays**: ``put`` forgets the key's current fact (it stays in the
  entity's history, invalidated, with the reason ``replaced through the LangGraph store``) and
  remembers the new one; ``delete`` forgets it. Nothing is hard-deleted (``eraseFact`` does that).
- **search** with a ``query`` runs Hippograph's ``retrieve`` (vector + keyword + graph,
  ``score`` is its final score) and keeps the store's items; without one it lists the items.
  ``filter`` compares value fields for equality. Search covers the namespace given exactly
  (its agent); deeper namespaces are other agents and are not walked.
- ``index`` and ``ttl`` arguments are accepted and ignored: every fact is indexed, and
  expiry is the operator's retention policy.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from hippograph_client.aio.client import AsyncHippographClient
from hippograph_client.aio.input_types import EntityInput as AsyncEntityInput
from hippograph_client.aio.input_types import FactInput as AsyncFactInput
from hippograph_client.errors import NotFound
from hippograph_client.pages import aiter_entities, iter_entities
from hippograph_client.sync.client import HippographClient
from hippograph_client.sync.input_types import EntityInput, FactInput

__all__ = ["HippographStore", "text_of", "value_of"]

ITEM = "item"
REPLACED = "replaced through the LangGraph store"
DELETED = "deleted through the LangGraph store"


def item_key(key: str) -> str:
    return f"{ITEM}:{key}"


def text_of(value: Mapping[str, Any]) -> str:
    """The fact text a value is stored as: its text alone, else its JSON."""
    if set(value) == {"text"} and isinstance(value["text"], str):
        return str(value["text"])
    return json.dumps(dict(value), ensure_ascii=False, sort_keys=True)


def value_of(text: str) -> dict[str, Any]:
    """The value a fact text gives back (inverse of :func:`text_of`)."""
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if isinstance(value, dict):
            return value
    return {"text": text}


def default_agent(namespace: tuple[str, ...]) -> str:
    return "/".join(namespace)


def matches(value: dict[str, Any], wanted: dict[str, Any] | None) -> bool:
    return all(value.get(k) == v for k, v in (wanted or {}).items())


def newest(facts: Iterable[Any]) -> Any | None:
    """The active fact written last (the key's current value)."""
    active = [f for f in facts if f.active]
    return max(active, key=lambda f: (f.created_at, f.id), default=None)


def namespace_matches(namespace: tuple[str, ...], op: ListNamespacesOp) -> bool:
    for condition in op.match_conditions or ():
        path = tuple(condition.path)
        part = (
            namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
        )
        if len(part) != len(path) or any(
            p not in ("*", n) for p, n in zip(path, part, strict=True)
        ):
            return False
    return True


def listed(namespaces: Iterable[tuple[str, ...]], op: ListNamespacesOp) -> list[tuple[str, ...]]:
    found = {
        ns[: op.max_depth] if op.max_depth else ns for ns in namespaces if namespace_matches(ns, op)
    }
    return sorted(found)[op.offset : op.offset + op.limit]


def to_item(namespace: tuple[str, ...], key: str, fact: Any, score: float | None = None) -> Any:
    stamp = fact.created_at if isinstance(fact.created_at, datetime) else datetime.now(UTC)
    value = value_of(fact.text)
    if score is None:
        return Item(value=value, key=key, namespace=namespace, created_at=stamp, updated_at=stamp)
    return SearchItem(
        namespace=namespace, key=key, value=value, created_at=stamp, updated_at=stamp, score=score
    )


class HippographStore(BaseStore):
    """A LangGraph store on a Hippograph service: give it a ``client`` for the sync API
    (``get``/``put``/``search``...), an ``aclient`` for the async one (``aget``...), or both."""

    def __init__(
        self,
        client: HippographClient | None = None,
        aclient: AsyncHippographClient | None = None,
        agent_id: Callable[[tuple[str, ...]], str] = default_agent,
    ) -> None:
        self.client = client
        self.aclient = aclient
        self.agent_id = agent_id

    # The sync API.
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self.client is None:
            raise RuntimeError("HippographStore(client=HippographClient(...)) for the sync API")
        return [self._run(op) for op in ops]

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key)
        if isinstance(op, PutOp):
            self._put(op.namespace, op.key, op.value)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        return listed(self._namespaces(), op)

    def _current(self, agent: str, key: str) -> Any | None:
        assert self.client is not None
        try:
            entity = self.client.entity(agent, item_key(key))
        except NotFound:
            return None
        return newest(entity.facts) if entity is not None else None

    def _get(self, namespace: tuple[str, ...], key: str) -> Any:
        fact = self._current(self.agent_id(namespace), key)
        return to_item(namespace, key, fact) if fact is not None else None

    def _put(self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any] | None) -> None:
        assert self.client is not None
        agent = self.agent_id(namespace)
        current = self._current(agent, key)
        if current is not None:
            self.client.forget(agent, current.id, reason=REPLACED if value else DELETED)
        if value is not None:
            entity = EntityInput(name=key, type=ITEM, key=item_key(key))
            fact = FactInput(text=text_of(value), subject=item_key(key))
            self.client.remember(agent, entities=[entity], facts=[fact])

    def _search(self, op: SearchOp) -> list[Any]:
        assert self.client is not None
        namespace = tuple(op.namespace_prefix)
        agent = self.agent_id(namespace)
        if op.query:
            wanted = op.limit + op.offset
            found = self.client.retrieve(agent, op.query, options={"topkFacts": 4 * wanted + 10})
            hits = [
                to_item(namespace, f.subject_key.removeprefix(f"{ITEM}:"), f, f.score)
                for f in found.facts
                if f.subject_key.startswith(f"{ITEM}:")
            ]
        else:
            keys = [e.key for e in iter_entities(self.client, agent, type_=ITEM)]
            hits = [self._get(namespace, k.removeprefix(f"{ITEM}:")) for k in keys]
        kept = [h for h in hits if h is not None and matches(h.value, op.filter)]
        return kept[op.offset : op.offset + op.limit]

    def _namespaces(self) -> list[tuple[str, ...]]:
        assert self.client is not None
        return [tuple(a.agent_id.split("/")) for a in self.client.agents()]

    # The async API: the same steps through the async client.
    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if self.aclient is None:
            raise RuntimeError("HippographStore(aclient=AsyncHippographClient(...)) for async")
        return [await self._arun(op) for op in ops]

    async def _arun(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return await self._aget(op.namespace, op.key)
        if isinstance(op, PutOp):
            await self._aput(op.namespace, op.key, op.value)
            return None
        if isinstance(op, SearchOp):
            return await self._asearch(op)
        assert self.aclient is not None
        agents = await self.aclient.agents()
        return listed([tuple(a.agent_id.split("/")) for a in agents], op)

    async def _acurrent(self, agent: str, key: str) -> Any | None:
        assert self.aclient is not None
        try:
            entity = await self.aclient.entity(agent, item_key(key))
        except NotFound:
            return None
        return newest(entity.facts) if entity is not None else None

    async def _aget(self, namespace: tuple[str, ...], key: str) -> Any:
        fact = await self._acurrent(self.agent_id(namespace), key)
        return to_item(namespace, key, fact) if fact is not None else None

    async def _aput(
        self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any] | None
    ) -> None:
        assert self.aclient is not None
        agent = self.agent_id(namespace)
        current = await self._acurrent(agent, key)
        if current is not None:
            await self.aclient.forget(agent, current.id, reason=REPLACED if value else DELETED)
        if value is not None:
            entity = AsyncEntityInput(name=key, type=ITEM, key=item_key(key))
            fact = AsyncFactInput(text=text_of(value), subject=item_key(key))
            await self.aclient.remember(agent, entities=[entity], facts=[fact])

    async def _asearch(self, op: SearchOp) -> list[Any]:
        assert self.aclient is not None
        namespace = tuple(op.namespace_prefix)
        agent = self.agent_id(namespace)
        if op.query:
            wanted = op.limit + op.offset
            found = await self.aclient.retrieve(
                agent, op.query, options={"topkFacts": 4 * wanted + 10}
            )
            hits = [
                to_item(namespace, f.subject_key.removeprefix(f"{ITEM}:"), f, f.score)
                for f in found.facts
                if f.subject_key.startswith(f"{ITEM}:")
            ]
        else:
            keys = [e.key async for e in aiter_entities(self.aclient, agent, type_=ITEM)]
            hits = [await self._aget(namespace, k.removeprefix(f"{ITEM}:")) for k in keys]
        kept = [h for h in hits if h is not None and matches(h.value, op.filter)]
        return kept[op.offset : op.offset + op.limit]
