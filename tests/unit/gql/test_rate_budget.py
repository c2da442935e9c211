"""The rate budget an operation takes: expensive fields count wherever fragments put them."""

from __future__ import annotations

from graphql import parse

from gql.context import Context
from gql.permissions import LOCAL_ADMIN
from gql.rate_budget import charged_fields
from gql.schema import QueryLimits, build_schema
from tests.unit.gql.test_limits import no_database

WRITES = " ".join(
    f'w{i}: write(agentId: "a", message: "m", speakerName: "s") {{ __typename }}' for i in range(30)
)
RETRIEVES = " ".join(
    f'r{i}: retrieve(agentId: "a", query: "q") {{ __typename }}' for i in range(30)
)


def wrapped(operation: str, root: str, body: str, levels: int) -> str:
    """``operation`` whose fields sit in ``levels`` nested fragment spreads."""
    parts = [f"{operation} Deep {{ ...L0 }}"]
    for i in range(levels - 1):
        parts.append(f"fragment L{i} on {root} {{ ...L{i + 1} }}")
    parts.append(f"fragment L{levels - 1} on {root} {{ {body} }}")
    return " ".join(parts)


def test_spreads_nested_at_any_depth_are_charged() -> None:
    for levels in (1, 3, 17, 30):
        mutation = parse(wrapped("mutation", "Mutation", WRITES, levels))
        assert charged_fields(mutation, "Deep") == 30, levels
        query = parse(wrapped("query", "Query", RETRIEVES, levels))
        assert charged_fields(query, "Deep", rerank_cost=5) == 150, levels


def test_a_fragment_spread_twice_is_charged_twice() -> None:
    doc = parse(
        "mutation M { ...A ...A } "
        'fragment A on Mutation { write(agentId: "a", message: "m", speakerName: "s") '
        "{ __typename } }"
    )
    assert charged_fields(doc, "M") == 2


async def test_a_deeply_wrapped_battery_is_refused_by_the_budget() -> None:
    schema = build_schema(QueryLimits())
    asked: list[int] = []

    def take(cost: int) -> float:
        asked.append(cost)
        return 30.0  # the bucket is empty: wait 30 s

    context = Context(no_database(), LOCAL_ADMIN, rate_take=take)
    result = await schema.execute(
        wrapped("mutation", "Mutation", WRITES, 17), context_value=context
    )
    assert asked == [29]  # the request itself took one already
    (error,) = result.errors
    assert error.extensions["code"] == "RATE_LIMITED"
