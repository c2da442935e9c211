"""The HTTP surface: authentication, rate limit, body/query limits, masking, UNAVAILABLE,
GraphiQL. In-process app over the real Neo4j (httpx ASGI transport)."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from graph.errors import GraphUnavailable
from graph.executor import Executor
from graph.memory.read import Retriever
from graph.providers import HashEmbedder
from server.app import create_app
from server.auth import ApiKeyStore
from server.limits import AuthFailureLimiter
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import http_client, memory_for

pytestmark = pytest.mark.neo4j

HEALTH = {"query": "{ health { ready llmMode embedder } }"}


class ExplodingRetriever(Retriever):
    """A retriever failing like a driver bug would (message must never reach the client)."""

    def __init__(self, executor: Executor, embedder: HashEmbedder, exc: Exception) -> None:
        super().__init__(executor, embedder)
        self.exc = exc

    async def retrieve(self, *args: Any, **kwargs: Any) -> Any:
        raise self.exc


@pytest.fixture
async def keys(executor: Executor, agent_id: str) -> AsyncIterator[dict[str, Any]]:
    tenant = f"tenant-{uuid.uuid4().hex[:8]}"
    store = ApiKeyStore(executor)
    key_id, key = await store.create(tenant, [agent_id])
    yield {"store": store, "id": key_id, "key": key, "tenant": tenant}
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


def _app(executor: Executor, embedder: HashEmbedder, **settings: Any) -> Any:
    base: dict[str, Any] = {"auth_disabled": False, "rate_limit_per_minute": 0}
    retriever = settings.pop("retriever", None)
    memory = memory_for(executor, embedder)
    if retriever is not None:
        memory = dataclasses.replace(memory, retriever=retriever)
    return create_app(Settings(**{**base, **settings}), memory=memory)


async def test_keys_bearer_header_x_api_key_and_revocation(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any]
) -> None:
    async with http_client(_app(executor, hash_embedder)) as client:
        missing = await client.post("/graphql", json=HEALTH)
        assert missing.status_code == 401
        assert missing.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"
        wrong = await client.post("/graphql", json=HEALTH, headers={"X-API-Key": "hg_nope"})
        assert wrong.status_code == 401
        ok = await client.post(
            "/graphql", json=HEALTH, headers={"Authorization": f"Bearer {keys['key']}"}
        )
        assert ok.status_code == 200 and ok.json()["data"]["health"]["llmMode"] == "offline"
        ok2 = await client.post("/graphql", json=HEALTH, headers={"X-API-Key": keys["key"]})
        assert ok2.status_code == 200
        await keys["store"].revoke(keys["id"])
        # The app's own store caches for 30 s; a fresh app sees the revocation at once.
    async with http_client(_app(executor, hash_embedder)) as client:
        revoked = await client.post("/graphql", json=HEALTH, headers={"X-API-Key": keys["key"]})
        assert revoked.status_code == 401
    listed = await keys["store"].list(keys["tenant"])
    assert [k.id for k in listed] == [keys["id"]] and listed[0].revoked_at is not None


async def test_admin_key_from_settings_reaches_any_agent(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    admin = "hg_admin_test_secret_" + "x" * 32
    app = _app(executor, hash_embedder, admin_api_key=admin)
    async with http_client(app) as client:
        res = await client.post(
            "/graphql",
            headers={"Authorization": f"Bearer {admin}"},
            json={"query": '{ entities(agentId: "any-agent-at-all") { totalCount } }'},
        )
        assert res.json() == {"data": {"entities": {"totalCount": 0}}}


async def test_rate_limit_is_per_key(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any]
) -> None:
    app = _app(executor, hash_embedder, rate_limit_per_minute=3)
    headers = {"X-API-Key": keys["key"]}
    async with http_client(app) as client:
        codes = [
            (await client.post("/graphql", json=HEALTH, headers=headers)).status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        limited = await client.post("/graphql", json=HEALTH, headers=headers)
        assert limited.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        assert int(limited.headers["retry-after"]) >= 1


def _forgets(agent_id: str, n: int) -> dict[str, Any]:
    """One mutation operation with ``n`` aliased ``forget`` fields (unknown facts: cheap)."""
    fields = " ".join(
        f'f{i}: forget(agentId: "{agent_id}", factId: "nope-{i}") {{ factId }}' for i in range(n)
    )
    return {"query": f"mutation {{ {fields} }}"}


async def test_aliased_mutations_each_take_a_rate_token(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any], agent_id: str
) -> None:
    app = _app(executor, hash_embedder, rate_limit_per_minute=4)
    headers = {"X-API-Key": keys["key"]}
    async with http_client(app) as client:
        three = await client.post("/graphql", json=_forgets(agent_id, 3), headers=headers)
        assert three.status_code == 200 and "f2" in (three.json()["data"] or {})
        assert (await client.post("/graphql", json=HEALTH, headers=headers)).status_code == 200
        # 3 + 1 of 4 spent: the next request is refused.
        assert (await client.post("/graphql", json=HEALTH, headers=headers)).status_code == 429
    async with http_client(_app(executor, hash_embedder, rate_limit_per_minute=4)) as client:
        # More aliased mutations than the budget left: the whole operation is refused, typed.
        over = await client.post("/graphql", json=_forgets(agent_id, 6), headers=headers)
        body = over.json()
        assert body["data"] is None
        assert body["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        assert body["errors"][0]["extensions"]["retryAfterSeconds"] >= 1
        # Queries with aliases are one request, as before.
        many = {"query": " ".join(["{", *(f"h{i}: health {{ ready }}" for i in range(3)), "}"])}
        assert (await client.post("/graphql", json=many, headers=headers)).status_code == 200


async def test_an_alias_battery_of_retrieves_costs_one_request_each(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any], agent_id: str
) -> None:
    """30 aliased retrieves (each a whole retrieval, and an LLM rerank when configured) take 30
    requests of the budget: over it, the operation is refused whole before any retrieval."""
    battery = " ".join(
        f'r{i}: retrieve(agentId: "{agent_id}", query: "q{i}") {{ context }}' for i in range(30)
    )
    headers = {"X-API-Key": keys["key"]}
    async with http_client(_app(executor, hash_embedder, rate_limit_per_minute=10)) as client:
        body = (
            await client.post("/graphql", json={"query": f"{{ {battery} }}"}, headers=headers)
        ).json()
        assert body["data"] is None
        assert body["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        two = " ".join(
            f'r{i}: retrieve(agentId: "{agent_id}", query: "q") {{ context }}' for i in range(2)
        )
        ok = (await client.post("/graphql", json={"query": f"{{ {two} }}"}, headers=headers)).json()
        assert "errors" not in ok and set(ok["data"]) == {"r0", "r1"}


async def test_a_reranked_retrieve_costs_the_rerank_price(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any], agent_id: str
) -> None:
    """With an LLM configured, each retrieve that reranks takes ``rerank_rate_cost`` (5)
    requests of the budget; one that turns the reranker off takes one."""
    from tests.fakes import ScriptedLLM

    memory = memory_for(executor, hash_embedder, llm=ScriptedLLM().chat())
    app = create_app(
        Settings(auth_disabled=False, rate_limit_per_minute=8, rerank_rate_cost=5), memory=memory
    )
    two = " ".join(
        f'r{i}: retrieve(agentId: "{agent_id}", query: "q{i}") {{ context }}' for i in range(2)
    )
    off = " ".join(
        f'r{i}: retrieve(agentId: "{agent_id}", query: "q{i}", '
        f"options: {{enableReranker: false}}) {{ context }}"
        for i in range(2)
    )
    headers = {"X-API-Key": keys["key"]}
    async with http_client(app) as client:
        body = (
            await client.post("/graphql", json={"query": f"{{ {two} }}"}, headers=headers)
        ).json()
        assert body["data"] is None
        assert body["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        ok = (await client.post("/graphql", json={"query": f"{{ {off} }}"}, headers=headers)).json()
        assert "errors" not in ok and set(ok["data"]) == {"r0", "r1"}


async def test_rate_budgets_are_divided_between_api_processes(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any]
) -> None:
    # 6 per minute over 2 processes: each process grants 3, so the cluster grants at most 6.
    app = _app(
        executor,
        hash_embedder,
        rate_limit_per_minute=6,
        api_processes=2,
        auth_failures_per_minute=4,
    )
    headers = {"X-API-Key": keys["key"]}
    async with http_client(app) as client:
        codes = [
            (await client.post("/graphql", json=HEALTH, headers=headers)).status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        guesses = [
            (await client.post("/graphql", json=HEALTH, headers={"X-API-Key": "hg_g"})).status_code
            for _ in range(3)
        ]
        assert guesses == [401, 401, 429]


async def test_failed_authentications_lock_out_the_presented_key_at_its_address(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any]
) -> None:
    """A client retrying a wrong key is locked out alone: clients behind the same address (one
    proxy) with their own keys are served; many different wrong keys from one address hit the
    address-wide budget."""
    app = _app(
        executor, hash_embedder, auth_failures_per_minute=3, auth_failures_per_address_per_minute=6
    )
    guess = {"X-API-Key": "hg_guess"}
    async with http_client(app) as client:  # client address 127.0.0.1
        codes = [
            (await client.post("/graphql", json=HEALTH, headers=guess)).status_code
            for _ in range(4)
        ]
        assert codes == [401, 401, 401, 429]
        locked = await client.post("/graphql", json=HEALTH, headers=guess)
        assert locked.json()["errors"][0]["extensions"]["code"] == "RATE_LIMITED"
        assert int(locked.headers["retry-after"]) >= 1
        ok = await client.post("/graphql", json=HEALTH, headers={"X-API-Key": keys["key"]})
        assert ok.status_code == 200  # same address, another key: not locked out
        other = await client.post("/graphql", json=HEALTH, headers={"X-API-Key": "hg_other"})
        assert other.status_code == 401  # another wrong key has its own budget
        # Missing keys are not guesses: they do not count.
        for _ in range(5):
            assert (await client.post("/graphql", json=HEALTH)).status_code == 401
        # A spray of different wrong keys: 4 failures so far, the address-wide budget is 6.
        spray = [
            (
                await client.post("/graphql", json=HEALTH, headers={"X-API-Key": f"hg_spray{i}"})
            ).status_code
            for i in range(3)
        ]
        assert spray == [401, 401, 429]
        assert (
            await client.post("/graphql", json=HEALTH, headers={"X-API-Key": keys["key"]})
        ).status_code == 429


async def test_a_trusted_proxy_forwards_the_client_address(
    executor: Executor, hash_embedder: HashEmbedder, keys: dict[str, Any]
) -> None:
    """Behind a proxy listed in ``trusted_proxies``, the address is the client's (the right-most
    X-Forwarded-For entry the proxy did not add): one client's spray does not lock out the
    others. From any other peer, X-Forwarded-For is ignored (it cannot dodge the budget)."""
    app = _app(
        executor,
        hash_embedder,
        auth_failures_per_minute=2,
        auth_failures_per_address_per_minute=2,
        trusted_proxies="10.0.0.0/8",
    )

    def via(client_ip: str, key: str) -> dict[str, str]:
        return {"X-API-Key": key, "X-Forwarded-For": f"{client_ip}, 10.9.9.9"}

    async with http_client(app) as direct:  # 127.0.0.1: not a trusted proxy
        transport = httpx.ASGITransport(app=app, client=("10.1.2.3", 4444))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as proxy:
            codes = [
                (
                    await proxy.post(
                        "/graphql", json=HEALTH, headers=via("203.0.113.5", f"hg_spray{i}")
                    )
                ).status_code
                for i in range(3)
            ]
            assert codes == [401, 401, 429]
            served = await proxy.post(
                "/graphql", json=HEALTH, headers=via("203.0.113.6", keys["key"])
            )
            assert served.status_code == 200
        codes = [
            (
                await direct.post(
                    "/graphql",
                    json=HEALTH,
                    headers={"X-API-Key": f"hg_spray{i}", "X-Forwarded-For": f"198.51.100.{i}"},
                )
            ).status_code
            for i in range(3)
        ]
        assert codes == [401, 401, 429]


def test_auth_failure_memory_is_bounded() -> None:
    limiter = AuthFailureLimiter(1, max_addresses=100)
    for i in range(1_000):
        limiter.failed(f"10.0.{i // 256}.{i % 256}")
    assert len(limiter.buckets) == 100
    assert limiter.wait("10.0.3.231") > 0 and limiter.wait("10.0.0.1") == 0  # oldest forgotten


async def test_document_limits_refuse_quickly_with_typed_errors(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    app = _app(
        executor, hash_embedder, auth_disabled=True, max_body_bytes=100_000, max_query_cost=5_000
    )
    async with http_client(app) as client:
        deep = "{ health { ready } }"
        depth50 = "{" + "a {" * 50 + "b" + "}" * 51
        res = (await client.post("/graphql", json={"query": depth50})).json()
        assert res["errors"][0]["extensions"]["code"] == "BAD_INPUT"
        big = "{ health { ready } }" + " " * 1_000_000
        too_big = await client.post("/graphql", json={"query": big})
        assert too_big.status_code == 413
        assert too_big.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"
        long_query = "{ health { ready } }" + "#" * 50_000
        res = (await client.post("/graphql", json={"query": long_query})).json()
        assert res["errors"][0]["extensions"] == {"code": "BAD_INPUT", "reason": "size"}
        aliases = "{ " + " ".join(f"h{i}: health {{ ready }}" for i in range(40)) + " }"
        res = (await client.post("/graphql", json={"query": aliases})).json()
        assert res["errors"][0]["extensions"]["code"] == "BAD_INPUT"
        costly = (
            '{ entities(agentId: "a", first: 100) { edges { node { facts(limit: 100) '
            "{ id } relationships { id } } } } }"
        )
        res = (await client.post("/graphql", json={"query": costly})).json()
        assert res["errors"][0]["extensions"] == {"code": "BAD_INPUT", "reason": "cost"}
        ok = (await client.post("/graphql", json={"query": deep})).json()
        assert "errors" not in ok


async def test_introspection_toggle(executor: Executor, hash_embedder: HashEmbedder) -> None:
    query = {"query": "{ __schema { queryType { name } } }"}
    async with http_client(_app(executor, hash_embedder, auth_disabled=True)) as client:
        assert (await client.post("/graphql", json=query)).json()["data"]["__schema"]
    app = _app(executor, hash_embedder, auth_disabled=True, introspection=False)
    async with http_client(app) as client:
        res = (await client.post("/graphql", json=query)).json()
        assert res["errors"][0]["extensions"]["code"] == "BAD_INPUT"


async def test_internal_errors_are_masked_and_unavailable_is_typed(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    query = {"query": '{ retrieve(agentId: "a", query: "hi") { context } }'}
    secret = RuntimeError("Neo.ClientError.Statement.SyntaxError: MATCH (n) secret")
    exploding = ExplodingRetriever(executor, hash_embedder, secret)
    app = _app(executor, hash_embedder, auth_disabled=True, retriever=exploding)
    async with http_client(app) as client:
        res = await client.post("/graphql", json=query)
        text = res.text
        assert "secret" not in text and "Traceback" not in text and "MATCH" not in text
        assert res.json()["errors"][0] == {
            "message": "Internal error.",
            "locations": [{"line": 1, "column": 3}],
            "path": ["retrieve"],
            "extensions": {"code": "INTERNAL"},
        }
    down = ExplodingRetriever(executor, hash_embedder, GraphUnavailable("bolt://10.0.0.1 refused"))
    app = _app(executor, hash_embedder, auth_disabled=True, retriever=down)
    async with http_client(app) as client:
        err = (await client.post("/graphql", json=query)).json()["errors"][0]
        assert err["extensions"] == {"code": "UNAVAILABLE", "retryAfterSeconds": 5}
        assert "10.0.0.1" not in err["message"]


async def test_graphiql_page_has_example_tabs(
    executor: Executor, hash_embedder: HashEmbedder
) -> None:
    async with http_client(_app(executor, hash_embedder)) as client:
        page = await client.get("/graphql", headers={"Accept": "text/html"})
        assert page.status_code == 200
        assert "Hippograph GraphiQL" in page.text and "DEFAULT_TABS" in page.text
        for op in ("mutation Write", "query Retrieve", "query EntityGraph"):
            assert op in page.text


def test_auth_can_be_disabled_only_on_loopback() -> None:
    with pytest.raises(RuntimeError, match="loopback"):
        create_app(Settings(auth_disabled=True, api_host="0.0.0.0"))
    create_app(Settings(auth_disabled=True, api_host="127.0.0.1"))
