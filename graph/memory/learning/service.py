"""Learning the ranking from a tenant's users (thin I/O around :mod:`.fit`).

- ``feedback``: a user says a fact a retrieve returned helped or not. The verdict is stored
  with the fact's feature row *of that retrieve* (the process keeps the rows of its recent
  retrieves, ``read.recent``; for an older one, or one another process served, the retrieve is
  run again as memory stood at its time, from the question the caller sends along).
- ``train``: the tenant's verdicts fit a residual layer over the shipped model
  (``fit.fit_residual``), stored as the tenant's next model version; its retrieves use it
  within ``MODEL_TTL_S``. Refused when there are too few verdicts.
- ``show`` / ``reset``: the version in force and the history; a reset stores a version that
  goes back to the shipped model (the history stays, as for ontologies).

The verdicts carry no text: fact ids and numbers. Erasing an agent deletes its verdicts.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from graph.errors import NotFound
from graph.executor import Executor
from graph.memory.learning.fit import MIN_LABELS, NotEnoughFeedback, Residual, fit_residual
from graph.memory.read.ranker import FEATURES, RankerModel, parse_model, shipped_model
from graph.memory.read.recent import retrieve_time
from graph.memory.read.retriever import Retriever

__all__ = [
    "UNOWNED_TENANT",
    "FeedbackReceipt",
    "ModelState",
    "NotEnoughFeedback",
    "RankLearning",
    "TenantModels",
    "vocabulary_digest",
]

# The tenant whose model orders agents nobody owns (auth off; the operator's CLI writes).
UNOWNED_TENANT = "local"
MODEL_TTL_S = 30.0
MAX_CACHED = 10_000


def vocabulary_digest(features: tuple[str, ...] = FEATURES) -> str:
    """Names the feature vocabulary a stored row was made with (rows of another are skipped)."""
    return hashlib.sha256("\n".join(features).encode()).hexdigest()[:16]


class TenantModels:
    """The retriever's source of tenants' own models: the newest version of the tenant owning
    an agent, read at most every ``MODEL_TTL_S`` per agent (None: the shipped model)."""

    def __init__(self, executor: Executor, ttl_s: float = MODEL_TTL_S) -> None:
        self.executor = executor
        self.ttl_s = ttl_s
        self._cache: dict[str, tuple[float, RankerModel | None]] = {}
        self._parsed: dict[tuple[str, int], RankerModel | None] = {}

    async def model_for(self, agent_id: str) -> RankerModel | None:
        now = time.monotonic()
        hit = self._cache.get(agent_id)
        if hit is not None and now - hit[0] < self.ttl_s:
            return hit[1]
        rows = await self.executor.run(
            "learning/tenant_model", {"agent_id": agent_id, "unowned": UNOWNED_TENANT}, read=True
        )
        model = self._model(rows[0]) if rows else None
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[agent_id] = (now, model)
        return model

    def _model(self, row: dict[str, Any]) -> RankerModel | None:
        key = (str(row["tenant"]), int(row["version"]))
        if key not in self._parsed:
            document = row["document"]
            self._parsed[key] = parse_model(json.loads(document)) if document else None
        return self._parsed[key]

    def forget(self) -> None:
        """Read every tenant's model again at the next retrieve (one was just trained)."""
        self._cache.clear()


@dataclass(frozen=True)
class FeedbackReceipt:
    """A recorded verdict and the tenant's totals."""

    retrieve_id: str
    fact_id: str
    helpful: bool
    labels: int
    rebuilt: bool  # the row came from running the retrieve again


@dataclass(frozen=True)
class ModelState:
    """A tenant's model in force and its history."""

    tenant: str
    model: RankerModel
    version: int  # 0: the shipped model, never trained for this tenant
    labels: int
    helpful: int
    retrieves: int
    history: list[dict[str, Any]]


