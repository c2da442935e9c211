"""CPU budget per call of every text function and regex on hostile and random input at the
size limits: ``python -m tests.bench.fuzz_text``.

Two checks per (target, input family): the CPU time of one call at the size limit stays under
``BUDGET_S`` (generous: a linear pass over 12k characters takes milliseconds; the old casual
regex took minutes at 40 characters), and the growth from 1/4 of the limit to the limit stays
under ``MAX_GROWTH`` (linear ≈ 4×, quadratic ≈ 16×). Exit status 1 when any check fails.
"""

from __future__ import annotations

import contextlib
import gc
import os
import random
import re
import sys
import time
from collections.abc import Callable

from graph.memory.documents.parse import parse_document
from graph.memory.read import planner
from graph.memory.read.retriever import MAX_QUERY_CHARS
from graph.memory.write.extract.mentions import strip_hint
from graph.memory.write.guard import guard_message, scan_pii
from graph.providers.openai_chat import parse_json_text
from tests.regex_shapes import collect_patterns

MESSAGE_CHARS = 12_000  # Settings.max_message_chars
DOCUMENT_CHARS = 1_000_000
BUDGET_S = 0.25  # per call at the message/query limit
DOCUMENT_BUDGET_S = 5.0
MAX_GROWTH = 8.0
MIN_TIMED_S = 0.004  # below this, growth ratios are noise

UNITS = [
    "k",
    "kk ",
    "a.",
    "eyJ-",
    "Aa ",
    "#",
    " ",
    "1 ",
    "1-",
    "<think>",
    "sk-",
    "a@",
    "x(",
    "# a #",
    "list my ",
    "password is ",
    "-----BEGIN ",
    "não moro em A ",
    "\n",
    "Aa  ",
    "ok",
    "hi there ",
]


def hostile(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size] + " !x"


def noise(size: int, rng: random.Random) -> str:
    alphabet = "ak1 .-@#(<>)\n_eyJAKIAsk-"
    return "".join(rng.choice(alphabet) for _ in range(size))


def cpu(fn: Callable[[str], object], text: str, repeats: int = 2) -> float:
    """CPU seconds of one call: the best of ``repeats`` (the garbage collector is paused for
    the whole run, so a collection or a preemption on the shared machine is not charged to
    the pattern under test)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        # typed refusals (PIIRejected…) are answers too
        with contextlib.suppress(Exception):
            fn(text)
        best = min(best, time.process_time() - start)
    return best


def targets() -> list[tuple[str, Callable[[str], object], int, float]]:
    out: list[tuple[str, Callable[[str], object], int, float]] = [
        ("planner.casual_plan", planner.casual_plan, MAX_QUERY_CHARS, BUDGET_S),
        (
            "planner.build_plan",
            lambda q: planner.build_plan(q, ["person", "city"], []),
            MAX_QUERY_CHARS,
            BUDGET_S,
        ),
        ("planner.lookup_terms", planner.lookup_terms, MAX_QUERY_CHARS, BUDGET_S),
        ("guard.guard_message", lambda t: guard_message(t, MESSAGE_CHARS), 200_000, BUDGET_S),
        ("guard.scan_pii", lambda t: scan_pii(t, "redact"), MESSAGE_CHARS, BUDGET_S),
        ("resolve.strip_hint", strip_hint, MESSAGE_CHARS, BUDGET_S),
        ("openai_chat.parse_json_text", parse_json_text, 100_000, BUDGET_S),
        (
            "parse.parse_document(markdown)",
            lambda t: parse_document(t, "markdown"),
            DOCUMENT_CHARS,
            DOCUMENT_BUDGET_S,
        ),
    ]
    for where, pattern, anchored in collect_patterns():
        compiled = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern)
        call: Callable[[str], object] = (
            compiled.match if anchored else (lambda t, c=compiled: list(c.finditer(t)))
        )
        out.append((f"re {where}", call, MESSAGE_CHARS, BUDGET_S))
    return out


def main() -> int:
    rng = random.Random(12)
    load = os.getloadavg()[0]
    failures: list[str] = []
    worst: list[tuple[float, str, str, float]] = []
    gc.disable()
    for name, fn, size, budget in targets():
        gc.collect()
        families = [(repr(u), hostile(u, size), hostile(u, size // 4)) for u in UNITS]
        families.append(("random", noise(size, rng), noise(size // 4, rng)))
        top = (0.0, "", 1.0)
        for family, big, small in families:
            t_big = cpu(fn, big)
            t_small = cpu(fn, small)
            growth = t_big / t_small if t_small > 0 else 1.0
            if t_big > budget:
                failures.append(f"{name} on {family}: {t_big:.3f} s > {budget} s")
            if t_big > MIN_TIMED_S and t_small > MIN_TIMED_S / 4 and growth > MAX_GROWTH:
                failures.append(f"{name} on {family}: {growth:.1f}x from n/4 to n")
            top = max(top, (t_big, family, growth))
        worst.append((top[0], name, top[1], top[2]))
    print(
        f"load average {load:.2f}; budget {BUDGET_S} s per call at the limit "
        f"({DOCUMENT_BUDGET_S} s for a {DOCUMENT_CHARS:,}-char document)"
    )
    print(f"{'target':62} {'worst input':18} {'cpu s':>8} {'n/4→n':>6}")
    for t, name, family, growth in sorted(worst, reverse=True)[:25]:
        print(f"{name[:62]:62} {family[:18]:18} {t:8.4f} {growth:6.1f}")
    print(f"... {len(worst)} targets x {len(UNITS) + 1} input families")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
