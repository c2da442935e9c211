"""Document limits, cursors and the token bucket, without a database."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from gql.context import Context
from gql.permissions import LOCAL_ADMIN, Principal
from gql.schema import QueryLimits, build_schema
from graph.errors import BadInput
from graph.memory.browse import (
    decode_key_cursor,
    decode_time_cursor,
    encode_key_cursor,
    encode_time_cursor,
)
from graph.memory.facade import Memory
from graph.providers import HashEmbedder
from server.auth import hash_key, is_loopback, key_from_headers
from server.composition import build_memory
from server.limits import RateLimiter, TokenBucket
from server.settings import Settings


def no_database() -> Memory:
    """Services whose Neo4j is never reached by a refused document (an unroutable address:
    ``connect`` does no I/O until the first query)."""
    return build_memory(Settings(neo4j_uri="bolt://127.0.0.1:9"), embedder=HashEmbedder(8))


schema = build_schema(QueryLimits(max_depth=12, max_chars=20_000, max_cost=5_000))


async def run(query: str) -> Any:
    return await schema.execute(query, context_value=Context(no_database(), LOCAL_ADMIN))


async def test_fifty_levels_deep_is_refused_before_execution() -> None:
    fields = " ".join(["facts { id"] * 50) + " }" * 50
    query = '{ entity(agentId: "a", key: "k") { ' + fields + " } }"
    res = await run(query)  # the executor is None: reaching Neo4j would be an INTERNAL error
    assert res.errors and res.errors[0].extensions["code"] == "BAD_INPUT"


async def test_one_megabyte_query_is_refused_by_size() -> None:
    res = await run("{ health { ready } }" + " " * 1_000_000)
    assert res.errors[0].extensions == {"code": "BAD_INPUT", "reason": "size"}


async def test_cost_counts_page_sizes() -> None:
    cheap = '{ entities(agentId: "a", first: 5) { edges { node { facts(limit: 5) { id } } } } }'
    costly = (
        '{ entities(agentId: "a", first: 100) { edges { node { facts(limit: 100) { id } } } } }'
    )
    res = await run(costly)
    assert res.errors[0].extensions == {"code": "BAD_INPUT", "reason": "cost"}
    # The cheap one passes validation and then needs the database (which is absent here).
    res = await run(cheap)
    assert res.errors is None or res.errors[0].extensions.get("reason") != "cost"


async def test_anonymous_principal_is_forbidden_without_touching_the_database() -> None:
    res = await schema.execute(
        '{ entities(agentId: "a") { totalCount } }',
        context_value=Context(no_database(), Principal(tenant="t")),
    )
    assert res.errors[0].extensions == {"code": "FORBIDDEN"}


def test_cursors_round_trip_and_reject_garbage() -> None:
    assert decode_key_cursor(encode_key_cursor("person:ana|x")) == "person:ana|x"
    at = datetime(2026, 5, 1, 12, tzinfo=UTC)
    assert decode_time_cursor(encode_time_cursor(at, "id-1")) == (at, "id-1")
    with pytest.raises(BadInput):
        decode_key_cursor(encode_time_cursor(at, "id-1"))
    with pytest.raises(BadInput):
        decode_key_cursor("%%%")


def test_token_bucket_refills_at_its_rate() -> None:
    bucket = TokenBucket(capacity=2, rate=1.0)
    assert bucket.take(0.0) == 0 and bucket.take(0.0) == 0
    assert bucket.take(0.0) == pytest.approx(1.0)
    assert bucket.take(1.0) == 0


def test_rate_limiter_keeps_one_bucket_per_key() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=1, clock=lambda: now[0])
    assert limiter.take("a") == 0 and limiter.take("b") == 0
    assert limiter.take("a") > 0
    now[0] = 60.0
    assert limiter.take("a") == 0
    assert RateLimiter(per_minute=0).take("x") == 0  # 0 disables the limit


def test_key_helpers() -> None:
    assert hash_key("hg_x") == hash_key("hg_x") != hash_key("hg_y")
    assert len(hash_key("hg_x")) == 64
    assert key_from_headers({"authorization": "Bearer hg_1"}) == "hg_1"
    assert key_from_headers({"x-api-key": "hg_2"}) == "hg_2"
    assert key_from_headers({}) is None
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3") and not is_loopback(None)


def test_principal_scopes() -> None:
    p = Principal(tenant="t", agents=frozenset({"a"}))
    assert p.can_access("a") and not p.can_access("b")
    assert Principal(tenant="t", all_agents=True).can_access("b")
    assert LOCAL_ADMIN.can_access("anything")


def test_mutation_fields_counts_aliases_and_fragments_of_the_chosen_mutation() -> None:
    from graphql import parse

    from gql.rate_budget import mutation_fields

    doc = parse("""
        mutation Two { a: forget(agentId: "x", factId: "1") { factId }
                       b: forget(agentId: "x", factId: "2") { factId } __typename }
        mutation Frag { ...F ... on Mutation { c: forget(agentId: "x", factId: "3") { factId } } }
        fragment F on Mutation { d: forget(agentId: "x", factId: "4") { factId } }
        query Q { a: health { ready } b: health { ready } }
    """)
    assert mutation_fields(doc, "Two") == 2
    assert mutation_fields(doc, "Frag") == 2
    assert mutation_fields(doc, "Q") == 0  # queries cost one request, aliases or not
    assert mutation_fields(doc, None) == 0  # ambiguous: execution refuses it anyway


def test_process_share_of_a_budget() -> None:
    from server.limits import process_bucket

    assert (process_bucket(600, 4).capacity, process_bucket(600, 4).rate) == (150.0, 2.5)
    assert process_bucket(3, 10).capacity == 1.0  # at least one request per process
    limiter = RateLimiter(per_minute=6, processes=3, clock=lambda: 0.0)
    assert [limiter.take("k") for _ in range(3)][:2] == [0, 0]
    assert limiter.take("k", cost=5) > 0  # more than is left: refused, nothing taken


def test_default_workers_rule() -> None:
    from server.cli.serve import default_workers

    assert [default_workers(c) for c in (1, 2, 3, 4, 8, 64)] == [1, 2, 3, 4, 4, 4]


HISTORY_BY_VARIABLE = """query($h: Int!) { entities(agentId: "a", first: 10) {
    edges { node { history(limit: $h) { at change text } } } } }"""


async def _run(query: str, variables: dict[str, Any]) -> Any:
    return await schema.execute(query, variables, context_value=Context(no_database(), LOCAL_ADMIN))


async def test_variable_page_sizes_cost_the_value_sent() -> None:
    """``limit: $h`` costs ``$h`` (it was costed at 100 whatever was sent, so a
    500-item history under each of 10 entities passed a limit its literal twin failed)."""
    literal = HISTORY_BY_VARIABLE.replace("($h: Int!)", "").replace("$h", "500")
    res = await run(literal)
    assert res.errors[0].extensions == {"code": "BAD_INPUT", "reason": "cost"}
    res = await _run(HISTORY_BY_VARIABLE, {"h": 500})
    assert res.errors[0].extensions == {"code": "BAD_INPUT", "reason": "cost"}
    # small values pass validation (then need the absent database)
    res = await _run(HISTORY_BY_VARIABLE, {"h": 5})
    assert res.errors is None or res.errors[0].extensions.get("reason") != "cost"
    # a huge variable page is refused by its cost before any resolver runs
    res = await _run(
        'query($n: Int!) { entities(agentId: "a", first: $n) '
        "{ edges { node { key name type } } } }",
        {"n": 100_000},
    )
    assert res.errors[0].extensions == {"code": "BAD_INPUT", "reason": "cost"}


async def test_variable_defaults_count_when_not_sent() -> None:
    query = HISTORY_BY_VARIABLE.replace("$h: Int!", "$h: Int = 500")
    res = await _run(query, {})
    assert res.errors[0].extensions == {"code": "BAD_INPUT", "reason": "cost"}


def test_expensive_query_fields_are_charged_one_request_each() -> None:
    from graphql import parse

    from gql.rate_budget import charged_fields

    aliases = " ".join(f'r{i}: retrieve(agentId: "x", query: "q") {{ context }}' for i in range(30))
    doc = parse(f"""
        query Battery {{ {aliases} health {{ ready }} }}
        query Walk {{ a: neighborhood(agentId: "x", key: "k") {{ __typename }} health {{ ready }} }}
        query Cheap {{ a: health {{ ready }} b: health {{ ready }} }}
    """)
    assert charged_fields(doc, "Battery") == 30
    assert charged_fields(doc, "Walk") == 1
    assert charged_fields(doc, "Cheap") == 0


def test_a_retrieve_that_reranks_with_the_llm_costs_the_rerank_price() -> None:
    from graphql import parse

    from gql.rate_budget import charged_fields

    aliases = " ".join(f'r{i}: retrieve(agentId: "x", query: "q") {{ context }}' for i in range(30))
    off = 'retrieve(agentId: "x", query: "q", options: {enableReranker: false}) { context }'
    doc = parse(f"""
        query Battery {{ {aliases} }}
        query Off {{ a: {off} b: {off} }}
        query ByVariable($o: RetrieveOptions) {{
            retrieve(agentId: "x", query: "q", options: $o) {{ context }} }}
        mutation Forget {{ forget(agentId: "x", factId: "f") {{ __typename }} }}
    """)
    assert charged_fields(doc, "Battery", rerank_cost=5) == 150
    assert charged_fields(doc, "Off", rerank_cost=5) == 2
    assert charged_fields(doc, "ByVariable", rerank_cost=5) == 5
    assert (
        charged_fields(doc, "ByVariable", rerank_cost=5, variables={"o": {"enableReranker": False}})
        == 1
    )
    assert charged_fields(doc, "Forget", rerank_cost=5) == 1
    assert charged_fields(doc, "Battery") == 30  # no LLM: one each
