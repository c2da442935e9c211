"""A bound on the operations of one GraphQL document, checked on the raw text before parsing.

Every validation rule walks every operation of a document, whichever one the request runs, and
parsing a document near the token limit takes tens of milliseconds of the event loop: a
document of hundreds of operations is refused here, by a scan of its braces (strings and
comments skipped) that costs about a millisecond, before the parser or any rule sees it. A
document the scan miscounts is still bounded after parsing (gql/fragments.py counts every
operation's expansion).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from graphql import GraphQLError
from strawberry.extensions import SchemaExtension

from gql.errors import ErrorCode

__all__ = ["OperationCountLimiter", "count_operations"]

# What the scan stops at: braces, strings and comments (single characters: linear searches).
_SPECIAL = re.compile(r'[{}"#]')
_LINE_END = re.compile(r"[\n\r]")
_STRING_STOP = re.compile(r'["\\\n\r]')
_IGNORED = " \t\n\r,\ufeff"
_NAME = frozenset(string.ascii_letters + string.digits + "_")


def _after_string(text: str, start: int) -> int:
    """The position after the string starting at ``start``; -1 when it never ends."""
    if text.startswith('"""', start):
        at = start + 3
        while True:
            end = text.find('"""', at)
            if end < 0:
                return -1
            if text[end - 1] != "\\":  # \""" is a triple quote inside the block
                return end + 3
            at = end + 3
    at = start + 1
    while True:
        stop = _STRING_STOP.search(text, at)
        if stop is None or stop.group() in "\n\r":
            return -1
        if stop.group() == '"':
            return stop.end()
        at = stop.end() + 1  # an escaped character


def count_operations(text: str, stop: int | None = None) -> int:
    """Operations (not fragments) defined at the top level of ``text``: each ``{`` at depth 0
    opens a definition, a fragment when its first word is ``fragment``. Linear in the text;
    counting stops past ``stop`` or at an unterminated string (the parser refuses it)."""
    depth, operations, pos = 0, 0, 0
    fragment: bool | None = None  # the definition being read at depth 0 (None: no word yet)
    while True:
        special = _SPECIAL.search(text, pos)
        end = special.start() if special else len(text)
        if depth == 0 and fragment is None:
            code = text[pos:end].lstrip(_IGNORED)
            if code:
                fragment = code.startswith("fragment") and code[8:9] not in _NAME
        if special is None:
            return operations
        char = special.group()
        if char == "#":
            line_end = _LINE_END.search(text, end)
            if line_end is None:
                return operations
            pos = line_end.end()
        elif char == '"':
            pos = _after_string(text, end)
            if pos < 0:
                return operations
        elif char == "{":
            if depth == 0 and not fragment:
                operations += 1
                if stop is not None and operations > stop:
                    return operations
            depth, pos = depth + 1, end + 1
        else:
            depth, pos = max(0, depth - 1), end + 1
            if depth == 0:
                fragment = None


class OperationCountLimiter(SchemaExtension):
    """Refuses, before parsing, a document defining more than ``max_operations`` operations."""

    def __init__(self, max_operations: int) -> None:
        self.max_operations = max_operations

    def on_parse(self) -> Iterator[None]:
        found = count_operations(self.execution_context.query or "", stop=self.max_operations)
        if found > self.max_operations:
            raise GraphQLError(
                f"The document defines more than {self.max_operations} operations; send the "
                "one you run (with its fragments).",
                extensions={"code": ErrorCode.BAD_INPUT.value, "reason": "operations"},
            )
        yield
