"""One process's live view of its agents' changes: a poller per agent, shared by every
subscriber of that agent in the process (N subscribers cost one read per interval).

The poller reads :func:`graph.memory.changes.read_changes` every ``poll_s`` from the newest
change it has seen, looking ``lookback_s`` further back each time: a write whose transaction
commits after a later-stamped one (its audit time is taken before the commit) is still
delivered, once (ids already delivered are remembered for the window). A subscriber that
resumes from a cursor first reads what it missed itself, then takes the shared stream.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar

from graph.errors import GraphError, GraphUnavailable
from graph.executor import Executor
from graph.memory.changes.rows import PAGE, Change, Position, read_changes

__all__ = ["ChangeFeed", "ChangeStream", "SubscriberLagging", "TooManySubscriptions"]

T = TypeVar("T")

log = logging.getLogger("hippograph.changes")

# Changes a subscriber may have waiting; a slower one is dropped (it resumes from its cursor).
QUEUE_SIZE = 1_000
RETRY_S = 2.0


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


@dataclass(eq=False)
class _AgentPoller:
    """The shared reader of one agent's changes."""

    agent_id: str
    start: datetime
    newest: Position
    subscribers: set[_Subscriber] = field(default_factory=set)
    seen: dict[str, datetime] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None

    async def poll(self, executor: Executor, lookback: timedelta) -> None:
        """Read the changes since the newest seen (minus the look-back) and hand each new
        one to every subscriber."""
        after = Position(max(self.start, self.newest.at - lookback))
        while True:
            changes = await read_changes(executor, self.agent_id, after)
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
        max_per_key: int = 50,
    ) -> None:
        self.executor = executor
        self.poll_s = poll_s
        self.lookback = timedelta(seconds=lookback_s)
        self.max_per_key = max_per_key
        self._pollers: dict[str, _AgentPoller] = {}
        self._per_key: Counter[str] = Counter()

    @property
    def pollers(self) -> int:
        """Agents being read (one poller each)."""
        return len(self._pollers)

    def subscribers(self, agent_id: str) -> int:
        """The subscriptions of ``agent_id`` open in this process."""
        poller = self._pollers.get(agent_id)
        return 0 if poller is None else len(poller.subscribers)

    def open(
        self,
        agent_id: str,
        key: str,
        since: Position | None,
        transform: Callable[[Change], T],
    ) -> ChangeStream[T]:
        """A subscription to the agent's changes from now on (``since``: from that position,
        the look-back window before it included, so a change may come twice), each passed
        through ``transform``. Counted against ``key`` until closed.

        Raises:
            TooManySubscriptions: ``key`` holds ``max_per_key`` already.
        """
        if self._per_key[key] >= self.max_per_key:
            raise TooManySubscriptions(
                f"This API key holds {self.max_per_key} subscriptions on this server already."
            )
        self._per_key[key] += 1
        sub = _Subscriber()
        self._join(agent_id, sub)
        changes = self._changes(agent_id, sub, since)
        return ChangeStream(changes, transform, self._leaver(agent_id, sub, key))

    async def _changes(
        self, agent_id: str, sub: _Subscriber, since: Position | None
    ) -> AsyncGenerator[Change, None]:
        replayed: set[str] = set()
        if since is not None:
            async for change in self._replay(agent_id, since):
                replayed.add(change.id)
                yield change
        while True:
            change = await sub.queue.get()
            if sub.lagging:
                raise SubscriberLagging(
                    "This subscriber fell behind; subscribe again with `since` set to the "
                    "cursor of the last change it received."
                )
            if change.id not in replayed:
                yield change

    async def _replay(self, agent_id: str, since: Position) -> AsyncIterator[Change]:
        """What a resuming subscriber missed: changes from ``lookback`` before ``since`` up to
        the newest (the shared poller, joined before, delivers what comes after; the stream
        drops what both deliver)."""
        after = Position(since.at - self.lookback)
        while True:
            changes = await read_changes(self.executor, agent_id, after)
            for change in changes:
                if change.id != since.id:
                    yield change
            if len(changes) < PAGE:
                return
            after = changes[-1].position

    def _join(self, agent_id: str, sub: _Subscriber) -> _AgentPoller:
        poller = self._pollers.get(agent_id)
        if poller is None:
            now = datetime.now(UTC)
            poller = _AgentPoller(agent_id, now, Position(now))
            poller.task = asyncio.create_task(self._run(poller), name=f"changes:{agent_id}")
            self._pollers[agent_id] = poller
        poller.subscribers.add(sub)
        return poller

    def _leaver(self, agent_id: str, sub: _Subscriber, key: str) -> Callable[[], None]:
        return lambda: self._leave(agent_id, sub, key)

    def _leave(self, agent_id: str, sub: _Subscriber, key: str) -> None:
        self._per_key[key] -= 1
        if self._per_key[key] <= 0:
            del self._per_key[key]
        poller = self._pollers.get(agent_id)
        if poller is None:
            return
        poller.subscribers.discard(sub)
        if not poller.subscribers:
            del self._pollers[agent_id]
            if poller.task is not None:
                poller.task.cancel()

    async def _run(self, poller: _AgentPoller) -> None:
        while True:
            try:
                await poller.poll(self.executor, self.lookback)
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
