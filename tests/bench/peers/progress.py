"""Progress that stays readable in a log: a tqdm bar on a terminal, else a line every few seconds."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any

from tqdm import tqdm


class Progress:
    """``update(n)`` as tqdm; on a non-terminal stream prints ``desc: done/total`` at most once per
    ``every_s`` seconds, plus a last line on ``close()``."""

    def __init__(self, total: int, desc: str, *, stream: IO[str] | None = None,
                 every_s: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.desc, self.done = total, desc, 0
        self.stream = stream if stream is not None else sys.stderr
        self.every_s, self.clock = every_s, clock
        self.started = self.last = clock()
        self.printed = -1
        self.bar: Any = None
        if self.stream.isatty():
            self.bar = tqdm(total=total, desc=desc, file=self.stream, leave=False)

    def update(self, n: int = 1) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.clock() - self.last >= self.every_s:
            self.last = self.clock()
            self._line()

    def set_done(self, done: int) -> None:
        """For callbacks that report a running total (``remember``'s ``progress``)."""
        self.update(done - self.done)

    def _line(self, suffix: str = "") -> None:
        self.printed = self.done
        elapsed = self.clock() - self.started
        self.stream.write(f"{self.desc}: {self.done}/{self.total} ({elapsed:.0f} s){suffix}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.printed != self.done or self.done == 0:
            self._line(" done")

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
