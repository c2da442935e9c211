"""The context read of the informed extraction: the agent's known names and the active facts
nearest the message (one read transaction; ``overfetch`` for the nearest facts)."""

from __future__ import annotations

from graph.executor import Executor, Transaction
from graph.memory.write.config import Scan
from graph.memory.write.overfetch import (
    Row,
    index_score,
    subject_top,
)

__all__ = ["load_context"]


async def load_context(
    executor: Executor,
    agent_id: str,
    norms: list[str],
    embedding: list[float],
    k: int,
    scan: Scan = Scan(),
    min_similarity: float = 0.2,
) -> tuple[list[Row], list[Row]]:
    """Context stage: alias matches for the message's n-grams, then, for every matched entity,
    its top-K active facts nearest to the message (the informed extraction's context and
    reconciliation candidates) — one read transaction. Large subjects go through the fact
    vector index (facts below ``min_similarity`` to the message are then left out)."""

    async def work(tx: Transaction) -> tuple[list[Row], list[Row]]:
        aliases = await tx.run("write/match_aliases", agent_id=agent_id, norms=norms)
        keys = sorted({r["key"] for r in aliases})
        if not keys or k <= 0:
            return aliases, []
        rows = [
            {"index": i, "subject_key": key, "content_hash": "", "embedding": embedding}
            for i, key in enumerate(keys)
        ]
        small, settled = await subject_top(tx, agent_id, rows, k, index_score(min_similarity), scan)
        facts = (
            await tx.run(
                "write/context_facts",
                agent_id=agent_id,
                keys=[r["subject_key"] for r in small],
                embedding=embedding,
                k=k,
            )
            if small
            else []
        )
        for row in settled:
            facts += [{"key": keys[row["index"]], **f} for f in row["near"]]
        return aliases, facts

    return await executor.read(work)
