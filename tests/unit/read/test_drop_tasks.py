"""A retrieve that fails while searches it started alongside are still running, or have
failed too, leaves no task behind and no exception reported as never retrieved."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from graph.memory.read.gather import drop_tasks


async def _fail() -> None:
    raise RuntimeError("search failed")


async def test_dropped_tasks_are_cancelled_or_have_their_exception_retrieved() -> None:
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    failed_first = asyncio.create_task(_fail())
    failed_too = asyncio.create_task(_fail())
    running = asyncio.create_task(asyncio.sleep(60))
    await asyncio.sleep(0)  # both failing tasks finish; the sleeper waits
    try:
        await failed_first
    except RuntimeError:
        drop_tasks(failed_first, failed_too, running, None)
    await asyncio.sleep(0)
    assert running.cancelled()
    del failed_first, failed_too, running
    gc.collect()
    assert reported == []