class RankLearning:
    """Feedback, training, show and reset of tenants' ranking models."""

    def __init__(
        self, executor: Executor, retriever: Retriever | None, models: TenantModels | None = None
    ) -> None:
        self.executor = executor
        self.retriever = retriever  # feedback needs it; training, show and reset do not
        self.models = models or TenantModels(executor)

    async def _row(
        self, agent_id: str, retrieve_id: str, fact_id: str, query: str | None
    ) -> tuple[np.ndarray, bool]:
        if self.retriever is None:
            raise NotFound("feedback needs the retrieve pipeline")
        kept = self.retriever.recent.get(retrieve_id)
        if kept is not None and kept.agent_id == agent_id and fact_id in kept.rows:
            return kept.rows[fact_id], False
        at = retrieve_time(retrieve_id)
        if kept is None and query:
            result = await self.retriever.retrieve(
                agent_id, query, as_of=at, options={"ranker": "learned"}
            )
            for fact in result.facts:
                if fact.id == fact_id and fact.explanation is not None:
                    return fact.explanation.row, True
        raise NotFound(
            f"fact {fact_id!r} is not among the facts of retrieve {retrieve_id!r} this server "
            "holds; send `query` (the retrieve's question) to rebuild it"
        )

    async def feedback(
        self,
        tenant: str,
        agent_id: str,
        retrieve_id: str,
        fact_id: str,
        helpful: bool,
        query: str | None = None,
    ) -> FeedbackReceipt:
        """Record that ``fact_id``, returned by ``retrieve_id``, helped (or not).

        Raises:
            BadInput: not a retrieve id.
            NotFound: the fact is not among that retrieve's facts (as far as this process can
                tell or rebuild).
        """
        row, rebuilt = await self._row(agent_id, retrieve_id, fact_id, query)
        await self.executor.run(
            "learning/save_feedback",
            {
                "id": f"{retrieve_id}:{fact_id}",
                "tenant": tenant,
                "agent_id": agent_id,
                "retrieve_id": retrieve_id,
                "fact_id": fact_id,
                "helpful": helpful,
                "features": [float(v) for v in row],
                "vocabulary": vocabulary_digest(),
                "now": datetime.now(UTC),
            },
        )
        counts = await self._counts(tenant)
        return FeedbackReceipt(retrieve_id, fact_id, helpful, counts["labels"], rebuilt)

    async def _counts(self, tenant: str) -> dict[str, int]:
        rows = await self.executor.run("learning/feedback_counts", {"tenant": tenant}, read=True)
        row = rows[0] if rows else {}
        return {k: int(row.get(k) or 0) for k in ("labels", "helpful", "retrieves")}

    async def _versions(self, tenant: str) -> list[dict[str, Any]]:
        return await self.executor.run("learning/model_versions", {"tenant": tenant}, read=True)

    async def _add_version(
        self, tenant: str, document: dict[str, Any] | None, labels: int, by: str | None
    ) -> int:
        versions = await self._versions(tenant)
        version = (int(versions[0]["version"]) if versions else 0) + 1
        if document is not None:
            document = {**document, "version": version}
        await self.executor.run(
            "learning/add_model",
            {
                "tenant": tenant,
                "version": version,
                "document": json.dumps(document, separators=(",", ":")) if document else None,
                "labels": labels,
                "now": datetime.now(UTC),
                "by": by,
            },
        )
        self.models.forget()
        return version

    async def train(
        self, tenant: str, *, min_labels: int = MIN_LABELS, by: str | None = None
    ) -> tuple[int, Residual]:
        """Fit the tenant's model from its verdicts and store it as its next version.

        Raises:
            NotEnoughFeedback: too few verdicts, or of one kind only.
        """
        rows = await self.executor.run(
            "learning/tenant_feedback",
            {"tenant": tenant, "vocabulary": vocabulary_digest()},
            read=True,
        )
        base = shipped_model()
        x = np.asarray([r["features"] for r in rows], dtype=float).reshape(len(rows), len(FEATURES))
        helpful = np.asarray([bool(r["helpful"]) for r in rows], dtype=float)
        columns = [FEATURES.index(f) for f in base.features]
        raw = base.score(x[:, columns]).raw if len(rows) else np.zeros(0)
        residual = fit_residual(
            list(FEATURES), x, helpful, raw, base.calibration, min_labels=min_labels
        )
        # The residual reads the whole vocabulary; the base model's parts read their own.
        model = _with_vocabulary(base).with_residual(residual.document, f"tenant:{tenant}", 0)
        stored = await self._add_version(tenant, dict(model.document), residual.labels, by)
        return stored, residual

    async def reset(self, tenant: str, *, by: str | None = None) -> int:
        """Back to the shipped model (a new version without a document); returns it."""
        return await self._add_version(tenant, None, 0, by)

    async def show(self, tenant: str) -> ModelState:
        versions = await self._versions(tenant)
        counts = await self._counts(tenant)
        newest = versions[0] if versions else None
        model = shipped_model()
        if newest is not None and newest["document"]:
            model = parse_model(json.loads(newest["document"]))
        history = [
            {
                "version": int(v["version"]),
                "kind": "trained" if v["document"] else "reset",
                "labels": int(v["labels"] or 0),
                "created_at": v["created_at"],
                "created_by": v["created_by"],
            }
            for v in versions
        ]
        return ModelState(
            tenant=tenant,
            model=model,
            version=int(newest["version"]) if newest is not None else 0,
            labels=counts["labels"],
            helpful=counts["helpful"],
            retrieves=counts["retrieves"],
            history=history,
        )


def _with_vocabulary(model: RankerModel) -> RankerModel:
    """``model`` re-expressed over the whole feature vocabulary (its parts keep reading their
    own features), so a residual over every feature fits in the same document."""
    if tuple(model.features) == FEATURES:
        return model
    doc = json.loads(json.dumps(model.document))
    doc["features"] = list(FEATURES)
    return parse_model(doc)
