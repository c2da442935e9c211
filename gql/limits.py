"""Hardening of the GraphQL endpoint: size, token, depth, alias and cost limits, introspection
toggle and error masking, as strawberry schema extensions.

Every refused document is answered with a GraphQL error whose ``extensions.code`` is
``BAD_INPUT`` and whose ``extensions.reason`` says which limit was hit. Limits are checked
before execution, so a 1 MB or 50-levels-deep query is refused without touching Neo4j.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
    VariableNode,
    get_named_type,
    validate,
)
from graphql.validation import ASTValidationRule, NoSchemaIntrospectionCustomRule
from graphql.validation.rules import overlapping_fields_can_be_merged
from strawberry.extensions import (
    AddValidationRules,
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
    ValidationCache,
)
from strawberry.extensions.max_aliases import create_validator as create_alias_rule
from strawberry.extensions.query_depth_limiter import create_validator as create_depth_rule

from gql.errors import ErrorCode, UserSafeErrors
from gql.fragments import FragmentExpansionLimiter
from gql.operations import OperationCountLimiter
from gql.rate_budget import MutationRateLimit

__all__ = [
    "CostLimitRule",
    "CostLimiter",
    "QueryLimits",
    "QuerySizeLimiter",
    "ValidationBudget",
    "limit_extensions",
    "operation_variables",
    "query_cost",
]

# Parsed and validated documents kept per process (by query text): clients send few distinct ones.
DOCUMENT_CACHE = 512
# Multiplier assumed for a list field without a page-size argument (short fixed lists).
UNBOUNDED_LIST = 10
PAGE_ARGUMENTS = ("first", "limit", "maxNodes")
# A page size given by a variable whose value is not known at validation (not sent, not an
# int): the largest page any argument allows (Entity.history, relationships, maxNodes: 500).
UNKNOWN_PAGE = 500
# Lists already bounded by their parent's page size (Relay connections, subgraphs).
PAGED = ("edges", "nodes")


@dataclass(frozen=True)
class QueryLimits:
    """The knobs (settings: max_query_depth, max_query_chars, max_aliases, introspection...)."""

    max_depth: int = 12
    max_chars: int = 20_000
    max_tokens: int = 5_000
    max_aliases: int = 30
    max_cost: int = 50_000
    # Field selections a document may expand to once fragment spreads are replaced by their
    # fragments (bounds every rule that walks spreads; see gql/fragments.py).
    max_selections: int = 10_000
    # Operations one document may define (checked on the text, before parsing).
    max_operations: int = 50
    # graphql-core's budget for comparing same-named fields (OverlappingFieldsCanBeMerged,
    # two units a comparison; its default, 500,000, is ~1.9 s of one core): the example and
    # explorer operations spend none, 100 copies of one field ~25,000.
    validation_budget: int = 20_000
    introspection: bool = True
    # Requests of the rate budget a retrieve takes when it reranks with the LLM (an LLM is
    # configured and the call does not turn the reranker off); 1 otherwise.
    rerank_cost: int = 5


def _refused(reason: str, message: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": ErrorCode.BAD_INPUT.value, "reason": reason})


class ValidationBudget(SchemaExtension):
    """Sets graphql-core's field-comparison budget for the validation that follows (a module
    setting of graphql-core, read when the rule starts; set per request, before validating,
    so every schema of the process validates with its own). Past it, validation is aborted
    (``BAD_INPUT``)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget

    def on_validate(self) -> Iterator[None]:
        overlapping_fields_can_be_merged.MAX_COMPLEXITY_BUDGET = self.budget
        yield


