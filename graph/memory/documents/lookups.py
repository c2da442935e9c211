"""What the API reads of documents: an ingest's progress (its chunking job, then the
extraction job of each chunk) and the nearest chunks of a query vector."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.errors import NotFound
from graph.executor import Executor

__all__ = ["DocumentProgress", "document_progress", "search_chunks"]


@dataclass
class DocumentProgress:
    document_id: str
    status: str
    title: str | None
    chunks: int
    ingest_status: str | None
    ingest_progress: float
    extract: dict[str, int] = field(default_factory=dict)

    @property
    def extract_total(self) -> int:
        return sum(self.extract.values())

    @property
    def fraction(self) -> float:
        """Overall 0..1: chunking is the first 20 %, extraction jobs the rest."""
        if self.ingest_status != "done":
            return round(0.2 * self.ingest_progress, 4)
        total = self.extract_total
        if total == 0:
            return 1.0
        finished = self.extract.get("done", 0) + self.extract.get("dead", 0)
        return round(0.2 + 0.8 * finished / total, 4)

    @property
    def complete(self) -> bool:
        return self.ingest_status == "done" and self.fraction >= 1.0


async def document_progress(
    executor: Executor, agent_id: str, document_id: str
) -> DocumentProgress:
    """Where a document's ingest stands (chunking job, then its extraction jobs).

    Raises:
        NotFound: no such document for this agent.
    """
    rows = await executor.run(
        "documents/progress", {"agent_id": agent_id, "id": document_id}, read=True
    )
    if not rows:
        raise NotFound(f"document {document_id} not found")
    r = rows[0]
    ingest = r["ingest"] or {}
    return DocumentProgress(
        document_id,
        r["status"],
        r["title"],
        int(r["chunks"]),
        ingest.get("status"),
        float(ingest.get("progress") or 0.0),
        {e["status"]: int(e["n"]) for e in r["extract"] if e},
    )


async def search_chunks(
    executor: Executor, agent_id: str, vector: list[float], limit: int = 5
) -> list[dict[str, Any]]:
    """Nearest chunks of the agent's documents (exact cosine scan)."""
    return await executor.run(
        "documents/search_chunks",
        {"agent_id": agent_id, "vector": vector, "limit": limit},
        read=True,
    )
