"""One cached plan per statement: parameters sent in the shapes Neo4j plans once.

Neo4j keys a cached plan by the statement's text and its parameters' types, and for a string
or a list by its size rounded up to a power of ten (:func:`size_bucket`: 0, 1, 2–10, 11–100,
…; the sizes of the strings inside a list do not count). Planning the largest read statement
(``read/signals``) takes 1–5 s on a 2-core machine, so a question whose lists or keyword text
fall in another bucket than every question before it waited seconds for its plan (measured on
5.26: a keyword text of 5 characters after ones of 11–100, 4.9 s; three named entities after
one, 4.4 s). The read path therefore sends its lists padded to at least :data:`LIST_ITEMS`
items (:func:`padded`, with a value the statement matches nothing with) and a non-empty
full-text query padded with spaces to at least :data:`TEXT_CHARS` characters
(:func:`padded_query`, which Lucene ignores): every ordinary question has the same shape, and
the start-up warm-up plans it once per agent id size (``graph.memory.read.warmup``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["LIST_ITEMS", "TEXT_CHARS", "padded", "padded_query", "size_bucket"]

T = TypeVar("T")

# The bucket 11–100 for lists, 101–1,000 for full-text queries: where every ordinary question
# falls once padded (a longer list or query gets the next bucket's plan).
LIST_ITEMS = 11
TEXT_CHARS = 101


def size_bucket(n: int) -> int:
    """The size Neo4j keys a plan by for a string or list of ``n`` items: ``n`` rounded up to a
    power of ten, 0 for none (pure)."""
    bucket = 0 if n == 0 else 1
    while bucket < n:
        bucket *= 10
    return bucket


def padded(items: Sequence[T], pad: T, at_least: int = LIST_ITEMS) -> list[T]:
    """``items`` followed by copies of ``pad`` up to ``at_least`` items (pure)."""
    out = list(items)
    out.extend(pad for _ in range(at_least - len(out)))
    return out


def padded_query(text: str, at_least: int = TEXT_CHARS) -> str:
    """A full-text query padded with spaces to ``at_least`` characters; "" stays "" (the
    statements read it as "no keyword part") (pure)."""
    return text.ljust(at_least) if text else text