class QuerySizeLimiter(SchemaExtension):
    """Refuses documents longer than ``max_chars`` before parsing them."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars

    def on_parse(self) -> Iterator[None]:
        query = self.execution_context.query or ""
        if len(query) > self.max_chars:
            raise _refused(
                "size", f"Query is {len(query)} characters; the limit is {self.max_chars}."
            )
        yield


def _page_size(
    field_node: FieldNode, field_def: GraphQLField, variables: dict[str, Any]
) -> int | None:
    for name in PAGE_ARGUMENTS:
        if name not in field_def.args:
            continue
        for arg in field_node.arguments or ():
            if arg.name.value == name:
                if isinstance(arg.value, IntValueNode):
                    return max(1, int(arg.value.value))
                if isinstance(arg.value, VariableNode):
                    # The value actually sent (or the operation's default for it): a huge
                    # page costs what it asks for; the resolver refuses it past its maximum.
                    value = variables.get(arg.value.name.value)
                    if isinstance(value, int) and not isinstance(value, bool):
                        return max(1, value)
                return UNKNOWN_PAGE
        default = field_def.args[name].default_value
        return int(default) if isinstance(default, int) else 100
    return None


def operation_variables(
    node: OperationDefinitionNode, sent: dict[str, Any] | None
) -> dict[str, Any]:
    """The variable values a request runs with: what it sent, else the operation's defaults."""
    values: dict[str, Any] = {}
    for definition in node.variable_definitions or ():
        default = definition.default_value
        if isinstance(default, IntValueNode):
            values[definition.variable.name.value] = int(default.value)
    values.update(sent or {})
    return values


def _is_list(type_: Any) -> bool:
    if isinstance(type_, GraphQLNonNull):
        type_ = type_.of_type
    return isinstance(type_, GraphQLList)


def query_cost(
    context: ValidationContext,
    parent: GraphQLObjectType,
    selection: SelectionSetNode,
    multiplier: int = 1,
    depth: int = 0,
    variables: dict[str, Any] | None = None,
    memo: dict[tuple[str, str], int] | None = None,
) -> int:
    """Estimated number of objects a selection resolves: each field costs its multiplier, and
    list fields multiply their children by their page size (a variable page size counts with
    the value in ``variables``, see :func:`operation_variables`).

    The cost is linear in the multiplier, so each fragment is walked once per type it is
    spread on, at multiplier 1, and kept in ``memo`` (pass the same dict for operations that
    run with the same page-size variables): the walk is linear in the document, not in its
    expansion."""
    variables = variables or {}
    memo = {} if memo is None else memo
    if depth > 64:  # the fragment pre-pass refuses these anyway; stop runaway recursion here
        return 0
    total = 0
    for node in selection.selections:
        if isinstance(node, FieldNode):
            field_def = parent.fields.get(node.name.value)
            if field_def is None:
                continue  # unknown field: another rule reports it
            total += multiplier
            child = get_named_type(field_def.type)
            if node.selection_set is not None and isinstance(child, GraphQLObjectType):
                size = _page_size(node, field_def, variables)
                if size is None and _is_list(field_def.type) and node.name.value not in PAGED:
                    size = UNBOUNDED_LIST
                total += query_cost(
                    context,
                    child,
                    node.selection_set,
                    multiplier * (size or 1),
                    depth + 1,
                    variables,
                    memo,
                )
        elif isinstance(node, InlineFragmentNode):
            target = parent
            if node.type_condition is not None:
                found = context.schema.get_type(node.type_condition.name.value)
                target = found if isinstance(found, GraphQLObjectType) else parent
            total += query_cost(
                context, target, node.selection_set, multiplier, depth + 1, variables, memo
            )
        elif isinstance(node, FragmentSpreadNode):
            fragment = context.get_fragment(node.name.value)
            if fragment is not None:
                found = context.schema.get_type(fragment.type_condition.name.value)
                target = found if isinstance(found, GraphQLObjectType) else parent
                key = (node.name.value, target.name)
                if key not in memo:
                    memo[key] = 0  # a cycle (refused before validation) costs nothing more
                    memo[key] = query_cost(
                        context, target, fragment.selection_set, 1, depth + 1, variables, memo
                    )
                total += multiplier * memo[key]
    return total


