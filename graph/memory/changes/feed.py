"""One process's live view of its agents' changes: a poller per agent and the tenant owning it,
shared by every subscriber of that agent in the process (N subscribers cost one read per
interval).

The poller reads :func:`graph.memory.changes.read_changes` every ``poll_s`` from the newest
change it has seen, looking ``lookback_s`` further back each time: a write whose transaction
commits after a later-stamped one (its audit time is taken before the commit) is still
delivered, once (ids already delivered are remembered for the window). A subscriber that
resumes from a cursor first reads what it missed itself, then takes the shared stream.

Pollers are keyed by (tenant, agent id), and each read checks the agent still belongs to that
tenant: once it does not (the agent was erased, its id released and maybe claimed by another
tenant) every stream of the poller gets one ``ERASED`` change of scope ``agent`` and ends, so
a new owner's changes never reach a former owner's subscribers. A stream may also carry a
``check``, awaited every ``recheck_s`` while it runs (the API re-checks the caller's key and
access there); what it raises ends the stream.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar

from graph.errors import GraphError, GraphUnavailable
from graph.executor import Executor
from graph.memory.changes.rows import (
    PAGE,
    AgentReleased,
    Change,
    Position,
    agent_erased,
    earlier,
    read_changes,
)

__all__ = ["ChangeFeed", "ChangeStream", "SubscriberLagging", "TooManySubscriptions"]

T = TypeVar("T")

log = logging.getLogger("hippograph.changes")

# Changes a subscriber may have waiting; a slower one is dropped (it resumes from its cursor).
QUEUE_SIZE = 1_000
RETRY_S = 2.0

Check = Callable[[], Awaitable[None]]


class TooManySubscriptions(GraphError):
    """The caller already holds as many subscriptions as it may."""


class SubscriberLagging(GraphUnavailable):
    """The subscriber read more slowly than changes came; it resumes with its last cursor."""


class ChangeStream(Generic[T]):
    """One subscription: an async iterator of transformed changes whose ``aclose`` (also when
    it was never iterated) gives the subscription back."""

    def __init__(
        self,
        changes: AsyncGenerator[Change, None],
        transform: Callable[[Change], T],
        release: Callable[[], None],
    ) -> None:
        self._changes = changes
        self._transform = transform
        self._release: Callable[[], None] | None = release

    def __aiter__(self) -> ChangeStream[T]:
        return self

    async def __anext__(self) -> T:
        try:
            return self._transform(await anext(self._changes))
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()
            await self._changes.aclose()


@dataclass(eq=False)
class _Subscriber:
    queue: asyncio.Queue[Change] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    lagging: bool = False

    def offer(self, change: Change) -> None:
        try:
            self.queue.put_nowait(change)
        except asyncio.QueueFull:
            self.lagging = True


@dataclass
class _Rechecks:
    """A stream's periodic ``check``: awaited whenever ``period`` has passed since the last
    one, also while no change comes."""

    check: Check | None
    period: float
    due: float = field(init=False)

    def __post_init__(self) -> None:
        self.due = time.monotonic() + self.period

    async def get(self, queue: asyncio.Queue[Change]) -> Change:
        """The next change of ``queue``, checking on the way when a check is due."""
        if self.check is None:
            return await queue.get()
        while True:
            left = self.due - time.monotonic()
            if left <= 0:
                await self.check()
                self.due = time.monotonic() + self.period
                continue
            try:
                return await asyncio.wait_for(queue.get(), left)
            except TimeoutError:
                continue


@dataclass(eq=False)
class _AgentPoller:
    """The shared reader of one agent's changes while it belongs to ``tenant``."""

    agent_id: str
    tenant: str | None
    start: datetime
    newest: Position
    subscribers: set[_Subscriber] = field(default_factory=set)
    seen: dict[str, datetime] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.tenant, self.agent_id)

    async def poll(self, executor: Executor, lookback: timedelta) -> None:
        """Read the changes since the newest seen (minus the look-back) and hand each new
        one to every subscriber.

        Raises:
            AgentReleased: the agent no longer belongs to the poller's tenant.
        """
        after = Position(max(self.start, earlier(self.newest.at, lookback)))
        while True:
            changes = await read_changes(executor, self.agent_id, after, tenant=self.tenant)
            for change in changes:
                if change.id in self.seen:
                    continue
                self.seen[change.id] = change.at
                self.newest = max(self.newest, change.position)
                for sub in self.subscribers:
                    sub.offer(change)
            if len(changes) < PAGE:
                break
            after = changes[-1].position
        horizon = self.newest.at - lookback
        self.seen = {k: at for k, at in self.seen.items() if at >= horizon}


