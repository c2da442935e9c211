"""The Python client's decisions (retry or not, after how long, which error) and its retry loop
over a scripted HTTP transport (no server: the answers a server gives under load or outage)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hippograph_client import (
    AsyncHippographClient,
    HippographClient,
    InProgress,
    NotFound,
    RateLimited,
    RetryPolicy,
    TransportError,
    Unavailable,
)
from hippograph_client.transport import Answer, Exchange, is_idempotent, read_answer, retry_delay

FAST = RetryPolicy(attempts=4, backoff=0.001, max_delay=0.01)


def coded(code: str, **ext: Any) -> dict[str, Any]:
    return {"data": None, "errors": [{"message": code, "extensions": {"code": code, **ext}}]}


def payload_error(code: str) -> dict[str, Any]:
    return {"data": {"write": {"outcome": None, "errors": [{"code": code, "message": code}]}}}


@pytest.mark.parametrize(
    ("status", "headers", "body", "idempotent", "retried"),
    [
        (429, {"Retry-After": "2"}, coded("RATE_LIMITED"), False, True),
        (503, {}, coded("UNAVAILABLE"), False, True),  # refused before anything ran
        (200, {}, coded("RATE_LIMITED", retryAfterSeconds=3), False, True),
        (200, {}, payload_error("IN_PROGRESS"), True, True),
        (200, {}, payload_error("UNAVAILABLE"), True, True),
        (200, {}, payload_error("UNAVAILABLE"), False, False),  # might have written: no retry
        (200, {}, coded("BAD_INPUT"), True, False),
        (200, {}, {"data": {"viewer": {"admin": True}}}, True, False),
    ],
)
def test_what_is_retried(
    status: int, headers: dict[str, str], body: Any, idempotent: bool, retried: bool
) -> None:
    delay = retry_delay(RetryPolicy(), 1, Answer(status, headers, body), idempotent)
    assert (delay is not None) is retried


def test_the_wait_is_the_one_asked_for_capped_and_attempts_end() -> None:
    policy = RetryPolicy(attempts=3, max_delay=10)
    asked = Answer(429, {"retry-after": "4"}, coded("RATE_LIMITED"))
    assert retry_delay(policy, 1, asked, False) == 4.0
    long = Answer(200, {}, coded("RATE_LIMITED", retryAfterSeconds=60))
    assert retry_delay(policy, 1, long, False) == 10.0
    assert retry_delay(policy, 3, asked, False) is None
    dated = Answer(429, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, None)
    assert retry_delay(policy, 1, dated, False) == 0.0  # a date in the past: retry now


def test_answers_become_data_or_typed_errors() -> None:
    assert read_answer(Answer(200, {}, {"data": {"a": 1}})) == {"a": 1}
    with pytest.raises(NotFound) as missing:
        read_answer(Answer(200, {}, coded("NOT_FOUND")))
    assert missing.value.code == "NOT_FOUND"
    with pytest.raises(InProgress) as running:
        read_answer(Answer(200, {}, payload_error("IN_PROGRESS")))
    assert running.value.data == {"write": {"outcome": None, "errors": running.value.errors}}
    with pytest.raises(TransportError):
        read_answer(Answer(502, {}, None))  # a proxy's HTML page


class Script:
    """A transport answering the scripted (status, headers, body) in turn, counting calls."""

    def __init__(self, *answers: tuple[int, dict[str, str], Any]) -> None:
        self.answers = list(answers)
        self.calls: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls.append(json.loads(request.content))
        status, headers, body = self.answers.pop(0)
        return httpx.Response(status, headers=headers, json=body)


def sync_client(script: Script) -> HippographClient:
    http = httpx.Client(transport=httpx.MockTransport(script))
    return HippographClient("http://memory.test/graphql", api_key="k", http_client=http, retry=FAST)


def test_rate_limited_query_is_retried_until_it_answers() -> None:
    script = Script(
        (429, {"Retry-After": "0"}, coded("RATE_LIMITED")),
        (503, {}, coded("UNAVAILABLE")),
        (200, {}, {"data": {"viewer": {"admin": True, "allAgents": True, "agents": []}}}),
    )
    with sync_client(script) as memory:
        assert memory.viewer().admin is True
    assert len(script.calls) == 3


def test_a_write_with_a_key_waits_for_the_first_one_to_finish() -> None:
    done = {"outcome": None, "queued": None, "errors": []}
    script = Script((200, {}, payload_error("IN_PROGRESS")), (200, {}, {"data": {"write": done}}))
    with sync_client(script) as memory:
        memory.write("a", "hello", "Ana", idempotency_key="k1")
    assert [c["variables"]["idempotencyKey"] for c in script.calls] == ["k1", "k1"]


def test_a_write_without_a_key_is_not_retried_after_it_may_have_run() -> None:
    script = Script((200, {}, payload_error("UNAVAILABLE")))
    with sync_client(script) as memory, pytest.raises(Unavailable):
        memory.write("a", "hello", "Ana")
    assert len(script.calls) == 1


async def test_the_async_client_gives_up_with_the_typed_error() -> None:
    script = Script(*[(429, {"Retry-After": "0"}, coded("RATE_LIMITED"))] * FAST.attempts)
    http = httpx.AsyncClient(transport=httpx.MockTransport(script))
    client = AsyncHippographClient("http://memory.test/graphql", http_client=http, retry=FAST)
    async with client:
        with pytest.raises(RateLimited) as limited:
            await client.viewer()
    assert len(script.calls) == FAST.attempts and limited.value.status_code == 429


WRITE = "mutation Write($agentId: ID!, $idempotencyKey: String) { write { errors { code } } }"


def test_an_exchange_sends_the_set_variables_and_counts_its_attempts() -> None:
    unset = object()
    call = Exchange(FAST, WRITE, "Write", {"agentId": "a", "idempotencyKey": unset}, unset)
    assert call.payload == {"query": WRITE, "operationName": "Write", "variables": {"agentId": "a"}}
    assert not call.idempotent  # a mutation without a key
    assert isinstance(call.answered(429, {"Retry-After": "0"}, "{}"), float)
    answer = call.answered(200, {}, '{"data": {"write": {"errors": []}}}')
    assert isinstance(answer, Answer) and answer.body == {"data": {"write": {"errors": []}}}
    assert call.attempt == 3


def test_a_lost_connection_retries_only_what_cannot_write_twice() -> None:
    request = httpx.Request("POST", "http://memory.test/graphql")
    unkeyed = Exchange(FAST, WRITE, "Write", {"agentId": "a"})
    assert isinstance(unkeyed.failed(httpx.ConnectError("refused", request=request)), float)
    with pytest.raises(TransportError, match="ReadError"):
        unkeyed.failed(httpx.ReadError("reset", request=request))  # it may have written
    keyed = Exchange(FAST, WRITE, "Write", {"agentId": "a", "idempotencyKey": "k"})
    for _ in range(FAST.attempts - 1):
        assert isinstance(keyed.failed(httpx.ReadError("reset", request=request)), float)
    with pytest.raises(TransportError):  # attempts used up
        keyed.failed(httpx.ReadError("reset", request=request))


def test_a_connection_refused_then_accepted_is_one_answer() -> None:
    calls = []

    def flaky(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(
            200, json={"data": {"viewer": {"admin": True, "allAgents": True, "agents": []}}}
        )

    http = httpx.Client(transport=httpx.MockTransport(flaky))
    with HippographClient("http://memory.test/graphql", http_client=http, retry=FAST) as memory:
        assert memory.viewer().admin is True
    assert len(calls) == 2


@pytest.mark.parametrize(
    ("query", "operation_name", "idempotent"),
    [
        ("# a note first\nmutation W { write { errors { code } } }", None, False),
        (
            "fragment E on WritePayload { errors { code } }\nmutation W { write { ...E } }",
            None,
            False,
        ),
        ('  \n,# "mutation"\n{ viewer { admin } }', None, True),
        ('query Q { fact(text: "mutation") { id } }', None, True),
        ("query Q { viewer { admin } } mutation W { write { errors { code } } }", "W", False),
        ("query Q { viewer { admin } } mutation W { write { errors { code } } }", "Q", True),
        # No name to choose by: any mutation among them may be the one that runs.
        ("query Q { viewer { admin } } mutation W { write { errors { code } } }", None, False),
        ("query Q { viewer { admin } }", "Missing", False),  # the service will refuse it
        ("mutation { unclosed", None, False),  # unreadable: never assumed safe to repeat
    ],
)
def test_a_mutation_is_known_by_its_parsed_operation(
    query: str, operation_name: str | None, idempotent: bool
) -> None:
    assert is_idempotent(query, None, operation_name) is idempotent
    assert is_idempotent(query, {"idempotencyKey": "k"}, operation_name) is True


@pytest.mark.parametrize(
    "query",
    [
        "# written by hand\nmutation W($a: ID!) { write(agentId: $a) { errors { code } } }",
        "fragment E on WritePayload { errors { code } }\n"
        "mutation W($a: ID!) { write(agentId: $a) { ...E } }",
    ],
)
def test_a_hand_written_mutation_is_not_sent_twice(query: str) -> None:
    script = Script((200, {}, payload_error("UNAVAILABLE")), (200, {}, {"data": {"write": {}}}))
    with sync_client(script) as memory:
        answer = memory.execute(query, operation_name="W", variables={"a": "x"})
    assert len(script.calls) == 1
    with pytest.raises(Unavailable):
        read_answer(answer)