def _page_variables(variables: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """The variables a cost can depend on (integers: page sizes), as a memo key."""
    return tuple(
        sorted(
            (k, v) for k, v in variables.items() if isinstance(v, int) and not isinstance(v, bool)
        )
    )


def cost_rule(max_cost: int, variables: dict[str, Any] | None = None) -> type[ValidationRule]:
    """A validation rule refusing operations whose estimated cost exceeds ``max_cost``, with
    the request's ``variables`` (page sizes given by variables count with their values)."""

    class CostLimitRule(ValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            # Fragment costs shared by the operations of the document that run with the same
            # page sizes (every operation is checked, whichever one the request runs).
            self.memos: dict[tuple[tuple[str, int], ...], dict[tuple[str, str], int]] = {}

        def enter_operation_definition(self, node: OperationDefinitionNode, *_: Any) -> None:
            schema = self.context.schema
            root = {
                OperationType.QUERY: schema.query_type,
                OperationType.MUTATION: schema.mutation_type,
            }.get(node.operation)
            if root is None:
                return
            values = operation_variables(node, variables)
            cost = query_cost(
                self.context,
                root,
                node.selection_set,
                variables=values,
                memo=self.memos.setdefault(_page_variables(values), {}),
            )
            if cost > max_cost:
                self.report_error(
                    GraphQLError(
                        f"Query cost {cost} exceeds the limit of {max_cost}; use smaller pages.",
                        node,
                        extensions={"code": ErrorCode.BAD_INPUT.value, "reason": "cost"},
                    )
                )

    return CostLimitRule


CostLimitRule = cost_rule(QueryLimits().max_cost)


class CostLimiter(SchemaExtension):
    """Refuses operations whose estimated cost exceeds ``max_cost``, with the variables this
    request sent (``first: $n`` costs ``$n``). Its own validation pass, after the cached one
    (list it after ``ValidationCache``): the answer depends on the variables, so it cannot
    share the cache keyed by document."""

    def __init__(self, max_cost: int) -> None:
        self.max_cost = max_cost

    def on_validate(self) -> Iterator[None]:
        ctx = self.execution_context
        # [] = the document passed the other rules (None: not validated yet, or errors).
        if ctx.pre_execution_errors == [] and ctx.graphql_document is not None:
            ctx.pre_execution_errors = validate(
                ctx.schema._schema, ctx.graphql_document, [cost_rule(self.max_cost, ctx.variables)]
            )
        yield


def limit_extensions(limits: QueryLimits) -> list[Any]:
    """The schema extensions implementing ``limits`` (error masking included)."""
    # The depth and alias rule classes are built once (strawberry's QueryDepthLimiter /
    # MaxAliasesLimiter build new ones per request), so a document's validation result can be
    # cached: same text, same rules, same answer. Parsing is cached by text too (after the
    # size check; the token limit is a parse option, and refusals are never cached). The cost
    # rule depends on the variables and runs as its own pass after the cached validation.
    # Profiling bench_api's retrieve showed parse + validation at ~13 % of the API process's
    # busy time (docs/scaling.md).
    rules: list[type[ASTValidationRule]] = [
        create_depth_rule(limits.max_depth, None, None),
        create_alias_rule(limits.max_aliases),
    ]
    if not limits.introspection:
        rules.append(NoSchemaIntrospectionCustomRule)
    # Factories, not instances: strawberry builds fresh extensions for every request.
    return [
        UserSafeErrors,
        partial(QuerySizeLimiter, limits.max_chars),
        partial(OperationCountLimiter, limits.max_operations),
        partial(MaxTokensLimiter, limits.max_tokens),
        partial(ParserCache, maxsize=DOCUMENT_CACHE),
        # Before any rule that expands fragments: those walks are exponential in a chain of
        # fragments each spreading the next twice; this bound keeps them small.
        partial(FragmentExpansionLimiter, limits.max_selections, limits.max_depth),
        partial(ValidationBudget, limits.validation_budget),
        partial(AddValidationRules, rules),
        partial(ValidationCache, maxsize=DOCUMENT_CACHE),
        partial(CostLimiter, limits.max_cost),
        partial(MutationRateLimit, limits.rerank_cost),
    ]
