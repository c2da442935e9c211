"""The Neo4j Browser style sheet's access and cache, over a scripted store (no Neo4j): without a
key only the built-in types and nothing read; an admin key every stored ontology, read once
per scope and kept a short while; a wrong key refused; the cache bounded."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx
from starlette.applications import Starlette

from gql.permissions import Principal
from server.browser_guide import STYLE_PATH, browser_guide_routes
from server.browser_style import EVERY, PUBLIC, StyleLabels, StyleScope
from server.settings import Settings

ADMIN = "a" * 40
STORED = {"name": "secret", "entity_types": ["submarine_project"], "relation_types": []}


class ScriptedStore:
    """An executor answering every stored-documents read with one ontology; keeps the reads."""

    def __init__(self) -> None:
        self.reads: list[tuple[str, dict[str, Any] | None]] = []

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.reads.append((name, params))
        return [{"document": json.dumps(STORED)}]


class Keys:
    """An ``ApiKeyStore`` stand-in: one tenant key."""

    async def resolve(self, key: str) -> Principal | None:
        if key == "hg_tenant":
            return Principal(tenant="acme", agents=frozenset({"a1"}), key_id="k1")
        return None


def style_app(settings: Settings) -> tuple[Starlette, ScriptedStore]:
    store = ScriptedStore()
    app = Starlette(routes=browser_guide_routes(settings))
    app.state.memory = SimpleNamespace(executor=store)
    app.state.key_store = Keys()
    return app, store


async def fetch(app: Starlette, headers: dict[str, str] | None = None) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return await client.get(STYLE_PATH, headers=headers or {})


async def test_without_a_key_the_style_has_the_built_in_types_and_reads_nothing() -> None:
    app, store = style_app(Settings(auth_disabled=False))
    answer = await fetch(app)
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == "*"
    assert "node.Person {" in answer.text
    assert "SubmarineProject" not in answer.text
    assert store.reads == []


async def test_a_tenant_key_reads_its_tenants_ontologies_only() -> None:
    app, store = style_app(Settings(auth_disabled=False))
    answer = await fetch(app, {"X-API-Key": "hg_tenant"})
    assert answer.status_code == 200 and "node.SubmarineProject {" in answer.text
    assert store.reads == [("ontology/tenant_documents", {"tenant": "acme", "agents": ["a1"]})]
    assert "private" in answer.headers["cache-control"]


async def test_the_admin_key_reads_every_ontology_once_per_scope_while_kept() -> None:
    app, store = style_app(Settings(auth_disabled=False, admin_api_key=ADMIN))
    for _ in range(3):
        answer = await fetch(app, {"Authorization": f"Bearer {ADMIN}"})
        assert answer.status_code == 200 and "node.SubmarineProject {" in answer.text
    assert store.reads == [("ontology/stored_documents", None)]


async def test_a_wrong_key_is_refused_and_reads_nothing() -> None:
    app, store = style_app(Settings(auth_disabled=False, admin_api_key=ADMIN))
    answer = await fetch(app, {"Authorization": "Bearer hg_wrong"})
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert store.reads == []


async def test_with_auth_off_the_local_operator_sees_every_ontology() -> None:
    app, store = style_app(Settings(auth_disabled=True))
    assert "node.SubmarineProject {" in (await fetch(app)).text
    assert [name for name, _ in store.reads] == ["ontology/stored_documents"]


async def test_the_cache_expires_and_is_bounded() -> None:
    now = [0.0]
    store = ScriptedStore()
    cache = StyleLabels(ttl_s=10, max_scopes=2, clock=lambda: now[0])
    tenants = [StyleScope(tenant=f"t{i}") for i in range(3)]
    await cache.get(store, EVERY)
    await cache.get(store, EVERY)
    assert len(store.reads) == 1
    now[0] = 11.0
    await cache.get(store, EVERY)
    assert len(store.reads) == 2
    for scope in tenants:
        await cache.get(store, scope)
    assert len(cache._kept) == 2 and EVERY not in cache._kept
    await cache.get(store, PUBLIC)
    assert len(store.reads) == 5  # the public style never reads
