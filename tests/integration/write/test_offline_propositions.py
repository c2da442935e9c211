"""Offline path, one proposition per fact: superseding one clause of a compound
sentence never invalidates the other; small talk stays an event; "you" is the other speaker."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from graph.executor import Executor
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.integration.write.helpers import counts
from tests.integration.write.history import facts_as_of, relationships_as_of

pytestmark = pytest.mark.neo4j


@pytest.mark.parametrize(
    ("first_msg", "second_msg", "works_fact", "old_fact"),
    [
        (
            "I live in Curitiba and work at Acme.",
            "I moved to São Paulo last month.",
            "Ana works at Acme.",
            "Ana lives in Curitiba.",
        ),
        (
            "Moro em Curitiba e trabalho na Acme.",
            "Me mudei para São Paulo mês passado.",
            "Ana trabalha na Acme.",
            "Ana mora em Curitiba.",
        ),
    ],
)
async def test_moving_keeps_the_job(
    executor: Executor,
    agent_id: str,
    embedder: Embedder,
    first_msg: str,
    second_msg: str,
    works_fact: str,
    old_fact: str,
) -> None:
    pipe = WritePipeline(executor, embedder, None)
    first = await pipe.write(agent_id, first_msg, "Ana")
    assert sorted(f.text for f in first.facts_added) == sorted([old_fact, works_fact])
    between = datetime.now(UTC)
    await asyncio.sleep(0.05)
    second = await pipe.write(agent_id, second_msg, "Ana")
    assert first.success and second.success
    by_text = {f.text: f.id for f in first.facts_added}
    # Only the lives_in proposition is superseded.
    assert [u.target_id for u in second.facts_updated] == [by_text[old_fact]]
    now = await facts_as_of(executor, agent_id, datetime.now(UTC), subject_key="person:ana")
    texts = {f["text"] for f in now}
    assert works_fact in texts and old_fact not in texts
    assert any("São Paulo" in t for t in texts)
    rels = {
        (r["type"], r["target_key"])
        for r in await relationships_as_of(executor, agent_id, datetime.now(UTC))
    }
    assert rels == {("works_at", "organization:acme"), ("lives_in", "place:sao_paulo")}
    then = {
        f["text"] for f in await facts_as_of(executor, agent_id, between, subject_key="person:ana")
    }
    assert then == {old_fact, works_fact}


async def test_small_talk_stays_an_event(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    pipe = WritePipeline(executor, embedder, None)
    recent = ["Audrey: I finally found a new apartment near the park!"]
    for msg in (
        "Hey Audrey! Good to see you.",
        "I hear ya. Ttyl, Bye!",
        "I totally get it.",
        "I hope you find a great spot soon!",
        "Thanks so much!",
        "That's so cool, I'm happy for you.",
    ):
        res = await pipe.write(agent_id, msg, "Andrew", recent_messages=recent)
        assert res.success and res.event_id and res.facts_added == [], msg
    c = await counts(executor, agent_id)
    assert c["facts"] == 0 and c["events"] == 6


async def test_you_is_the_other_speaker(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    pipe = WritePipeline(executor, embedder, None)
    res = await pipe.write(
        agent_id,
        "I'm going to visit your sister in Lisbon next week.",
        "Andrew",
        recent_messages=["Audrey: My sister just moved."],
    )
    assert [f.text for f in res.facts_added] == [
        "Andrew is going to visit Audrey's sister in Lisbon next week."
    ]