class ChangeFeed:
    """The process's pollers, started by the first subscriber of an agent and stopped with
    its last one."""

    def __init__(
        self,
        executor: Executor,
        *,
        poll_s: float = 0.5,
        lookback_s: float = 5.0,
        max_per_key: int = 20,
        recheck_s: float = 10.0,
    ) -> None:
        self.executor = executor
        self.poll_s = poll_s
        self.lookback = timedelta(seconds=lookback_s)
        self.max_per_key = max_per_key
        self.recheck_s = recheck_s
        self._pollers: dict[tuple[str | None, str], _AgentPoller] = {}
        self._per_key: Counter[str] = Counter()

    @property
    def pollers(self) -> int:
        """Agents being read (one poller each per tenant owning it)."""
        return len(self._pollers)

    def subscribers(self, agent_id: str) -> int:
        """The subscriptions of ``agent_id`` open in this process."""
        return sum(len(p.subscribers) for p in self._pollers.values() if p.agent_id == agent_id)

    def open(
        self,
        agent_id: str,
        key: str,
        since: Position | None,
        transform: Callable[[Change], T],
        *,
        tenant: str | None = None,
        check: Check | None = None,
    ) -> ChangeStream[T]:
        """A subscription to the agent's changes from now on (``since``: from that position,
        the look-back window before it included, so a change may come twice), each passed
        through ``transform``, while the agent belongs to ``tenant`` (None: to no tenant; a
        stream ends with an ``ERASED`` change of scope ``agent`` once it does not). ``check``
        is awaited every ``recheck_s``; what it raises ends the stream. Counted against
        ``key`` until closed.

        Raises:
            TooManySubscriptions: ``key`` holds ``max_per_key`` already.
        """
        if self._per_key[key] >= self.max_per_key:
            raise TooManySubscriptions(
                f"This API key holds {self.max_per_key} subscriptions on this server already."
            )
        self._per_key[key] += 1
        sub = _Subscriber()
        poller = self._join(agent_id, tenant, sub)
        changes = self._changes(poller, sub, since, _Rechecks(check, self.recheck_s))
        return ChangeStream(changes, transform, lambda: self._leave(poller, sub, key))

    def erased(self, agent_id: str) -> None:
        """The agent was erased through this process: its streams, whatever tenant they
        watched it under, get the erasure and end now (others notice at their next read
        while the agent belonged to a tenant)."""
        for poller in [p for p in self._pollers.values() if p.agent_id == agent_id]:
            self._release(poller)
            if poller.task is not None:
                poller.task.cancel()

    async def _changes(
        self,
        poller: _AgentPoller,
        sub: _Subscriber,
        since: Position | None,
        rechecks: _Rechecks,
    ) -> AsyncGenerator[Change, None]:
        replayed: set[str] = set()
        if since is not None:
            async for change in self._replay(poller, since):
                replayed.add(change.id)
                yield change
                if change.ends_stream:
                    return
        while True:
            change = await rechecks.get(sub.queue)
            if sub.lagging:
                raise SubscriberLagging(
                    "This subscriber fell behind; subscribe again with `since` set to the "
                    "cursor of the last change it received."
                )
            if change.id not in replayed:
                yield change
            if change.ends_stream:
                return

    async def _replay(self, poller: _AgentPoller, since: Position) -> AsyncIterator[Change]:
        """What a resuming subscriber missed: changes from ``lookback`` before ``since`` up to
        the newest (the shared poller, joined before, delivers what comes after; the stream
        drops what both deliver)."""
        after = Position(earlier(since.at, self.lookback))
        while True:
            try:
                changes = await read_changes(
                    self.executor, poller.agent_id, after, tenant=poller.tenant
                )
            except AgentReleased:
                yield agent_erased()
                return
            for change in changes:
                if change.id != since.id:
                    yield change
            if len(changes) < PAGE:
                return
            after = changes[-1].position

    def _join(self, agent_id: str, tenant: str | None, sub: _Subscriber) -> _AgentPoller:
        poller = self._pollers.get((tenant, agent_id))
        if poller is None:
            now = datetime.now(UTC)
            poller = _AgentPoller(agent_id, tenant, now, Position(now))
            poller.task = asyncio.create_task(self._run(poller), name=f"changes:{agent_id}")
            self._pollers[poller.key] = poller
        poller.subscribers.add(sub)
        return poller

    def _leave(self, poller: _AgentPoller, sub: _Subscriber, key: str) -> None:
        self._per_key[key] -= 1
        if self._per_key[key] <= 0:
            del self._per_key[key]
        poller.subscribers.discard(sub)
        if not poller.subscribers and self._pollers.get(poller.key) is poller:
            del self._pollers[poller.key]
            if poller.task is not None:
                poller.task.cancel()

    def _release(self, poller: _AgentPoller) -> None:
        """The poller's agent is gone: its streams get the erasure (and end), and a later
        subscriber starts a poller of its own."""
        if self._pollers.get(poller.key) is poller:
            del self._pollers[poller.key]
        erased = agent_erased()
        for sub in poller.subscribers:
            sub.offer(erased)

    async def _run(self, poller: _AgentPoller) -> None:
        while True:
            try:
                await poller.poll(self.executor, self.lookback)
            except AgentReleased:
                self._release(poller)
                return
            except GraphUnavailable as exc:  # the next read resumes where this one stopped
                log.warning("changes of %s not read: %s", poller.agent_id, exc)
                await asyncio.sleep(RETRY_S)
            except Exception:
                log.exception("changes of %s not read", poller.agent_id)
                await asyncio.sleep(RETRY_S)
            await asyncio.sleep(self.poll_s)

    async def close(self) -> None:
        """Stop every poller (the process is stopping)."""
        tasks = [p.task for p in self._pollers.values() if p.task is not None]
        self._pollers.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
