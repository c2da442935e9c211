"""The pure parts of webhooks: the signature (and the example receiver's check of it), the
events read from source rows, which webhook gets which delivery, what an answer means."""

from __future__ import annotations

import importlib.util
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graph.memory.webhooks.dispatch import Hook, lane_key, plan_deliveries, targets_of
from graph.memory.webhooks.events import (
    EVENT_TYPES,
    delivery_body,
    delivery_id,
    event_from_row,
    source_filter,
)
from graph.memory.webhooks.sender import outcome_of
from graph.memory.webhooks.signing import REPLAY_WINDOW_S, sign, signature_header, verify

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "webhook_receiver.py"
AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _example() -> object:
    spec = importlib.util.spec_from_file_location("webhook_receiver", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_signature_verifies_within_the_replay_window_only() -> None:
    body = b'{"id":"whd_1"}'
    header = signature_header("whsec_a", 1_700_000_000, body)
    assert header == f"t=1700000000,v1={sign('whsec_a', 1_700_000_000, body)}"
    receiver = _example()
    for check in (verify, receiver.verify):  # type: ignore[attr-defined]
        assert check("whsec_a", header, body, now=1_700_000_000 + REPLAY_WINDOW_S)
        assert not check("whsec_a", header, body, now=1_700_000_000 + REPLAY_WINDOW_S + 1)
        assert not check("whsec_b", header, body, now=1_700_000_000)
        assert not check("whsec_a", header, body + b" ", now=1_700_000_000)
        assert not check("whsec_a", "v1=" + header.split("v1=")[1], body, now=1_700_000_000)
        assert not check("whsec_a", "t=abc,v1=00", body, now=1_700_000_000)
    rotated = f"{header},v1={'0' * 64}"  # several v1 values: any may match
    assert verify("whsec_a", rotated, body, now=1_700_000_000)


def test_audit_rows_become_events_with_text_only_for_added_and_updated_facts() -> None:
    base = {"agent_id": "a", "source": "audit", "at": AT, "event_id": "ev1"}
    added = event_from_row({**base, "id": "au1", "action": "ADD", "fact_id": "f1", "text": "T"})
    assert added is not None and added.type == "fact.added" and added.text == "T"
    assert added.data == {"audit_id": "au1", "fact_id": "f1", "event_id": "ev1"}
    updated = event_from_row(
        {**base, "id": "au2", "action": "UPDATE", "fact_id": "f2", "target_id": "f1", "text": "U"}
    )
    assert updated is not None and updated.data["previous_fact_id"] == "f1"
    forgot = event_from_row({**base, "id": "au3", "action": "FORGET", "fact_id": "f1", "text": "T"})
    assert forgot is not None and forgot.type == "fact.forgotten" and forgot.text is None
    merged = event_from_row(
        {**base, "id": "au4", "action": "MERGE", "target_id": "person:a", "text": "person:b"}
    )
    assert merged is not None and (merged.entity_key, merged.merged_entity_key) == (
        "person:a",
        "person:b",
    )
    assert event_from_row({**base, "id": "au5", "action": "NOOP"}) is None
    job = event_from_row(
        {"agent_id": "a", "source": "job", "at": AT, "id": "j1", "status": "dead",
         "kind": "extract", "attempts": 3, "error_code": "LLM_UNAVAILABLE", "error": "x" * 900}
    )  # fmt: skip
    assert job is not None and job.type == "job.failed" and len(job.data["error"]) == 500
    empty = event_from_row({"agent_id": "a", "source": "event", "at": AT, "id": "ev9"})
    assert empty is not None and empty.type == "write.nothing_extracted"
    assert source_filter(set(EVENT_TYPES)) == {
        "actions": ["ADD", "DELETE", "ERASE", "FORGET", "MERGE", "UPDATE"],
        "jobs": ["dead", "done"],
        "empty_writes": True,
    }


def _hook(hook_id: str, events: set[str], created: datetime, *agents: str) -> Hook:
    return Hook(hook_id, frozenset(events), created, dict.fromkeys(agents, "t1"))


def test_each_wanting_webhook_gets_one_delivery_per_event_in_order() -> None:
    early = _hook("wh_a", {"fact.added"}, AT - timedelta(hours=1), "a1", "a2")
    late = _hook("wh_b", set(EVENT_TYPES), AT + timedelta(minutes=1), "a1")
    rows = [
        {"agent_id": "a1", "source": "audit", "at": AT, "id": "au1", "action": "ADD",
         "fact_id": "f1", "text": "T"},
        {"agent_id": "a1", "source": "audit", "at": AT + timedelta(minutes=2), "id": "au2",
         "action": "ADD", "fact_id": "f2", "text": "U"},
        {"agent_id": "a2", "source": "job", "at": AT, "id": "j1", "status": "done", "kind": "x"},
    ]  # fmt: skip
    events = [e for e in map(event_from_row, rows) if e is not None]
    planned = plan_deliveries([early, late], events, seq=10)
    # wh_b was registered after au1: it gets au2 only; nobody wants the job.
    assert [(d["webhook_id"], d["source_id"], d["seq"]) for d in planned] == [
        ("wh_a", "au1", 10),
        ("wh_a", "au2", 11),
        ("wh_b", "au2", 12),
    ]
    assert planned[0]["lane"] == lane_key("wh_a", "a1") and planned[0]["tenant"] == "t1"
    assert planned[0]["id"] == delivery_id("wh_a", events[0]) != delivery_id("wh_b", events[0])
    assert planned[0]["fact_ids"] == ["f1"] and json.loads(planned[0]["data"])["fact_id"] == "f1"
    targets = targets_of([early, late], AT - timedelta(minutes=5))
    assert [t["agent_id"] for t in targets] == ["a1", "a2"]
    assert targets[0]["since"] == AT - timedelta(minutes=5) and targets[0]["empty_writes"]
    assert targets[1]["actions"] == ["ADD"] and targets[1]["jobs"] == []


def test_the_body_is_the_same_bytes_at_every_attempt() -> None:
    kwargs = {
        "delivery_id": "whd_1",
        "type": "fact.added",
        "webhook_id": "wh_a",
        "agent_id": "a1",
        "tenant": None,
        "at": AT,
        "data": {"fact_id": "f1"},
        "text": "Ana lives in Recife",
    }
    body = delivery_body(**kwargs)  # type: ignore[arg-type]
    assert body == delivery_body(**kwargs)  # type: ignore[arg-type]
    assert json.loads(body) == {
        "id": "whd_1",
        "type": "fact.added",
        "created_at": "2026-03-01T12:00:00Z",
        "webhook_id": "wh_a",
        "agent_id": "a1",
        "tenant": None,
        "data": {"fact_id": "f1", "text": "Ana lives in Recife"},
    }


@pytest.mark.parametrize(
    ("code", "delivered"), [(200, True), (204, True), (301, False), (410, False), (503, False)]
)
def test_only_a_2xx_answer_delivers(code: int, delivered: bool) -> None:
    outcome = outcome_of(code)
    assert outcome.delivered is delivered and outcome.code == code
    if 300 <= code < 400:
        assert "redirects are not followed" in (outcome.error or "")


def test_the_api_enums_name_every_event_and_status() -> None:
    from gql.types.webhooks import WebhookDeliveryStatus, WebhookEvent
    from graph.memory.webhooks import DELIVERY_STATUSES

    assert [m.value for m in WebhookEvent] == list(EVENT_TYPES)
    assert {m.value for m in WebhookDeliveryStatus} == set(DELIVERY_STATUSES)
