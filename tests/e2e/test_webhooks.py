"""Webhooks across a crash: an API process (a subprocess running the webhook sender) is killed
while its delivery is in flight — the receiver holds the request — and a new process delivers
it after the lease runs out, with the same delivery id; the receiver (the example receiver of
docs/examples, on loopback, which this test's settings allow) verifies the signature. Nothing
is lost."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from tests.e2e.conftest import free_port, wait_healthy
from tests.processes import api_command, stop

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "webhook_receiver", ROOT / "docs" / "examples" / "webhook_receiver.py"
)
assert _spec is not None and _spec.loader is not None
receiver_example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(receiver_example)

REGISTER = """mutation($url: String!, $agent: ID!) {
  registerWebhook(url: $url, agent: $agent, events: [FACT_ADDED]) {
    secret webhook { id } errors { code message } } }"""
REMEMBER = """mutation($agent: ID!) { remember(agentId: $agent,
  facts: [{text: "Ana Souza lives in Recife", subject: "Ana Souza"}]) { errors { message } } }"""
DELIVERIES = """query($id: ID!) { webhookDeliveries(webhookId: $id) {
  id status attempts lastStatusCode } }"""
REMOVE = """mutation($id: ID!) { removeWebhook(id: $id) { errors { code } } }"""


class HoldingReceiver(receiver_example.Receiver):  # type: ignore[name-defined,misc]
    """The example receiver; the first request is held open (the sender is killed meanwhile)
    and then dropped without an answer."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), secret="unset")
        self.RequestHandlerClass = HoldingHandler
        self.first_arrived = threading.Event()
        self.release = threading.Event()
        self.attempts: list[dict[str, str]] = []

    def handle_event(self, event: dict[str, Any]) -> None:
        return


class HoldingHandler(receiver_example.Handler):  # type: ignore[name-defined,misc]
    def do_POST(self) -> None:
        self.server.attempts.append(dict(self.headers))
        if not self.server.first_arrived.is_set():
            self.server.first_arrived.set()
            self.server.release.wait(120)
            self.close_connection = True  # never answered: its sender is gone
            return
        super().do_POST()


@pytest.fixture
def receiver() -> Iterator[HoldingReceiver]:
    server = HoldingReceiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
async def agent(executor: Executor) -> AsyncIterator[str]:
    name = f"webhook-drill-{uuid.uuid4().hex[:8]}"
    yield name
    await delete_agent(executor, name)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPPOGRAPH_LLM")}
    env.update(
        {
            "HIPPOGRAPH_AUTH_DISABLED": "true",  # loopback: the local operator is an admin
            "HIPPOGRAPH_WORKER_ENABLED": "false",  # no job worker on the shared test database
            "HIPPOGRAPH_WEBHOOK_SENDER": "true",
            "HIPPOGRAPH_WEBHOOK_ALLOW_PRIVATE": "true",  # the receiver is on loopback
            "HIPPOGRAPH_WEBHOOK_POLL_S": "0.2",
            "HIPPOGRAPH_WEBHOOK_LEASE_S": "4",
            "HIPPOGRAPH_WEBHOOK_TIMEOUT_S": "60",
        }
    )
    return env


def _start(port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(api_command(port), env=_env(), cwd=ROOT)
    wait_healthy(f"http://127.0.0.1:{port}", proc, timeout_s=120)
    return proc


def _gql(port: int, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    reply = httpx.post(
        f"http://127.0.0.1:{port}/graphql",
        json={"query": query, "variables": variables},
        timeout=30,
    )
    body: dict[str, Any] = reply.json()
    assert "errors" not in body, body
    return dict(body["data"])


def _wait(check: Any, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_a_delivery_in_flight_when_the_api_is_killed_is_delivered_after_restart(
    receiver: HoldingReceiver, agent: str
) -> None:
    port = free_port()
    first = _start(port)
    hook_id = None
    second = None
    try:
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hooks"
        registered = _gql(port, REGISTER, {"url": url, "agent": agent})["registerWebhook"]
        assert registered["errors"] == [], registered
        hook_id, receiver.secret = registered["webhook"]["id"], registered["secret"]
        assert _gql(port, REMEMBER, {"agent": agent})["remember"]["errors"] == []
        assert receiver.first_arrived.wait(60), "the first attempt never arrived"
        first.kill()  # mid-delivery: the receiver still holds the request
        first.wait(30)
        receiver.release.set()
        second = _start(port)
        _wait(lambda: receiver.events, 60, "the delivery was not retried after the restart")
        (delivered,) = receiver.events.values()
        assert delivered["data"]["text"] == "Ana Souza lives in Recife"
        ids = [a["Hippograph-Delivery"] for a in receiver.attempts]
        assert len(set(ids)) == 1 and [a["Hippograph-Attempt"] for a in receiver.attempts] == [
            "1",
            "2",
        ]
        assert receiver.refused == 0  # every attempt signed with the webhook's secret
        _wait(
            lambda: (
                _gql(port, DELIVERIES, {"id": hook_id})["webhookDeliveries"][0]["status"]
                == "DELIVERED"
            ),
            30,
            "the delivery is not recorded as delivered",
        )
        (row,) = _gql(port, DELIVERIES, {"id": hook_id})["webhookDeliveries"]
        assert row["attempts"] == 2 and row["lastStatusCode"] == 200 and row["id"] == ids[0]
    finally:
        if hook_id and second is not None:
            _gql(port, REMOVE, {"id": hook_id})
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                stop(proc)
