"""The fact-candidate read of the reconciliation: per new fact, the active facts of its subject
with the same hash or the nearest embeddings (one read transaction, UNWIND batches;
``overfetch``)."""

from __future__ import annotations

from graph.executor import Executor, Transaction
from graph.memory.write.config import Scan
from graph.memory.write.overfetch import (
    Row,
    index_facts,
    index_score,
    subject_top,
)

__all__ = ["load_fact_candidates"]


async def load_fact_candidates(
    executor: Executor,
    agent_id: str,
    rows: list[Row],
    k: int,
    single: list[Row],
    min_similarity: float = 0.5,
    scan: Scan = Scan(),
) -> tuple[list[Row], list[Row]]:
    """Reconcile stage inputs: same-subject candidates and the active relations of the
    message's single-valued ``{key, type}`` pairs (source entity, relation type).
    Subjects with many facts go through the fact vector index (candidates below
    ``min_similarity`` are then left out: they cannot change a decision's threshold)."""

    async def work(tx: Transaction) -> tuple[list[Row], list[Row]]:
        small, settled = (
            await subject_top(tx, agent_id, rows, k, index_score(min_similarity), scan)
            if rows
            else ([], [])
        )
        cands = (
            await tx.run("write/fact_candidates", agent_id=agent_id, rows=small, k=k)
            if small
            else []
        )
        for row in settled:
            cands += [{"index": row["index"], **f} for f in index_facts(row)]
        rels = (
            await tx.run("write/active_relations", agent_id=agent_id, rows=single) if single else []
        )
        return cands, rels

    return await executor.read(work)
