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

Each operation is written once, as steps that yield the client calls they need
(:class:`Call`); :func:`run_steps` makes those calls with the sync client, :func:`arun_steps`
with the async one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
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
from hippograph_client.errors import NotFound
from hippograph_client.pages import PAGE_SIZE
from hippograph_client.sync.client import HippographClient
from hippograph_client.sync.input_types import EntityInput, FactInput

__all__ = ["HippographStore", "arun_steps", "run_steps", "text_of", "value_of"]

ITEM = "item"
REPLACED = "replaced through the LangGraph store"
DELETED = "deleted through the LangGraph store"


@dataclass(frozen=True)
class Call:
    """One client call a step needs: the method's name and its arguments."""

    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


def call(method: str, *args: Any, **kwargs: Any) -> Call:
    return Call(method, args, kwargs)


@dataclass(frozen=True)
class Finished:
    value: Any


Steps = Generator[Call, Any, Any]


def resume(steps: Steps, outcome: Any) -> Call | Finished:
    """The next call of ``steps`` given the last one's outcome (a :class:`NotFound` is raised
    inside the steps), or what they returned."""
    try:
        return steps.throw(outcome) if isinstance(outcome, NotFound) else steps.send(outcome)
    except StopIteration as done:
        return Finished(done.value)


def run_steps(client: HippographClient, steps: Steps) -> Any:
    """Runs ``steps`` with the sync client; returns what they return."""
    outcome: Any = None
    while not isinstance(step := resume(steps, outcome), Finished):
        try:
            outcome = getattr(client, step.method)(*step.args, **step.kwargs)
        except NotFound as missing:
            outcome = missing
    return step.value


async def arun_steps(aclient: AsyncHippographClient, steps: Steps) -> Any:
    """Runs ``steps`` with the async client; returns what they return."""
    outcome: Any = None
    while not isinstance(step := resume(steps, outcome), Finished):
        try:
            outcome = await getattr(aclient, step.method)(*step.args, **step.kwargs)
        except NotFound as missing:
            outcome = missing
    return step.value


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


def item_keys(agent: str) -> Steps:
    """The keys of every item of ``agent``, page after page."""
    keys: list[str] = []
    after: str | None = None
    while True:
        page = yield call("entities", agent, first=PAGE_SIZE, after=after, type_=ITEM)
        keys += [edge.node.key.removeprefix(f"{ITEM}:") for edge in page.edges]
        if not page.page_info.has_next_page or not page.page_info.end_cursor:
            return keys
        after = page.page_info.end_cursor


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

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self.client is None:
            raise RuntimeError("HippographStore(client=HippographClient(...)) for the sync API")
        return [run_steps(self.client, self._steps(op)) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if self.aclient is None:
            raise RuntimeError("HippographStore(aclient=AsyncHippographClient(...)) for async")
        return [await arun_steps(self.aclient, self._steps(op)) for op in ops]

    def _steps(self, op: Op) -> Steps:
        if isinstance(op, GetOp):
            return (yield from self._get(op.namespace, op.key))
        if isinstance(op, PutOp):
            yield from self._put(op.namespace, op.key, op.value)
            return None
        if isinstance(op, SearchOp):
            return (yield from self._search(op))
        agents = yield call("agents")
        return listed([tuple(a.agent_id.split("/")) for a in agents], op)

    def _current(self, agent: str, key: str) -> Steps:
        try:
            entity = yield call("entity", agent, item_key(key))
        except NotFound:
            return None
        return newest(entity.facts) if entity is not None else None

    def _get(self, namespace: tuple[str, ...], key: str) -> Steps:
        fact = yield from self._current(self.agent_id(namespace), key)
        return to_item(namespace, key, fact) if fact is not None else None

    def _put(self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any] | None) -> Steps:
        agent = self.agent_id(namespace)
        current = yield from self._current(agent, key)
        if current is not None:
            yield call("forget", agent, current.id, reason=REPLACED if value else DELETED)
        if value is not None:
            entity = EntityInput(name=key, type=ITEM, key=item_key(key))
            fact = FactInput(text=text_of(value), subject=item_key(key))
            yield call("remember", agent, entities=[entity], facts=[fact])

    def _search(self, op: SearchOp) -> Steps:
        namespace = tuple(op.namespace_prefix)
        agent = self.agent_id(namespace)
        if op.query:
            wanted = op.limit + op.offset
            options = {"topkFacts": 4 * wanted + 10}
            found = yield call("retrieve", agent, op.query, options=options)
            hits = [
                to_item(namespace, f.subject_key.removeprefix(f"{ITEM}:"), f, f.score)
                for f in found.facts
                if f.subject_key.startswith(f"{ITEM}:")
            ]
        else:
            hits = []
            for key in (yield from item_keys(agent)):
                hits.append((yield from self._get(namespace, key)))
        kept = [h for h in hits if h is not None and matches(h.value, op.filter)]
        return kept[op.offset : op.offset + op.limit]
