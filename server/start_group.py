"""The API processes of one ``hippograph serve --workers N``: warmed one at a time, ready
together.

The workers share one listening socket, so the kernel hands a connection to any of them. Each
process warms itself up (``graph.memory.warm_start``) and used to report ready on its own: a
``/readyz`` answered by the first warm worker let clients in while the other was still warming,
and its first requests waited seconds. And both warmed at once, planning the same statements
twice on the same cores. So the workers of one supervisor share a folder
(``settings.api_group_dir``, made by ``server.cli.serve``):

- :meth:`StartGroup.database_turn` is an exclusive lock on ``warm.lock``: one worker at a time
  runs the warm-up's database steps. The first plans every statement (and leaves ``planned``);
  the next ones find the plans cached in Neo4j and only run a few requests of each kind (their
  own code paths, their own connections).
- :meth:`StartGroup.mark_warm` leaves ``<pid>.warm``; :meth:`StartGroup.all_warm` is true once
  ``size`` live processes have left one. ``/readyz`` answers ready only then, from any worker.
- :meth:`StartGroup.spawn_holding_turn` starts a process that holds that lock until it exits
  (``hippograph up`` loads the demo agent so): the workers import and load their models
  beside it and run their database steps after it.

A worker that dies leaves its marker behind; a dead process's marker does not count, and its
replacement is not warm until it has warmed (``/readyz`` says so meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import subprocess
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

__all__ = ["StartGroup", "alive"]


def alive(pid: int) -> bool:
    """True while the process ``pid`` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, another user's
        return True
    return True


class StartGroup:
    """The start-up folder of ``size`` API processes (see the module)."""

    def __init__(self, folder: Path, size: int) -> None:
        self.folder = folder
        self.size = size

    @contextlib.asynccontextmanager
    async def database_turn(self) -> AsyncIterator[bool]:
        """Hold the group's warm-up lock (waiting for it in a thread, so the event loop keeps
        serving ``/healthz`` and ``/readyz`` meanwhile); yields True for the first process to
        hold it (no ``planned`` marker yet), which leaves the marker when it is done."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / "warm.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
            planned = self.folder / "planned"
            yield not planned.exists()
            planned.touch()
        finally:
            os.close(fd)  # closing releases the lock

    def spawn_holding_turn(self, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        """Start ``argv`` holding the warm-up lock: the child inherits the locked descriptor,
        so the lock is released when it exits, however it ends. The first worker's
        :meth:`database_turn` waits for it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / "warm.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return subprocess.Popen(list(argv), pass_fds=(fd,))
        finally:
            os.close(fd)  # the child's copy keeps the lock

    def mark_warm(self, pid: int | None = None) -> None:
        """Record that this process (``pid``) has warmed up."""
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / f"{pid or os.getpid()}.warm").touch()

    def warm_count(self) -> int:
        """How many live processes of the group have warmed up."""
        try:
            names = [p.name for p in self.folder.iterdir()]
        except OSError:
            return 0
        pids = [int(n.split(".")[0]) for n in names if n.endswith(".warm") and n[0].isdigit()]
        return sum(1 for pid in pids if alive(pid))

    def all_warm(self) -> bool:
        return self.warm_count() >= self.size
