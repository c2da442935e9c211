"""Review of proposed duplicate entities: accept (merge) or reject a merge candidate."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from graph.errors import BadInput, NotFound
from graph.executor import Executor
from graph.memory.curation.edits import MergeResult, merge_entities

__all__ = ["MergeDecision", "resolve_merge_candidate"]


@dataclass(frozen=True)
class MergeDecision:
    id: str
    status: str  # merged | rejected
    keep_key: str
    drop_key: str
    merge: MergeResult | None = None


async def resolve_merge_candidate(
    executor: Executor, agent_id: str, candidate_id: str, *, accept: bool
) -> MergeDecision:
    """Merge the pair (``accept``) or reject it; the candidate then leaves the open list.

    The merge runs first so a failed merge leaves the candidate open for another try.

    Raises:
        NotFound: no such candidate.  BadInput: it was already resolved.
    """
    rows = await executor.run(
        "browse/merge_candidate", {"agent_id": agent_id, "id": candidate_id}, read=True
    )
    if not rows:
        raise NotFound(f"no merge candidate {candidate_id!r}")
    cand = rows[0]
    if cand["status"] != "open":
        raise BadInput(f"merge candidate {candidate_id!r} is already {cand['status']}")
    merged = None
    if accept:
        merged = await merge_entities(
            executor,
            agent_id,
            cand["keep_key"],
            cand["drop_key"],
            reason=f"merge candidate {candidate_id} accepted",
        )
    status = "merged" if accept else "rejected"
    done = await executor.run(
        "browse/set_merge_candidate_status",
        {"agent_id": agent_id, "id": candidate_id, "status": status, "now": datetime.now(UTC)},
    )
    if not done:
        raise BadInput(f"merge candidate {candidate_id!r} was resolved concurrently")
    return MergeDecision(candidate_id, status, cand["keep_key"], cand["drop_key"], merged)
