"""A turn is searched as said by its speaker: the event's vector carries the speaker's
name, the same way for a written message and an imported (``remember``) event, so a question that
names the person finds that person's turn and not the other speaker's identical words."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read.search import index_min_score
from graph.memory.remember import remember
from graph.memory.write import StructuredEvent, WritePipeline
from graph.providers import Embedder

pytestmark = pytest.mark.neo4j

TURN = "I ran a charity race for mental health last Saturday."


async def _ranked_speakers(
    executor: Executor, embedder: Embedder, agent_id: str, question: str
) -> list[str]:
    vec = (await embedder.embed([question]))[0]
    rows = await executor.run(
        "read/semantic_events_exact",
        {
            "agent_id": agent_id,
            "vector": vec,
            "as_of": None,
            "limit": 10,
            "min_score": index_min_score(-1.0),
        },
        read=True,
    )
    return [r["event"]["speaker"] for r in rows]


async def test_a_question_naming_the_speaker_finds_their_turn_first(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    # The same first-person words from two speakers: one written, one imported.
    written = await WritePipeline(executor, embedder, None).write(agent_id, TURN, "Melanie")
    assert written.success and written.event_id
    await remember(
        executor,
        embedder,
        agent_id,
        events=[StructuredEvent(text=TURN, speaker="Caroline", source="import")],
    )
    for name, other in (("Melanie", "Caroline"), ("Caroline", "Melanie")):
        ranked = await _ranked_speakers(
            executor, embedder, agent_id, f"When did {name} run a charity race?"
        )
        assert ranked[:2] == [name, other], (name, ranked)
