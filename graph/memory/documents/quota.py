"""Document bytes charged to the API key that registers a document, per time window
(``DocumentConfig.quota_bytes`` / ``quota_window_s``): text documents when registered, URL
documents once fetched (their size is known only then)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Transaction
from graph.memory.jobs.context import JobContext, PermanentJobError
from graph.memory.jobs.jobs_config import DocumentConfig

__all__ = ["DocumentQuotaExceeded", "charge_bytes", "charge_fetched"]


class DocumentQuotaExceeded(BadInput):
    """The API key has ingested its document bytes for the current window."""

    job_error_code = "QUOTA_EXCEEDED"  # a failed job's ``last_error_code``


async def charge_bytes(
    tx: Transaction, cfg: DocumentConfig, key_id: str | None, document_id: str, size: int
) -> None:
    """Charge ``size`` bytes to ``key_id``'s window (no key, or no quota configured: free).

    Raises:
        DocumentQuotaExceeded: the window's bytes would go over ``cfg.quota_bytes``.
    """
    if key_id is None or cfg.quota_bytes <= 0:
        return
    rows = await tx.run(
        "documents/charge_quota",
        key_id=key_id,
        document_id=document_id,
        bytes=size,
        limit=cfg.quota_bytes,
        window_s=int(cfg.quota_window_s),
        now=datetime.now(UTC),
    )
    if rows and not rows[0]["ok"]:
        raise DocumentQuotaExceeded(
            f"document quota exceeded: this key ingested {rows[0]['used']} of "
            f"{cfg.quota_bytes} bytes in the current {int(cfg.quota_window_s)} s window and "
            f"the document has {size}; retry later"
        )


async def charge_fetched(ctx: JobContext, doc: dict[str, Any], size: int) -> None:
    """Charge a fetched URL document to the key that registered it (once)."""
    key_id = doc.get("quota_key")
    if key_id is None:
        return
    deps, agent_id = ctx.deps, ctx.job.agent_id

    async def charge(tx: Transaction) -> None:
        await charge_bytes(tx, deps.config.documents, key_id, doc["id"], size)

    try:
        await deps.executor.write(charge)
    except DocumentQuotaExceeded as exc:
        await deps.executor.run(
            "documents/set_status",
            {"agent_id": agent_id, "id": doc["id"], "status": "failed", "error": str(exc)},
        )
        raise PermanentJobError(str(exc)) from exc
