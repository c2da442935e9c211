"""The operator's webhook surface: the admin GraphQL fields (``registerWebhook``,
``webhooks``, ``webhookDeliveries``, ``removeWebhook``) refused to every other key, a private
target refused under the default settings (nothing stored), the secret shown once and never
listed; and ``hippograph webhook add|list|remove``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from gql.permissions import LOCAL_ADMIN, Principal
from graph.executor import Executor
from graph.memory.webhooks import list_webhooks
from graph.providers import HashEmbedder
from server.cli import app
from server.settings import Settings, get_settings
from tests.integration.gql.support import gql, memory_for, schema

pytestmark = pytest.mark.neo4j

REGISTER = """mutation($url: String!, $agent: ID, $tenant: String, $events: [WebhookEvent!]) {
  registerWebhook(url: $url, agent: $agent, tenant: $tenant, events: $events) {
    secret webhook { id scope agentId url events secretHint } errors { code message } } }"""
LIST = """query($agent: ID) { webhooks(agent: $agent) { id url secretHint pending } }"""
DELIVERIES = """query($id: ID) { webhookDeliveries(webhookId: $id, status: DELIVERED) { id } }"""
REMOVE = """mutation($id: ID!) { removeWebhook(id: $id) { removed deliveries errors { code } } }"""


async def test_only_admin_keys_reach_the_webhook_fields(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    memory = memory_for(executor, hash_embedder)
    user = Principal(tenant="t", agents=frozenset({agent_id}))
    for document, variables in (
        (REGISTER, {"url": "http://127.0.0.1:9/x", "agent": agent_id}),
        (LIST, {"agent": agent_id}),
        (DELIVERIES, {"id": "wh_x"}),
        (REMOVE, {"id": "wh_x"}),
    ):
        refused: Any = await gql(memory, document, variables, principal=user)
        assert refused.errors and refused.errors[0].extensions["code"] == "FORBIDDEN", document
    # A webhook's type has no field that could give its secret back.
    fields = schema._schema.type_map["Webhook"].fields  # type: ignore[union-attr]
    assert "secret" not in fields and "secretHint" in fields


async def test_a_private_target_is_refused_under_the_default_settings(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    memory = memory_for(executor, hash_embedder)  # webhook_allow_private: false
    for url in ("http://127.0.0.1:9/hooks", "http://192.168.1.10/hooks", "http://localhost:9/x"):
        out = await gql(memory, REGISTER, {"url": url, "agent": agent_id}, principal=LOCAL_ADMIN)
        payload = out.data["registerWebhook"]
        assert payload["webhook"] is None and payload["secret"] is None, url
        assert (
            payload["errors"][0]["code"] == "BAD_INPUT"
            and "private" in payload["errors"][0]["message"]
        )
    both = await gql(
        memory,
        REGISTER,
        {"url": "http://127.0.0.1:9/x", "agent": agent_id, "tenant": "t"},
        principal=LOCAL_ADMIN,
    )
    assert both.data["registerWebhook"]["errors"][0]["code"] == "BAD_INPUT"
    assert await list_webhooks(executor, agent_id=agent_id) == []  # nothing stored


async def test_the_secret_is_shown_once_and_a_webhook_can_be_removed(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    memory = memory_for(executor, hash_embedder, settings=Settings(webhook_allow_private=True))
    out = await gql(
        memory,
        REGISTER,
        {"url": "http://127.0.0.1:9/hooks", "agent": agent_id, "events": ["FACT_ADDED"]},
        principal=LOCAL_ADMIN,
    )
    payload = out.data["registerWebhook"]
    assert payload["errors"] == [] and payload["secret"].startswith("whsec_")
    hook = payload["webhook"]
    assert hook["scope"] == "AGENT" and hook["agentId"] == agent_id
    assert hook["events"] == ["FACT_ADDED"] and hook["secretHint"] == payload["secret"][-4:]
    listed = (await gql(memory, LIST, {"agent": agent_id})).data["webhooks"]
    assert listed == [
        {"id": hook["id"], "url": hook["url"], "secretHint": hook["secretHint"], "pending": 0}
    ]
    assert (await gql(memory, DELIVERIES, {"id": hook["id"]})).data["webhookDeliveries"] == []
    gone = await gql(memory, REMOVE, {"id": hook["id"]})
    assert gone.data["removeWebhook"] == {"removed": hook["id"], "deliveries": 0, "errors": []}
    again = await gql(memory, REMOVE, {"id": hook["id"]})
    assert again.data["removeWebhook"]["errors"] == [{"code": "NOT_FOUND"}]


@pytest.fixture
def fresh_settings() -> Iterator[None]:
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_the_cli_adds_lists_and_removes_and_refuses_private_targets(
    agent_id: str, fresh_settings: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    refused = runner.invoke(app, ["webhook", "add", "http://127.0.0.1:9/x", "--agent", agent_id])
    assert refused.exit_code == 2 and "private" in refused.output, refused.output
    monkeypatch.setenv("HIPPOGRAPH_WEBHOOK_ALLOW_PRIVATE", "true")
    get_settings.cache_clear()
    added = runner.invoke(
        app,
        [
            "webhook",
            "add",
            "http://127.0.0.1:9/x",
            "--agent",
            agent_id,
            "--events",
            "fact.added,job.failed",
        ],
    )
    assert added.exit_code == 0, added.output
    hook_id = added.output.split("webhook id: ")[1].split()[0]
    assert "whsec_" in added.output and "fact.added, job.failed" in added.output
    listed = runner.invoke(app, ["webhook", "list", "--agent", agent_id])
    assert hook_id in listed.output and "whsec_" not in listed.output
    removed = runner.invoke(app, ["webhook", "remove", hook_id])
    assert removed.exit_code == 0 and f"removed {hook_id}" in removed.output
    unknown = runner.invoke(
        app,
        [
            "webhook",
            "add",
            "http://127.0.0.1:9/x",
            "--agent",
            agent_id,
            "--events",
            "fact.exploded",
        ],
    )
    assert unknown.exit_code == 2 and "unknown webhook event" in unknown.output
