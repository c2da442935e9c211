"""An agent's vectors come from one embedding model (graph/memory/spaces.py): the first write
records it, a process with another model is refused on every path (write, async write,
structured remember, retrieve) and stores nothing, and ``reembed_agent`` moves the agent."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from graph.errors import EmbedderMismatch
from graph.executor import Executor
from graph.memory.jobs import JobQueue
from graph.memory.jobs.async_write import write_async
from graph.memory.read import Retriever
from graph.memory.reembed import reembed_agent, vector_text
from graph.memory.remember import remember
from graph.memory.spaces import recorded_space
from graph.memory.write import StructuredFact, WritePipeline
from graph.providers import HashEmbedder
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

SPEAKER = "Marta"


class OtherModel(HashEmbedder):
    """Same dimension as the hash embedder, other vectors: a different model."""

    name = "hash-other"

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await super().embed([f"other model: {t}" for t in texts])


async def stored(executor: Executor, agent_id: str) -> dict[str, int]:
    rows = await executor.run_text(load_query("spaces_counts"), {"agent_id": agent_id})
    return {k: int(v) for k, v in rows[0].items()}


async def seeded(executor: Executor, agent_id: str) -> None:
    pipe = WritePipeline(executor, HashEmbedder(), None)
    result = await pipe.write(
        agent_id, "I moved to Lisbon in 2021 and I work at Acme as a nurse.", SPEAKER
    )
    assert result.success and result.facts_added


async def test_first_write_records_the_model(executor: Executor, agent_id: str) -> None:
    assert await recorded_space(executor, agent_id) is None
    await seeded(executor, agent_id)
    assert await recorded_space(executor, agent_id) == "hash"


async def test_another_model_is_refused_everywhere_and_stores_nothing(
    executor: Executor, agent_id: str
) -> None:
    await seeded(executor, agent_id)
    before = await stored(executor, agent_id)
    other = OtherModel()
    with pytest.raises(EmbedderMismatch) as info:
        await WritePipeline(executor, other, None).write(
            agent_id, "I adopted a cat named Miso last week.", SPEAKER
        )
    assert "hippograph reembed" in str(info.value) and info.value.recorded == "hash"
    with pytest.raises(EmbedderMismatch):
        await write_async(
            executor, JobQueue(executor), agent_id, "I like tea.", SPEAKER, embedder=other
        )
    with pytest.raises(EmbedderMismatch):
        await remember(
            executor,
            other,
            agent_id,
            facts=[StructuredFact(text="Marta speaks Portuguese", subject=SPEAKER)],
        )
    with pytest.raises(EmbedderMismatch):
        await Retriever(executor, other).retrieve(agent_id, "Where does Marta live?")
    assert await stored(executor, agent_id) == before
    assert await recorded_space(executor, agent_id) == "hash"
    # The agent's own model still reads and writes.
    got = await Retriever(executor, HashEmbedder()).retrieve(agent_id, "Where does Marta live?")
    assert got.facts


async def test_reembed_moves_the_agent_to_another_model(executor: Executor, agent_id: str) -> None:
    await seeded(executor, agent_id)
    await remember(
        executor,
        HashEmbedder(),
        agent_id,
        facts=[StructuredFact(text="Marta speaks Portuguese", subject=SPEAKER)],
    )
    other = OtherModel()
    seen: list[tuple[int, int]] = []
    result = await reembed_agent(
        executor, other, agent_id, batch_size=2, progress=lambda d, t: seen.append((d, t))
    )
    assert result.previous == "hash" and result.embedder == "hash-other"
    assert {"Fact", "Event", "Entity"} <= set(result.by_label)
    assert seen[-1] == (result.total, result.total) and len(seen) > 1
    rows = await executor.run("reembed/items", {"agent_id": agent_id}, read=True)
    vectors = await executor.run_text(load_query("spaces_vectors"), {"agent_id": agent_id})
    by_eid = {r["eid"]: r["embedding"] for r in vectors}
    expected = await other.embed([vector_text(r["label"], r["text"], r["speaker"]) for r in rows])
    for row, want in zip(rows, expected, strict=True):
        assert np.allclose(by_eid[row["eid"]], want), row["label"]
    assert await recorded_space(executor, agent_id) == "hash-other"
    got = await Retriever(executor, other).retrieve(agent_id, "Where does Marta live?")
    assert got.facts
    with pytest.raises(EmbedderMismatch):
        await Retriever(executor, HashEmbedder()).retrieve(agent_id, "Where does Marta live?")
    # Writes with the new model are accepted again.
    after = await WritePipeline(executor, other, None).write(
        agent_id, "I adopted a cat named Miso last week.", SPEAKER
    )
    assert after.success
