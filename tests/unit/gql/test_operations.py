"""The operation count of a document, read from its text before parsing: strings, block strings
and comments are skipped, fragments are not operations; a document of hundreds of operations is
refused before the parser sees it."""

from __future__ import annotations

import pytest
from graphql import OperationDefinitionNode, parse

from gql.context import Context
from gql.operations import count_operations
from gql.permissions import LOCAL_ADMIN
from gql.schema import QueryLimits, build_schema
from tests.unit.gql.test_fragment_chains import chain
from tests.unit.gql.test_limits import no_database

DOCUMENTS = [
    "{ health { ready } }",
    "query A { health { ready } } mutation B { x } subscription C { y }",
    "query A { ...F } fragment F on Query { health { ready } } query B { ...F }",
    '# {{{ not code\nquery A($q: String = "}{}{") { retrieve(query: "{") { context } }',
    'query A { a(text: """ { \\""" } { """) { b } }\n#}\nfragment F on Q { a }\n  ,fragment G on Q { b }',
    "\ufeff fragment F on Q { a } { b }",
    'query A { a(t: "x\\"{\\\\") { b } } query B { c }',
    "query fragment { a } fragment\tF on Q { b }",
    chain(11, operations=120),
]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_the_count_equals_the_parsers(text: str) -> None:
    parsed = parse(text)
    operations = [d for d in parsed.definitions if isinstance(d, OperationDefinitionNode)]
    assert count_operations(text) == len(operations)


def test_an_unterminated_string_stops_the_count() -> None:
    assert count_operations('query A { a } query B { b(t: "never ends { } { }') == 2


def test_counting_stops_past_the_bound() -> None:
    assert count_operations(chain(11, operations=800), stop=50) == 51


async def test_hundreds_of_operations_are_refused_before_parsing() -> None:
    schema = build_schema(QueryLimits())
    for operations in (300, 800):
        result = await schema.execute(
            chain(11, operations=operations),
            operation_name="a0",
            context_value=Context(no_database(), LOCAL_ADMIN),
        )
        (error,) = result.errors
        assert error.extensions == {"code": "BAD_INPUT", "reason": "operations"}


async def test_a_few_operations_still_run() -> None:
    schema = build_schema(QueryLimits(max_operations=3))
    query = "query A { health { ready } } query B { health { llmMode } } query C { __typename }"
    result = await schema.execute(
        query, operation_name="B", context_value=Context(no_database(), LOCAL_ADMIN)
    )
    assert result.errors is None, result.errors
    assert "llmMode" in result.data["health"]
