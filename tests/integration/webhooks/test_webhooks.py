"""Webhooks on the real Neo4j, delivered to a local receiver (the example receiver of
docs/examples, on loopback, which the tests' settings allow): memory events arrive signed, in
order, once per delivery id; failed attempts back off and end dead-lettered while the lane moves
on; a job's end and a write that extracted nothing are events too; targets that resolve to a
private address are refused at registration and not contacted at delivery; an erase scrubs
the text of queued deliveries."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.erase import erase_fact
from graph.memory.facade import Memory
from graph.memory.jobs import JobSpec, WebhookConfig, Worker
from graph.memory.remember import remember
from graph.memory.webhooks import (
    TargetRefused,
    WebhookSender,
    dispatch,
    list_deliveries,
    register_webhook,
    remove_webhook,
)
from graph.memory.write import StructuredFact
from graph.providers import HashEmbedder
from server.composition import default_handlers
from tests.integration.gql.support import memory_for

pytestmark = pytest.mark.neo4j

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "webhook_receiver.py"
FAST = WebhookConfig(
    poll_s=0.05, backoff_base_s=0.05, backoff_cap_s=0.2, lease_s=5, timeout_s=5, lookback_s=5
)
ALLOWED = replace(FAST, allow_private=True)


def load_receiver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("webhook_receiver", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


receiver_example = load_receiver()


class Receiver(receiver_example.Receiver):  # type: ignore[name-defined,misc]
    """The example receiver, quiet, answering ``fail_first`` requests with 500 first."""

    def __init__(self, address: tuple[str, int], secret: str) -> None:
        super().__init__(address, secret)
        self.fail_first = 0
        self.requests: list[dict[str, str]] = []

    def handle_event(self, event: dict[str, Any]) -> None:
        return


class Handler(receiver_example.Handler):  # type: ignore[name-defined,misc]
    def do_POST(self) -> None:
        self.server.requests.append(dict(self.headers))
        if self.server.fail_first > 0:
            self.server.fail_first -= 1
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self._answer(500)
            return
        super().do_POST()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver(("127.0.0.1", 0), secret="unset")
    server.RequestHandlerClass = Handler
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def url_of(server: ThreadingHTTPServer, host: str = "127.0.0.1") -> str:
    return f"http://{host}:{server.server_address[1]}/hooks"


async def until(sender: WebhookSender, done: Any, timeout_s: float = 20) -> None:
    """Run the sender's rounds (dispatch, then send what is due) until ``done()``."""
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, "the deliveries did not arrive in time"
        await dispatch(sender.executor, sender.config)
        await sender.send_due()
        await asyncio.sleep(0.05)


async def _facts(executor: Executor, embedder: HashEmbedder, agent: str, *texts: str) -> list[str]:
    done = await remember(
        executor,
        embedder,
        agent,
        facts=[StructuredFact(text=t, subject="Ana Souza") for t in texts],
    )
    return done.fact_ids


async def test_private_targets_are_refused_unless_the_operator_allows_them(
    executor: Executor, agent_id: str
) -> None:
    for url in (
        "http://127.0.0.1:9/hooks",
        "http://10.1.2.3/hooks",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]:9/hooks",
        "http://[::ffff:192.168.0.1]/hooks",
    ):
        with pytest.raises(TargetRefused, match="private"):
            await register_webhook(executor, url, agent_id=agent_id)
    for url in ("ftp://example.com/x", "http://user:pw@example.com/x"):
        with pytest.raises(TargetRefused):
            await register_webhook(executor, url, agent_id=agent_id, allow_private=True)
    allowed = await register_webhook(
        executor, "http://127.0.0.1:9/hooks", agent_id=agent_id, allow_private=True
    )
    assert (
        allowed.secret.startswith("whsec_") and allowed.webhook.secret_hint == allowed.secret[-4:]
    )
    assert await remove_webhook(executor, allowed.webhook.id) == 0


async def test_memory_events_arrive_signed_in_order_once(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder, receiver: Receiver
) -> None:
    memory: Memory = memory_for(executor, hash_embedder)
    hook = await register_webhook(executor, url_of(receiver), agent_id=agent_id, allow_private=True)
    receiver.secret = hook.secret
    try:
        first, second = await _facts(
            executor, hash_embedder, agent_id, "Ana Souza lives in Recife", "Ana Souza plays chess"
        )
        await memory.admin.forget(agent_id, first, reason="moved")
        sender = WebhookSender(executor, ALLOWED)
        await until(sender, lambda: len(receiver.events) >= 3)
        await until(sender, lambda: True)  # one more round: nothing is sent twice
        events = list(receiver.events.values())
        assert [e["type"] for e in events] == ["fact.added", "fact.added", "fact.forgotten"]
        assert {events[0]["data"]["fact_id"], events[1]["data"]["fact_id"]} == {first, second}
        assert events[0]["data"]["text"] in ("Ana Souza lives in Recife", "Ana Souza plays chess")
        assert events[2]["data"]["fact_id"] == first and "text" not in events[2]["data"]
        assert all(e["agent_id"] == agent_id and e["webhook_id"] == hook.webhook.id for e in events)
        assert len(receiver.requests) == 3 and receiver.refused == 0
        for headers in receiver.requests:
            assert headers["Hippograph-Signature"].startswith("t=")
            assert headers["Hippograph-Delivery"].startswith("whd_")
        # The example receiver refuses what it cannot verify: another secret, an old stamp.
        body = json.dumps(events[0]).encode()
        assert not receiver_example.verify(
            "whsec_other", receiver.requests[0]["Hippograph-Signature"], body
        )
        delivered = await list_deliveries(executor, webhook_id=hook.webhook.id)
        assert [d.status for d in delivered] == ["delivered"] * 3
        assert all(d.attempts == 1 and d.last_code == 200 for d in delivered)
    finally:
        await remove_webhook(executor, hook.webhook.id)


