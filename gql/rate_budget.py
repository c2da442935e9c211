"""The rate budget of a GraphQL operation: a request through the HTTP middleware, or an
operation sent over a WebSocket, takes one request of its key's budget; an operation that runs several expensive fields (mutations,
``retrieve``, ``neighborhood``; aliases count, fragments expanded) takes the rest here, before
execution, or is refused whole with ``RATE_LIMITED`` (see server/limits.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from graphql import (
    BooleanValueNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    ObjectValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
)
from strawberry.extensions import SchemaExtension

from gql.errors import ErrorCode
from gql.fragments import MAX_NESTING

__all__ = ["EXPENSIVE_QUERIES", "MutationRateLimit", "charged_fields", "mutation_fields"]


# Query fields that run a whole retrieval or graph walk: each one (aliases count) takes a
# request of the key's rate budget, like a mutation field.
EXPENSIVE_QUERIES = frozenset({"retrieve", "neighborhood"})


def _reranks(node: FieldNode, variables: dict[str, Any]) -> bool:
    """Whether a ``retrieve`` field leaves the LLM reranker on (its ``options`` do not set
    ``enableReranker: false``, literally or through a variable)."""
    for arg in node.arguments or ():
        if arg.name.value != "options":
            continue
        value = arg.value
        if isinstance(value, VariableNode):
            sent = variables.get(value.name.value)
            return not (isinstance(sent, dict) and sent.get("enableReranker") is False)
        if isinstance(value, ObjectValueNode):
            for f in value.fields:
                if f.name.value != "enableReranker":
                    continue
                if isinstance(f.value, BooleanValueNode):
                    return bool(f.value.value)
                if isinstance(f.value, VariableNode):
                    return variables.get(f.value.name.value) is not False
    return True


def charged_fields(
    document: DocumentNode,
    operation_name: str | None,
    *,
    rerank_cost: int = 1,
    variables: dict[str, Any] | None = None,
) -> int:
    """Requests of the rate budget the operation ``document`` runs takes (aliases count,
    fragments expanded): one per mutation field and per ``EXPENSIVE_QUERIES`` field of a
    query, ``rerank_cost`` for a ``retrieve`` that reranks with the LLM (pass 1 when no LLM
    is configured); 0 when the operation cannot be picked. Spreads count at any depth (each
    fragment is counted once and charged every time it is spread); a document nesting deeper
    than ``MAX_NESTING`` is refused with ``BAD_INPUT``."""
    variables = variables or {}
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    chosen = [
        o
        for o in operations
        if operation_name is None or (o.name is not None and o.name.value == operation_name)
    ]
    if len(chosen) != 1 or chosen[0].operation not in (OperationType.MUTATION, OperationType.QUERY):
        return 0
    mutation = chosen[0].operation == OperationType.MUTATION

    def field_cost(node: FieldNode) -> int:
        name = node.name.value
        if name == "__typename" or not (mutation or name in EXPENSIVE_QUERIES):
            return 0
        if name == "retrieve" and not mutation and rerank_cost > 1 and _reranks(node, variables):
            return rerank_cost
        return 1

    spread_costs: dict[str, int] = {}  # each fragment is counted once, however often spread

    def count(selection: SelectionSetNode, depth: int = 0) -> int:
        if depth > MAX_NESTING:
            # The fragment pre-pass refuses these before execution; never charge them nothing.
            raise GraphQLError(
                f"Selections and fragments nest more than {MAX_NESTING} levels deep.",
                extensions={"code": ErrorCode.BAD_INPUT.value, "reason": "fragments"},
            )
        total = 0
        for node in selection.selections:
            if isinstance(node, FieldNode):
                total += field_cost(node)
            elif isinstance(node, InlineFragmentNode):
                total += count(node.selection_set, depth + 1)
            elif isinstance(node, FragmentSpreadNode) and node.name.value in fragments:
                name = node.name.value
                if name not in spread_costs:
                    spread_costs[name] = 0  # a cycle (refused before execution) adds nothing
                    spread_costs[name] = count(fragments[name].selection_set, depth + 1)
                total += spread_costs[name]
        return total

    return count(chosen[0].selection_set)


def mutation_fields(document: DocumentNode, operation_name: str | None) -> int:
    """Top-level fields of the mutation ``document`` runs (aliases count, fragments expanded);
    0 for queries or when the operation cannot be picked."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    chosen = [
        o
        for o in operations
        if operation_name is None or (o.name is not None and o.name.value == operation_name)
    ]
    if len(chosen) != 1 or chosen[0].operation != OperationType.MUTATION:
        return 0
    return charged_fields(document, operation_name)


class MutationRateLimit(SchemaExtension):
    """Each top-level mutation field, and each expensive query field (``retrieve``,
    ``neighborhood``), takes one request of the key's rate budget, a ``retrieve`` that reranks
    with the process's LLM ``rerank_cost``: the HTTP middleware (or the WebSocket handler) took
    one for the request (the operation), this takes the rest through the context's
    ``rate_take`` before execution (``{ a: retrieve(...) b: retrieve(...) }`` costs two, ten
    with an LLM reranking) or refuses the whole operation with RATE_LIMITED."""

    def __init__(self, rerank_cost: int) -> None:
        self.rerank_cost = rerank_cost

    def on_execute(self) -> Iterator[None]:
        ctx = self.execution_context
        take = getattr(ctx.context, "rate_take", None)
        if take is not None and ctx.graphql_document is not None:
            memory = getattr(ctx.context, "memory", None)
            reranking = (
                memory is not None
                and memory.llm is not None
                and memory.retrieve_config.rerank.enable_reranker
            )
            extra = (
                charged_fields(
                    ctx.graphql_document,
                    ctx.operation_name,
                    rerank_cost=self.rerank_cost if reranking else 1,
                    variables=ctx.variables,
                )
                - 1
            )
            if extra > 0:
                wait = float(take(extra))
                if wait > 0:
                    retry = max(1, int(wait + 0.999))
                    raise GraphQLError(
                        f"Rate limit exceeded: this operation costs {extra + 1} requests "
                        "(mutations, retrieve — more when it reranks with the LLM — and "
                        "neighborhood); "
                        f"retry in {retry} s.",
                        extensions={
                            "code": ErrorCode.RATE_LIMITED.value,
                            "retryAfterSeconds": retry,
                        },
                    )
        yield
