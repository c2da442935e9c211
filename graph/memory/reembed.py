"""Re-embed an agent with another embedding model (``hippograph reembed --agent ID``).

Every node of the agent that carries a vector (facts, events, entities, document chunks,
observations) gets a new one from the same text the write paths embed (events with their speaker,
:func:`graph.memory.text.event_embedding_text`; entities by their name; a fact's English gloss,
its second vector, from the gloss), in batches of one
``UNWIND`` each, and the agent's model record (:mod:`graph.memory.spaces`) is switched last.
Until then the agent stays recorded with its old model, so a process with the new model refuses
it and a run that stops half-way can simply be repeated. Run it while nothing writes to the agent.

Vector indexes have one dimension per database: a model of another dimension needs a new
database; this moves agents between models of the same dimension (MiniLM ↔ e5-small, 384).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.spaces import embedder_name, record_space, recorded_space
from graph.memory.text import event_embedding_text
from graph.providers import Embedder

__all__ = ["ReembedResult", "reembed_agent", "vector_text"]


def vector_text(label: str, text: str | None, speaker: str | None) -> str:
    """The text a node's vector is made from, as the write paths embed it."""
    if label == "Event":
        return event_embedding_text(text or "", speaker or "")
    return text or ""


def _property(label: str) -> str:
    """The property a vector goes to: a fact's English gloss (label ``Gloss``) has its own."""
    return "gloss_embedding" if label == "Gloss" else "embedding"


@dataclass
class ReembedResult:
    agent_id: str
    previous: str | None
    embedder: str
    by_label: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.by_label.values())


async def reembed_agent(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    *,
    batch_size: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> ReembedResult:
    """Give every vector of ``agent_id`` a new one from ``embedder``, then record the model.

    Raises:
        BadInput: empty agent id, or a vector of the wrong dimension from ``embedder``.
    """
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    name = embedder_name(embedder)
    result = ReembedResult(agent_id, await recorded_space(executor, agent_id), name)
    items = await executor.run("reembed/items", {"agent_id": agent_id}, read=True)
    done = 0
    for start in range(0, len(items), batch_size):
        chunk = items[start : start + batch_size]
        vectors = await embedder.embed(
            [vector_text(r["label"], r["text"], r["speaker"]) for r in chunk]
        )
        if any(len(v) != embedder.dimensions for v in vectors):
            raise BadInput(
                f"{name} returned vectors of another dimension than {embedder.dimensions}"
            )
        await executor.run(
            "reembed/set_vectors",
            {
                "agent_id": agent_id,
                "rows": [
                    {"eid": r["eid"], "property": _property(r["label"]), "embedding": v}
                    for r, v in zip(chunk, vectors, strict=True)
                ],
            },
        )
        for r in chunk:
            result.by_label[r["label"]] = result.by_label.get(r["label"], 0) + 1
        done += len(chunk)
        if progress:
            progress(done, len(items))
    if items or result.previous is not None:
        await record_space(executor, agent_id, name)
    return result
