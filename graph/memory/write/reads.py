"""Batched Neo4j reads of the write pipeline: the context, entity-candidate and
fact-candidate reads, each one read transaction taking UNWIND batches.

The nearest-neighbour reads cost the same whatever the agent's size (``overfetch``: exact scan
of small sets, vector index over-fetch of large ones — or in-index filtered search for entities
where the server has it — inside the same read transactions).
"""

from __future__ import annotations

from typing import Any

from graph.executor import Executor, Transaction
from graph.memory.write.config import Scan
from graph.memory.write.overfetch import Round, first_k, index_score, next_k, use_exact
from graph.vector_search import form_of

__all__ = ["load_context", "load_entity_candidates", "load_fact_candidates"]

Row = dict[str, Any]


async def _overfetch(
    tx: Transaction,
    statement: str,
    rows: list[Row],
    ks: dict[int, int],
    limit: int,
    min_score: float,
    cap: int,
    **params: Any,
) -> tuple[list[Row], list[Row]]:
    """Index over-fetch rounds for ``rows`` (each with an ``index``), k per row from ``ks``,
    grown for the rows whose round was not conclusive. Returns the rows the statement gave
    for the settled rows, and the input rows that reached the cap (for the exact scan)."""
    settled: list[Row] = []
    exact: list[Row] = []
    pending = rows
    while pending:
        got = await tx.run(
            statement,
            rows=[{**r, "k": ks[r["index"]]} for r in pending],
            beam=max(ks[r["index"]] for r in pending),  # SEARCH takes one static LIMIT
            k=limit,
            min_score=min_score,
            **params,
        )
        by_index = {g["index"]: g for g in got}
        again: list[Row] = []
        for r in pending:
            g = by_index[r["index"]]
            k = next_k(
                Round(
                    ks[r["index"]], int(g["fetched"]), g["floor"], int(g["mine"]), len(g["near"])
                ),
                limit,
                min_score,
                cap,
            )
            if k is None:
                settled.append(g)
            elif k == 0:
                exact.append(r)
            else:
                ks[r["index"]] = k
                again.append(r)
        pending = again
    return settled, exact


async def _subject_top(
    tx: Transaction, agent_id: str, rows: list[Row], limit: int, min_score: float, scan: Scan
) -> tuple[list[Row], list[Row]]:
    """Nearest active facts per row ``{index, subject_key, content_hash, embedding}``: rows
    of small subjects are returned for the exact scan, the others answered through the fact
    vector index (``near`` and ``same`` lists per row)."""
    keys = sorted({r["subject_key"] for r in rows})
    scope = await tx.run("write/subject_scope", agent_id=agent_id, keys=keys, max=scan.fact_max + 1)
    counted = {r["key"]: int(r["subject_facts"]) for r in scope}
    small = [r for r in rows if use_exact(counted.get(r["subject_key"], 0), scan.fact_max)]
    large = [r for r in rows if not use_exact(counted.get(r["subject_key"], 0), scan.fact_max)]
    ks = {r["index"]: first_k(limit) for r in large}
    settled, exact = await _overfetch(
        tx, "write/fact_candidates_index", large, ks, limit, min_score, scan.cap, agent_id=agent_id
    )
    return small + exact, settled


def _index_facts(row: Row) -> list[Row]:
    """The candidate facts of one ``write/fact_candidates_index`` row (same hash first)."""
    seen: set[str] = set()
    out: list[Row] = []
    for f in [*row["same"], *row["near"]]:
        if f["id"] not in seen:
            seen.add(f["id"])
            out.append(f)
    return out


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
        small, settled = await _subject_top(
            tx, agent_id, rows, k, index_score(min_similarity), scan
        )
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
            settled, exact = await _overfetch(
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
            await _subject_top(tx, agent_id, rows, k, index_score(min_similarity), scan)
            if rows
            else ([], [])
        )
        cands = (
            await tx.run("write/fact_candidates", agent_id=agent_id, rows=small, k=k)
            if small
            else []
        )
        for row in settled:
            cands += [{"index": row["index"], **f} for f in _index_facts(row)]
        rels = (
            await tx.run("write/active_relations", agent_id=agent_id, rows=single) if single else []
        )
        return cands, rels

    return await executor.read(work)
