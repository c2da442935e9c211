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


def chain(n: int, spreads: int = 2, operations: int = 1, leaf: str = "health{ready}") -> str:
    """``query{...F0} fragment F0 on Query{...F1 ...F1} … fragment Fn on Query{health{ready}}``;
    with ``operations`` > 1, that many named operations ``query a0{...F0} query a1{...F0} …``."""
    if operations == 1:
        body = ["query{...F0}"]
    else:
        body = [f"query a{i}{{...F0}}" for i in range(operations)]
    for i in range(n):
        body.append(f"fragment F{i} on Query{{{' '.join([f'...F{i + 1}'] * spreads)}}}")
    body.append(f"fragment F{n} on Query{{{leaf}}}")
    return " ".join(body)


def test_expansion_counts_a_chain_without_walking_it() -> None:
    found = expansion(parse(chain(30)), cap=10**6)
    assert found.selections == 10**6  # 2^30 saturates at the cap, never walked path by path
    assert found.visits <= 2 * 31 + 4  # each fragment's own selections are visited once
    assert found.cycle is None


def test_expansion_of_ordinary_fragments_is_exact() -> None:
    doc = parse("query { ...A ...A } fragment A on Query { health { ready llmMode } }")
    found = expansion(doc)
    # Two spreads, each expanding to health, ready, llmMode: every selection node counts.
    assert (found.selections, found.depth) == (8, 2)


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


def test_the_operations_of_a_document_add_up() -> None:
    doc = parse("query a { ...A } query b { ...A } fragment A on Query { health { ready } }")
    assert expansion(doc).selections == 6  # each operation walks A: 2 x (spread, health, ready)


def test_spreads_of_no_fields_are_counted() -> None:
    # A chain ending in a fragment no document defines expands to 2^30 spreads and no field:
    # the rules after this walk every one of them.
    found = expansion(parse(chain(30, leaf="...Missing")), cap=10**6)
    assert found.selections == 10**6


async def test_many_operations_spreading_one_chain_are_refused() -> None:
    # The operation count (checked first, on the text) is lifted: the expansion bound alone.
    schema = build_schema(QueryLimits(max_operations=1_000))
    # Each operation expands to 8,191 selections, under the bound of 10,000; the document
    # (300 of them, all walked by validation whichever one runs) is far above it.
    assert expansion(parse(chain(11))).selections == 8_191
    query = chain(11, operations=300)
    result = await schema.execute(
        query,
        operation_name="a0",
        context_value=Context(no_database(), LOCAL_ADMIN),
    )
    assert result.data is None
    (error,) = result.errors
    assert error.extensions == {"code": "BAD_INPUT", "reason": "fragments"}


async def test_fragments_nested_past_the_stack_are_refused_as_bad_input() -> None:
    schema = build_schema(QueryLimits())
    result = await run(schema, chain(600, spreads=1))  # 600 fragments, each spreading the next
    (error,) = result.errors
    assert error.extensions == {"code": "BAD_INPUT", "reason": "fragments"}
    assert "nest" in error.message


async def test_nesting_within_the_bound_still_runs() -> None:
    schema = build_schema(QueryLimits())
    result = await run(schema, chain(20, spreads=1))
    assert result.errors is None, result.errors
    assert result.data["health"]["ready"] in (True, False)


def test_the_cost_walk_visits_each_fragment_once_per_type(monkeypatch: Any) -> None:
    from graphql import validate

    import gql.limits as limits

    calls = 0
    walk = limits.query_cost

    def counted(*args: Any, **kwargs: Any) -> int:
        nonlocal calls
        calls += 1
        return walk(*args, **kwargs)

    monkeypatch.setattr(limits, "query_cost", counted)
    schema = build_schema(QueryLimits())
    # 2^16 paths, 200 operations: the walk is linear in the document, the cost exact.
    errors = validate(schema._schema, parse(chain(16, operations=200)), [limits.cost_rule(10**12)])
    assert errors == []
    assert calls <= 200 + 2 * 17 + 4
    errors = validate(schema._schema, parse(chain(16, operations=3)), [limits.cost_rule(10)])
    assert "Query cost 131072 exceeds" in errors[0].message  # 2^16 x (health, ready)


def test_a_fragment_first_met_shallow_is_as_tall_when_spread_deep() -> None:
    # The operation spreads F130 first (a leaf), then F129 (which spreads the memoized F130),
    # ... then F0: every first visit is shallow, but F0 nests 131 spreads deep.
    n = 130
    text = (
        "query{"
        + " ".join(f"...F{i}" for i in reversed(range(n + 1)))
        + "} "
        + " ".join(f"fragment F{i} on Query{{...F{i + 1}}}" for i in range(n))
        + f" fragment F{n} on Query{{health{{ready}}}}"
    )
    assert expansion(parse(text)).nesting > 2 * n
