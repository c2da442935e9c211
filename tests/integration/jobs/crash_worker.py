"""A worker process for the crash test: runs one agent's ``extract`` jobs with the real write
pipeline, but freezes at a chosen point (touching a marker file) so the test can SIGKILL it.

Usage: ``python -m tests.integration.jobs.crash_worker AGENT_ID MARKER before_commit|after_commit``

* ``before_commit``: freeze when the pipeline opens its second write transaction (the commit of
  facts), i.e. after the event and the idempotency claim are stored.
* ``after_commit``: freeze after the pipeline returned (facts committed), before the job is
  marked done.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from graph.executor import Executor, Transaction, connect
from graph.memory.jobs import JobDeps, JobQueue, Worker
from graph.memory.jobs.async_write import extract_handler
from graph.memory.write import WritePipeline
from graph.providers import MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from server.settings import Settings
from tests.fakes import WrappedExecutor

T = TypeVar("T")


class FreezingExecutor(WrappedExecutor):
    """Freezes forever on the N-th write transaction of the pipeline."""

    def __init__(self, inner: Executor, marker: Path, freeze_at: int) -> None:
        super().__init__(inner)
        self.marker, self.freeze_at, self.writes = marker, freeze_at, 0

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        self.writes += 1
        if self.writes == self.freeze_at:
            self.marker.write_text("frozen before commit")
            await asyncio.sleep(3600)
        return await super().write(work)


class FreezingPipeline:
    def __init__(self, inner: WritePipeline, marker: Path) -> None:
        self.inner, self.marker = inner, marker

    async def write(self, agent_id: str, message: str, speaker_name: str, **kw: Any) -> Any:
        accepted = inspect.signature(self.inner.write).parameters
        kw = {k: v for k, v in kw.items() if k in accepted}
        result = await self.inner.write(agent_id, message, speaker_name, **kw)
        self.marker.write_text("frozen after commit")
        await asyncio.sleep(3600)
        return result


async def main(agent_id: str, marker: Path, point: str) -> None:
    s = Settings()
    ex = connect(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database)
    embedder = MiniLMEmbedder(find_tokenizer(s.home))
    pipeline: Any
    if point == "before_commit":
        # the first write is the event + idempotency claim, the second the commit of facts
        pipeline = WritePipeline(FreezingExecutor(ex, marker, 2), embedder, None)
    else:
        pipeline = FreezingPipeline(WritePipeline(ex, embedder, None), marker)
    deps = JobDeps(executor=ex, queue=JobQueue(ex), embedder=embedder, writer=pipeline)
    worker = Worker(deps, {"extract": extract_handler}, owner="crash-worker", agent_id=agent_id)
    while not await worker.run_once():
        await asyncio.sleep(0.1)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3]))
