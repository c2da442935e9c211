"""Progress bars that stay readable off a terminal: the one way code here makes a tqdm bar.

On a terminal (stderr is a TTY) ``progress_bar`` is plain tqdm. Piped or redirected to a file, tqdm
would redraw its bar with ``\\r`` many times a second onto one endless line; instead ``progress_bar``
writes whole lines, at most one every ``OFF_TTY_INTERVAL_S`` seconds (plus the first and the
last), so logs and CI output stay readable.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, TextIO, TypeVar

from tqdm import tqdm

__all__ = ["OFF_TTY_INTERVAL_S", "progress_bar"]

T = TypeVar("T")
OFF_TTY_INTERVAL_S = 5.0
# Off a terminal: counts and rates, no bar drawing; a percentage only when the total is known.
_LOG_FORMAT = (
    "{desc}: {percentage:3.0f}% {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"
)
_LOG_FORMAT_NO_TOTAL = "{desc}: {n_fmt} [{elapsed}, {rate_fmt}{postfix}]"


class _Lines:
    """A file for tqdm that turns its ``\\r``-redrawn frames into separate lines."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, s: str) -> int:
        text = s.replace("\r", "").strip()
        if text:  # tqdm also writes bare "\r"/"\n" and blank clearing frames: drop those
            self.out.write(text + "\n")
        return len(s)

    def flush(self) -> None:
        self.out.flush()


def _is_tty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # closed or not a real stream
        return False


def progress_bar(
    iterable: Iterable[T] | None = None, *, file: TextIO | None = None, **kwargs: Any
) -> tqdm[T]:
    """A tqdm bar on ``file`` (default stderr); same arguments as ``tqdm``.

    Off a terminal: one line per update, at most every ``OFF_TTY_INTERVAL_S`` seconds unless
    ``mininterval`` says otherwise.
    """
    out = file if file is not None else sys.stderr
    if _is_tty(out):
        return tqdm(iterable, file=out, **kwargs)
    kwargs.setdefault("mininterval", OFF_TTY_INTERVAL_S)
    kwargs.setdefault("maxinterval", max(OFF_TTY_INTERVAL_S, kwargs["mininterval"]))
    total = kwargs.get("total")
    if total is None and iterable is not None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    kwargs.setdefault("bar_format", _LOG_FORMAT if total else _LOG_FORMAT_NO_TOTAL)
    return tqdm(iterable, file=_Lines(out), dynamic_ncols=False, **kwargs)
