"""A linear pre-pass over a parsed document that bounds what every later rule walks.

The validation rules that follow (depth, aliases, cost, the mutation count) expand fragment
spreads as they walk, so a chain of fragments that each spread the next one twice makes them
visit 2^N paths from a document of a few hundred bytes. :func:`expansion` computes, once per
fragment and in time linear in the document, how many selections and how many levels the
document expands to; :class:`FragmentExpansionLimiter` refuses a document whose expansion, or a
fragment cycle, exceeds the bounds with ``BAD_INPUT`` before any other rule runs.

The bound is on the whole document: the expansions of all its operations added up (every rule
walks every operation, whichever one the request runs), counting every selection node — fields,
fragment spreads and inline fragments — so a chain ending in spreads of no fields is counted
too. Whatever passes is at most ``max_selections`` nodes when fully expanded, so the later
walks are bounded too. Selection sets and fragments nest at most :data:`MAX_NESTING` levels
(the later rules recurse once per level).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)
from strawberry.extensions import SchemaExtension

from gql.errors import ErrorCode

__all__ = ["MAX_NESTING", "Expansion", "FragmentExpansionLimiter", "expansion"]

# Selection sets, fragment spreads and inline fragments nested in one another: every rule that
# expands spreads recurses once per level (Python's stack holds about a thousand frames).
MAX_NESTING = 64


@dataclass(frozen=True)
class Expansion:
    """What a document expands to once every fragment spread is replaced by its fragment."""

    # Selection nodes (fields, spreads, inline fragments) of all operations added up,
    # fragments expanded (or of the largest fragment, if larger).
    selections: int
    depth: int  # the deepest field nesting of any operation (introspection fields aside)
    cycle: str | None = None  # the name of a fragment that spreads itself (directly or not)
    visits: int = 0  # selection nodes this computation looked at (linear in the document)
    # The deepest nesting of selection sets and fragment spreads (past MAX_NESTING: refused).
    nesting: int = 0


class _Walk:
    """Memoized sizes per fragment; each fragment's own selections are visited once.

    Sizes are (expanded selections, field depth, nesting height): all three are properties of
    a fragment's own subtree, so a fragment reached again at another level reuses them (a
    fragment first met shallow and spread again deep is as tall there as it is)."""

    def __init__(self, fragments: dict[str, FragmentDefinitionNode], cap: int) -> None:
        self.fragments = fragments
        self.cap = cap  # sizes saturate here: a refused document need not be counted exactly
        self.done: dict[str, tuple[int, int, int]] = {}
        self.active: set[str] = set()
        self.cycle: str | None = None
        self.visits = 0
        self.level = 0  # how deep this walk itself recurses (it stops past MAX_NESTING)
        self.too_deep = False

    def selection_set(self, selection: SelectionSetNode) -> tuple[int, int, int]:
        """(expanded selection count, field depth, nesting height) of one selection set."""
        self.level += 1
        try:
            if self.level > MAX_NESTING:
                self.too_deep = True  # refused by the caller; deeper would exhaust the stack
                return 0, 0, 0
            return self._selections(selection)
        finally:
            self.level -= 1

    def _selections(self, selection: SelectionSetNode) -> tuple[int, int, int]:
        size, depth, height = 0, 0, 0
        for node in selection.selections:
            self.visits += 1
            size += 1  # every selection node counts: a spread is walked like a field
            if isinstance(node, FieldNode):
                inner_size, inner_depth, inner_height = (
                    self.selection_set(node.selection_set) if node.selection_set else (0, 0, 0)
                )
                size += inner_size
                # Introspection fields (__schema, __type) follow the schema's own shape, which
                # is bounded; the depth rule after this ignores them as well.
                if not node.name.value.startswith("__"):
                    depth = max(depth, 1 + inner_depth)
            elif isinstance(node, InlineFragmentNode):
                inner_size, inner_depth, inner_height = self.selection_set(node.selection_set)
                size += inner_size
                depth = max(depth, inner_depth)
            elif isinstance(node, FragmentSpreadNode):
                inner_size, inner_depth, inner_height = self.fragment(node.name.value)
                size += inner_size
                depth = max(depth, inner_depth)
                inner_height += 1  # a spread is a level of nesting of its own
            height = max(height, inner_height)
            size = min(size, self.cap)
            if self.cycle is not None or self.too_deep:
                break
        return size, depth, 1 + height

    def fragment(self, name: str) -> tuple[int, int, int]:
        if name in self.done:
            return self.done[name]
        definition = self.fragments.get(name)
        if definition is None:
            return 0, 0, 0  # unknown fragment: the KnownFragmentNames rule reports it
        if name in self.active:
            self.cycle = self.cycle or name
            return 0, 0, 0
        self.active.add(name)
        self.level += 1  # two frames per spread: count it as a level of this walk's own
        try:
            result = self.selection_set(definition.selection_set)
        finally:
            self.level -= 1
        self.active.discard(name)
        self.done[name] = result
        return result


def expansion(document: DocumentNode, cap: int = 1_000_000) -> Expansion:
    """The expanded size and depth of ``document``, computed in time linear in its length:
    the sizes of all its operations added up (each fragment is walked once, whichever
    operations spread it).

    Args:
        document: A parsed GraphQL document.
        cap: Sizes stop growing here (the caller refuses anything above a smaller bound).
    """
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    walk = _Walk(fragments, cap)
    selections, depth, nesting = 0, 0, 0
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            size, deep, height = walk.selection_set(definition.selection_set)
            selections, depth = min(selections + size, cap), max(depth, deep)
            nesting = max(nesting, height)
    for name in fragments:  # fragments no operation uses are still walked by some rules
        size, _, height = walk.fragment(name)
        selections, nesting = max(selections, size), max(nesting, 1 + height)
    if walk.too_deep:
        nesting = max(nesting, MAX_NESTING + 1)
    return Expansion(selections, depth, walk.cycle, walk.visits, nesting)


def _refused(reason: str, message: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": ErrorCode.BAD_INPUT.value, "reason": reason})


class FragmentExpansionLimiter(SchemaExtension):
    """Refuses, right after parsing, a document whose operations together expand past
    ``max_selections`` selections, whose fields nest past ``max_depth`` levels, whose
    selections and spreads nest past ``MAX_NESTING``, or whose fragments spread themselves in a
    cycle. List it after the parser (cache) and before validation."""

    def __init__(self, max_selections: int, max_depth: int) -> None:
        self.max_selections = max_selections
        self.max_depth = max_depth

    def on_parse(self) -> Iterator[None]:
        yield
        document = self.execution_context.graphql_document
        if document is None:
            return
        found = expansion(document, cap=self.max_selections + 1)
        if found.cycle is not None:
            raise _refused("fragments", f"Fragment {found.cycle!r} spreads itself.")
        if found.nesting > MAX_NESTING:
            raise _refused(
                "fragments",
                f"Selections and fragments nest more than {MAX_NESTING} levels deep; "
                "spread fragments in fewer levels.",
            )
        if found.selections > self.max_selections:
            raise _refused(
                "fragments",
                f"The document expands to more than {self.max_selections} selections once its "
                "fragments are spread (all its operations together); spread each fragment "
                "fewer times or send fewer operations.",
            )
        # Counted like the depth rule that follows: a root field is level 0.
        if found.depth - 1 > self.max_depth:
            raise _refused(
                "depth", f"Query is {found.depth - 1} levels deep; the limit is {self.max_depth}."
            )
