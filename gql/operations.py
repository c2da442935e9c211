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
from collections.abc import Iterator

from graphql import GraphQLError
from strawberry.extensions import SchemaExtension

from gql.errors import ErrorCode

__all__ = ["OperationCountLimiter", "count_operations"]

# Strings (block strings first, with their escaped triple quote), comments, braces.
_TOKENS = re.compile(r'"""(?:\\"""|"(?!"")|[^"])*"""|"(?:\\.|[^"\\\n\r])*"|#[^\n\r]*|[{}]')
_COMMENT = re.compile(r"#[^\n\r]*")
_FRAGMENT_HEADER = re.compile(r"[\s,\ufeff]*fragment\b")


def count_operations(text: str, stop: int | None = None) -> int:
    """Operations (not fragments) defined at the top level of ``text``: each ``{`` at depth 0
    opens a definition, a fragment when its header starts with ``fragment``. Counting stops
    past ``stop``."""
    depth, operations, header_start = 0, 0, 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == "{":
            if depth == 0:
                header = _COMMENT.sub(" ", text[header_start : match.start()])
                if not _FRAGMENT_HEADER.match(header):
                    operations += 1
                    if stop is not None and operations > stop:
                        return operations
            depth += 1
        elif token == "}":
            depth = max(0, depth - 1)
            if depth == 0:
                header_start = match.end()
    return operations


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
