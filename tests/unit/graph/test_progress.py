"""Progress output off a terminal is whole lines (no ``\\r`` frames); on a terminal it is tqdm's
usual redrawn bar; no module makes a tqdm bar but through ``graph.progress``."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from graph.progress import progress_bar

ROOT = Path(__file__).resolve().parents[3]


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_piped_output_is_lines_without_carriage_returns() -> None:
    out = io.StringIO()
    bar = progress_bar(total=1000, desc="import", unit="rec", file=out)
    for _ in range(1000):
        bar.update(1)
    bar.close()
    text = out.getvalue()
    assert "\r" not in text and text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) < 50, "one line per update instead of one every few seconds"
    assert lines[0].startswith("import:   0% 0/1000")
    assert lines[-1].startswith("import: 100% 1000/1000")


def test_unknown_total_and_cleared_bars_stay_clean() -> None:
    out = io.StringIO()
    for _ in progress_bar(iter(range(7)), desc="questions", file=out, leave=False):
        pass
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue() and all(line.strip() for line in lines)
    assert lines[0].startswith("questions: 0 [") and "%" not in out.getvalue()


def test_terminal_output_is_the_usual_bar() -> None:
    out = _Tty()
    for _ in progress_bar(range(3), desc="seed", file=out):
        pass
    assert "\r" in out.getvalue() and "|" in out.getvalue()


def test_stderr_of_a_piped_process_has_no_frames() -> None:
    code = (
        "from graph.progress import progress_bar\n"
        "for _ in progress_bar(range(20000), desc='piped'): pass\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "\r" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("piped: 100% 20000/20000")


def test_every_bar_goes_through_the_helper() -> None:
    direct = re.compile(r"^\s*(from tqdm\b|import tqdm\b)", re.M)
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("server", "seed", "gql", "graph", "tests")
        for path in (ROOT / folder).rglob("*.py")
        if path != ROOT / "graph" / "progress.py" and direct.search(path.read_text())
    ]
    assert offenders == []
