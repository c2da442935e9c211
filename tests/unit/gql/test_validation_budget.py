"""graphql-core compares every pair of same-named fields of a selection set: a document
repeating one field hundreds of times is refused once the comparisons pass the budget, long
before graphql-core's own default (about two seconds of one core)."""

from __future__ import annotations

from graphql import get_introspection_query

from gql.context import Context
from gql.permissions import LOCAL_ADMIN
from gql.schema import QueryLimits, build_schema
from tests.unit.gql.test_limits import no_database


async def run(limits: QueryLimits, query: str) -> object:
    schema = build_schema(limits)
    return await schema.execute(query, context_value=Context(no_database(), LOCAL_ADMIN))


async def test_hundreds_of_copies_of_one_field_are_refused() -> None:
    # 300 copies: 224,250 budget units, under graphql-core's default of 500,000.
    result = await run(QueryLimits(), "{" + " health { ready }" * 300 + " }")
    (error,) = result.errors  # type: ignore[attr-defined]
    assert error.extensions["code"] == "BAD_INPUT"
    assert error.message == "Validation aborted."


async def test_ordinary_documents_spend_nothing_of_it() -> None:
    tight = QueryLimits(validation_budget=1)
    result = await run(tight, get_introspection_query(descriptions=True))
    assert result.errors is None, result.errors  # type: ignore[attr-defined]
    result = await run(tight, "{ a: health { ready } b: health { llmMode } }")
    assert result.errors is None, result.errors  # type: ignore[attr-defined]