async def test_failures_back_off_then_dead_letter_and_the_lane_moves_on(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder, receiver: Receiver
) -> None:
    hook = await register_webhook(
        executor, url_of(receiver), agent_id=agent_id, events=["fact.added"], allow_private=True
    )
    receiver.secret = hook.secret
    receiver.fail_first = 2  # the first delivery's two attempts fail
    config = replace(ALLOWED, max_attempts=2)
    try:
        await _facts(executor, hash_embedder, agent_id, "Ana Souza lives in Recife")
        await _facts(executor, hash_embedder, agent_id, "Ana Souza plays chess")
        sender = WebhookSender(executor, config)
        await until(sender, lambda: len(receiver.events) >= 1)
        # The second delivery waited for the first: it was sent only after the first was dead.
        assert len(receiver.requests) == 3
        assert [r["Hippograph-Attempt"] for r in receiver.requests] == ["1", "2", "1"]
        first_id = receiver.requests[0]["Hippograph-Delivery"]
        assert receiver.requests[1]["Hippograph-Delivery"] == first_id
        assert receiver.requests[2]["Hippograph-Delivery"] != first_id
        dead = await list_deliveries(executor, webhook_id=hook.webhook.id, statuses=["dead"])
        assert [(d.id, d.attempts, d.last_code) for d in dead] == [(first_id, 2, 500)]
        assert [e["data"]["text"] for e in receiver.events.values()] == ["Ana Souza plays chess"]
    finally:
        await remove_webhook(executor, hook.webhook.id)


async def test_a_finished_job_and_a_write_that_extracted_nothing_are_events(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder, receiver: Receiver
) -> None:
    memory = memory_for(executor, hash_embedder)
    hook = await register_webhook(
        executor,
        url_of(receiver),
        agent_id=agent_id,
        events=["job.done", "write.nothing_extracted"],
        allow_private=True,
    )
    receiver.secret = hook.secret
    try:
        written = await memory.writer.write(agent_id, "Hmm, okay then.", "Ana")
        assert written.event_id and not written.facts_added
        await memory.queue.enqueue(JobSpec(kind="importance", agent_id=agent_id))
        worker = Worker(memory.job_deps(), default_handlers(), agent_id=agent_id)
        assert await worker.run_until_idle() == 1
        sender = WebhookSender(executor, ALLOWED)
        await until(sender, lambda: len(receiver.events) >= 2)
        by_type = {e["type"]: e["data"] for e in receiver.events.values()}
        assert by_type["write.nothing_extracted"]["event_id"] == written.event_id
        assert by_type["job.done"]["kind"] == "importance"
    finally:
        await remove_webhook(executor, hook.webhook.id)


async def test_a_host_that_resolves_to_a_private_address_at_delivery_is_not_contacted(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder, receiver: Receiver
) -> None:
    """DNS rebinding: public when registered, loopback (our receiver) when delivered."""
    answers = {"now": "93.184.216.34"}

    async def resolver(host: str, port: int) -> list[str]:
        assert host == "hooks.example.test"
        return [answers["now"]]

    hook = await register_webhook(
        executor, url_of(receiver, "hooks.example.test"), agent_id=agent_id, resolver=resolver
    )
    answers["now"] = "127.0.0.1"
    try:
        await _facts(executor, hash_embedder, agent_id, "Ana Souza lives in Recife")
        sender = WebhookSender(executor, FAST, resolver=resolver)
        for _ in range(3):
            await dispatch(executor, FAST)
            await sender.send_due()
        assert receiver.requests == []  # never contacted
        (delivery,) = await list_deliveries(executor, webhook_id=hook.webhook.id)
        assert delivery.status in ("pending", "dead") and delivery.attempts >= 1
        assert "private" in (delivery.last_error or "") and sender.stats["refused"] >= 1
    finally:
        await remove_webhook(executor, hook.webhook.id)


async def test_erasing_a_fact_scrubs_its_text_from_queued_deliveries(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder, receiver: Receiver
) -> None:
    marker = f"Ana Souza keeps a diary called {uuid.uuid4().hex[:8]}"
    hook = await register_webhook(
        executor, url_of(receiver), agent_id=agent_id, events=["fact.added"], allow_private=True
    )
    receiver.secret = hook.secret
    try:
        (fact_id,) = await _facts(executor, hash_embedder, agent_id, marker)
        assert await dispatch(executor, ALLOWED) == 1  # queued, not sent yet
        report = await erase_fact(executor, agent_id, fact_id)
        assert report.webhook_deliveries == 1
        sender = WebhookSender(executor, ALLOWED)
        await until(sender, lambda: len(receiver.events) >= 1)
        (event,) = receiver.events.values()
        assert event["data"]["fact_id"] == fact_id and "text" not in event["data"]
    finally:
        await remove_webhook(executor, hook.webhook.id)
