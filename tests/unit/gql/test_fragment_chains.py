"""Fragment chains: a document whose fragments each spread the next one twice expands to 2^N
selections; it is refused with BAD_INPUT by a walk linear in the document, before the depth,
alias and cost rules (which expand spreads) see it."""

from __future__ import annotations

from typing import Any

from graphql import parse

from gql.context import Context
from gql.fragments import expansion
from gql.permissions import LOCAL_ADMIN
from gql.schema import QueryLimits, build_schema
from tests.unit.gql.test_limits import no_database


def chain(n: int, spreads: int = 2) -> str:
    """``query{...F0} fragment F0 on Query{...F1 ...F1} … fragment Fn on Query{health{ready}}``"""
    body = ["query{...F0}"]
    for i in range(n):
        body.append(f"fragment F{i} on Query{{{' '.join([f'...F{i + 1}'] * spreads)}}}")
    body.append(f"fragment F{n} on Query{{health{{ready}}}}")
    return " ".join(body)


def test_expansion_counts_a_chain_without_walking_it() -> None:
    found = expansion(parse(chain(30)), cap=10**6)
    assert found.selections == 10**6  # 2^30 saturates at the cap, never walked path by path
    assert found.visits <= 2 * 31 + 4  # each fragment's own selections are visited once
    assert found.cycle is None


def test_expansion_of_ordinary_fragments_is_exact() -> None:
    doc = parse("query { ...A ...A } fragment A on Query { health { ready llmMode } }")
    found = expansion(doc)
    assert (found.selections, found.depth) == (6, 2)


def test_a_cycle_is_named() -> None:
    doc = parse("query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }")
    assert expansion(doc).cycle in {"A", "B"}


async def run(schema: Any, query: str) -> Any:
    return await schema.execute(query, context_value=Context(no_database(), LOCAL_ADMIN))


async def test_a_thirty_fragment_chain_is_refused_as_bad_input() -> None:
    schema = build_schema(QueryLimits())
    # Without the bound this document takes hours to validate (4x per two more fragments).
    result = await run(schema, chain(30))
    assert result.data is None
    (error,) = result.errors
    assert error.extensions["code"] == "BAD_INPUT"
    assert error.extensions["reason"] == "fragments"


async def test_cycles_and_deep_fragments_are_refused_before_validation() -> None:
    schema = build_schema(QueryLimits(max_depth=3))
    cyclic = await run(schema, "query{...A} fragment A on Query{...B} fragment B on Query{...A}")
    assert cyclic.errors[0].extensions["reason"] == "fragments"
    deep = await run(
        schema,
        "query{...A} fragment A on Query{health{ready}}"
        " fragment B on Query{health{a:health{b:health{c:health{ready}}}}}",
    )
    assert deep.errors[0].extensions["code"] == "BAD_INPUT"


async def test_ordinary_fragment_reuse_still_runs() -> None:
    schema = build_schema(QueryLimits())
    query = (
        "query { a: health { ...H } b: health { ...H } } fragment H on Health { llmMode embedder }"
    )
    result = await run(schema, query)
    assert result.errors is None, result.errors
    assert result.data["a"] == result.data["b"]


async def test_the_standard_introspection_query_passes() -> None:
    from graphql import get_introspection_query

    result = await run(build_schema(QueryLimits()), get_introspection_query())
    assert result.errors is None, result.errors
    assert result.data["__schema"]["queryType"]["name"] == "Query"
