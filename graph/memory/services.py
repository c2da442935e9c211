"""The service namespaces of :class:`graph.memory.facade.Memory`: ``browse``, ``history``,
``admin`` and ``documents``.

Each is the module-level functions of its package bound to this process's executor (and queue,
embedder or document settings), so callers write ``memory.browse.facts(agent, ...)`` instead of
threading ``memory.executor`` through every call. No logic lives here: every method is one call
into ``graph/memory/browse``, ``graph/memory/write`` or ``graph/memory/documents``, where the
behaviour (and its documentation of errors) is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.executor import Executor
from graph.memory import browse as _browse
from graph.memory.browse.rows import (
    AuditRow,
    EntityRow,
    EventRow,
    FactRow,
    HistoryRow,
    JobRow,
    MergeCandidateRow,
    ObservationRow,
    Page,
)
from graph.memory.curation.edits import ForgetResult, MergeResult, forget, merge_entities
from graph.memory.curation.review import MergeDecision, resolve_merge_candidate
from graph.memory.documents.ingest import DocumentAccepted, ingest_document
from graph.memory.documents.lookups import DocumentProgress, document_progress, search_chunks
from graph.memory.jobs.jobs_config import JobsConfig
from graph.memory.jobs.queue import JobQueue
from graph.memory.remember import BATCH_SIZE, Progress, remember
from graph.memory.write.models import (
    RememberResult,
    StructuredEntity,
    StructuredEvent,
    StructuredFact,
    StructuredRelation,
)
from graph.providers import Embedder

__all__ = ["Admin", "Browse", "Documents", "History"]


@dataclass(frozen=True)
class Browse:
    """Read-only listings (``graph/memory/browse``): pages of entities, facts and events,
    neighbourhoods, observations, merge candidates, the audit log and jobs."""

    executor: Executor

    async def entities(
        self,
        agent_id: str,
        *,
        type: str | None = None,
        text: str | None = None,
        first: int = 20,
        after: str | None = None,
        include_merged: bool = False,
        with_total: bool = True,
        subtypes: Sequence[str] = (),
    ) -> Page[EntityRow]:
        return await _browse.entities_page(
            self.executor,
            agent_id,
            type=type,
            text=text,
            first=first,
            after=after,
            include_merged=include_merged,
            with_total=with_total,
            subtypes=subtypes,
        )

    async def facts(
        self,
        agent_id: str,
        *,
        as_of: datetime | None = None,
        include_invalidated: bool = False,
        entity_key: str | None = None,
        kind: str | None = None,
        first: int = 20,
        after: str | None = None,
        entity_types: Sequence[str] | None = None,
    ) -> Page[FactRow]:
        return await _browse.facts_page(
            self.executor,
            agent_id,
            as_of=as_of,
            include_invalidated=include_invalidated,
            entity_key=entity_key,
            kind=kind,
            first=first,
            after=after,
            entity_types=entity_types,
        )

    async def events(
        self,
        agent_id: str,
        *,
        thread_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> Page[EventRow]:
        return await _browse.events_page(
            self.executor,
            agent_id,
            thread_id=thread_id,
            since=since,
            until=until,
            first=first,
            after=after,
        )

    async def neighborhood(
        self,
        agent_id: str,
        key: str,
        *,
        hops: int = 1,
        as_of: datetime | None = None,
        max_nodes: int = 100,
        relation_types: Sequence[str] | None = None,
    ) -> _browse.Neighborhood:
        return await _browse.neighborhood(
            self.executor,
            agent_id,
            key,
            hops=hops,
            as_of=as_of,
            max_nodes=max_nodes,
            relation_types=relation_types,
        )

    async def observations(self, agent_id: str, limit: int = 50) -> list[ObservationRow]:
        return await _browse.observations(self.executor, agent_id, limit)

    async def merge_candidates(
        self, agent_id: str, status: str | None = None, limit: int = 50
    ) -> list[MergeCandidateRow]:
        return await _browse.merge_candidates(self.executor, agent_id, status, limit)

    async def audit_log(
        self,
        agent_id: str,
        *,
        action: str | None = None,
        since: datetime | None = None,
        limit: int = 50,
    ) -> list[AuditRow]:
        return await _browse.audit_log(
            self.executor, agent_id, action=action, since=since, limit=limit
        )

    async def jobs(self, agent_id: str, status: str | None = None, limit: int = 50) -> list[JobRow]:
        return await _browse.jobs(self.executor, agent_id, status, limit)

    async def job(self, agent_id: str, job_id: str) -> JobRow:
        """Raises ``NotFound`` when the agent has no such job."""
        return await _browse.get_job(self.executor, agent_id, job_id)


@dataclass(frozen=True)
class History:
    """How memory changed over time: fact version chains and entity timelines."""

    executor: Executor

    async def fact(self, agent_id: str, fact_id: str) -> list[FactRow]:
        """Every version of a fact, oldest first; raises ``NotFound`` for an unknown id."""
        return await _browse.fact_history(self.executor, agent_id, fact_id)

    async def entity(self, agent_id: str, key: str, limit: int = 100) -> list[HistoryRow]:
        """Newest-first timeline of facts and relationships added to / ended on an entity."""
        return await _browse.entity_history(self.executor, agent_id, key, limit)


@dataclass(frozen=True)
class Admin:
    """Curation without the LLM pipeline: structured imports, forget, merges and the review
    of proposed merges (``graph/memory/remember/``, ``graph/memory/curation/``).
    """

    executor: Executor
    embedder: Embedder
    pii_mode: str = "redact"
    """The operator's PII policy (``WriteConfig.pii_mode``), applied to structured imports and
    to forget and merge reasons."""

    async def remember(
        self,
        agent_id: str,
        entities: Sequence[StructuredEntity] = (),
        facts: Sequence[StructuredFact] = (),
        relations: Sequence[StructuredRelation] = (),
        events: Sequence[StructuredEvent] = (),
        progress: Progress | None = None,
        *,
        batch_size: int = BATCH_SIZE,
        max_items: int | None = None,
    ) -> RememberResult:
        """Import entities, facts, relations and events as given (no LLM; idempotent)."""
        return await remember(
            self.executor,
            self.embedder,
            agent_id,
            entities,
            facts,
            relations,
            events,
            progress,
            batch_size=batch_size,
            max_items=max_items,
            pii_mode=self.pii_mode,
        )

    async def forget(self, agent_id: str, fact_id: str, reason: str | None = None) -> ForgetResult:
        return await forget(self.executor, agent_id, fact_id, reason, pii_mode=self.pii_mode)

    async def merge_entities(
        self, agent_id: str, keep_key: str, drop_key: str, reason: str | None = None
    ) -> MergeResult:
        return await merge_entities(
            self.executor, agent_id, keep_key, drop_key, reason, pii_mode=self.pii_mode
        )

    async def resolve_merge_candidate(
        self, agent_id: str, candidate_id: str, *, accept: bool
    ) -> MergeDecision:
        return await resolve_merge_candidate(self.executor, agent_id, candidate_id, accept=accept)


@dataclass(frozen=True)
class Documents:
    """Document ingest (``graph/memory/documents``) with this process's queue and limits."""

    executor: Executor
    queue: JobQueue
    jobs: JobsConfig
    """The job system's settings; ingest uses ``jobs.documents`` (chunking, size, URL fetch)."""
    pii_mode: str = "redact"
    """The operator's PII policy (``WriteConfig.pii_mode``), applied to the stored content."""

    async def ingest(
        self,
        agent_id: str,
        *,
        text: str | None = None,
        url: str | None = None,
        title: str | None = None,
        fmt: str | None = None,
        source: str | None = None,
        key_id: str | None = None,
    ) -> DocumentAccepted:
        """``key_id``: the calling API key, charged for the document's bytes."""
        return await ingest_document(
            self.executor,
            self.queue,
            agent_id,
            text=text,
            url=url,
            title=title,
            fmt=fmt,
            source=source,
            config=self.jobs.documents,
            pii_mode=self.pii_mode,
            key_id=key_id,
        )

    async def progress(self, agent_id: str, document_id: str) -> DocumentProgress:
        return await document_progress(self.executor, agent_id, document_id)

    async def search_chunks(
        self, agent_id: str, vector: list[float], limit: int = 5
    ) -> list[dict[str, Any]]:
        return await search_chunks(self.executor, agent_id, vector, limit)
