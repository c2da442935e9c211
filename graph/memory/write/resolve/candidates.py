"""The entity-candidate read of the resolution: per mention, the stored entities with the same
key or alias and the nearest by name embedding (one read transaction, UNWIND batches; exact
scan of small agents, vector-index over-fetch of large ones — ``overfetch``)."""

from __future__ import annotations

from graph.executor import Executor, Transaction
from graph.memory.write.config import Scan
from graph.memory.write.overfetch import (
    Row,
    first_k,
    index_rounds,
    index_score,
    use_exact,
)
from graph.vector_search import form_of

__all__ = ["load_entity_candidates"]


async def load_entity_candidates(
    executor: Executor,
    agent_id: str,
    norms: list[str],
    keys: list[str],
    rows: list[Row],
    k: int,
    min_similarity: float,
    scan: Scan = Scan(),
) -> tuple[list[Row], list[Row], list[Row]]:
    """Resolution stage inputs: alias matches, exact keys, nearest entities — one read
    transaction. Nearest entities by exact scan for small agents, through the entity vector
    index for large ones (``overfetch``; in-index filtered search where the server and the
    index allow it, ``graph/vector_search.py``); rows ``{index, key, name, type, similarity}``."""

    async def work(tx: Transaction) -> tuple[list[Row], list[Row], list[Row]]:
        lookup = (
            await tx.run(
                "write/entity_lookup",
                agent_id=agent_id,
                norms=norms,
                keys=keys,
                max=scan.entity_max + 1,
            )
        )[0]
        aliases, found = lookup["aliases"], lookup["found"]
        if not rows:
            return aliases, found, []
        exact = rows
        near: list[Row] = []
        if not use_exact(int(lookup["agent_entities"]), scan.entity_max):
            # Which index form (read once per process, outside this transaction): only a large
            # agent needs to know.
            filtered = (await form_of(executor)).filtered_for("entity")
            settled, exact = await index_rounds(
                tx,
                "write/nearest_entities_search" if filtered else "write/nearest_entities_index",
                rows,
                {r["index"]: first_k(k) for r in rows},
                k,
                index_score(min_similarity),
                scan.cap,
                agent_id=agent_id,
            )
            near = [
                {"index": g["index"], **hit} for g in settled for hit in [*g["near"], *g["prefix"]]
            ]
        if exact:
            near += await tx.run(
                "write/nearest_entities",
                agent_id=agent_id,
                rows=exact,
                k=k,
                min_similarity=min_similarity,
            )
        return aliases, found, near

    return await executor.read(work)
