"""The API processes of one ``serve --workers N`` (``server.start_group``): ready once every
live process has warmed up, one process at a time in the database turn."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from graph.memory.warm_start import WarmStart
from server.cli.serve import group_dir
from server.health import Warming
from server.start_group import StartGroup


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_ready_only_when_every_live_process_has_warmed_up(tmp_path: Path) -> None:
    group = StartGroup(tmp_path / "g", 2)
    warming = Warming(WarmStart(seconds={"embedder": 0.1}), group)
    group.mark_warm()
    assert not warming.done and warming.describe()["processes_warm"] == "1/2"
    group.mark_warm(dead_pid())  # a worker that died after warming does not count
    assert group.warm_count() == 1 and not warming.done
    group.mark_warm(os.getppid())  # another live process
    assert warming.done and warming.describe()["processes_warm"] == "2/2"
    assert Warming(None, group).done is False  # this process itself still warming


def test_one_process_at_a_time_takes_the_database_turn(tmp_path: Path) -> None:
    group = StartGroup(tmp_path / "g", 2)
    inside: list[int] = []
    overlap: list[bool] = []

    firsts: list[bool] = []

    async def turn(n: int) -> None:
        async with group.database_turn() as first:
            firsts.append(first)
            inside.append(n)
            overlap.append(len(inside) > 1)
            await asyncio.sleep(0.05)
            inside.remove(n)

    async def main() -> None:
        # Each in its own thread's event loop: flock excludes open file descriptions, as the
        # separate processes of a group are.
        await asyncio.gather(*(asyncio.to_thread(asyncio.run, turn(n)) for n in range(3)))

    asyncio.run(main())
    assert overlap == [False, False, False]
    assert firsts == [True, False, False]  # the first plans, the others find it planned


def test_a_process_spawned_holding_the_turn_keeps_the_workers_out_until_it_exits(
    tmp_path: Path,
) -> None:
    group = StartGroup(tmp_path / "g", 2)
    marker = tmp_path / "done"
    child = group.spawn_holding_turn(
        [sys.executable, "-c", f"import time; time.sleep(0.5); open({str(marker)!r}, 'w')"]
    )

    async def turn() -> bool:
        async with group.database_turn() as first:
            return first and marker.exists()

    try:
        assert asyncio.run(turn())  # waited for the child; still the first to plan
    finally:
        child.wait()


def test_serve_gives_its_workers_a_fresh_folder_and_removes_those_of_gone_supervisors(
    tmp_path: Path,
) -> None:
    stale = tmp_path / "run" / f"api-{dead_pid()}"
    stale.mkdir(parents=True)
    (stale / "1.warm").touch()
    folder = group_dir(tmp_path, os.getpid())
    assert folder.is_dir() and not any(folder.iterdir())
    assert not stale.exists()
