"""``Memory``: every service of one process, built once by the composition root.

``server/composition.py`` (``build_memory(settings)``) is the only place that constructs a
``Memory``; the API (request context), the worker, the CLI, the seed loader and the integration
tests all receive one. The write and read configurations live on the pipelines
(``memory.writer.config`` / ``memory.retriever.config``) and are derived from settings exactly
once, so every path (API, worker job, CLI) writes with the same mode, freeze and PII policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graph.executor import Executor
from graph.memory.erase import EraseReport, EraseTarget, erase
from graph.memory.jobs.async_write import AsyncWriteAccepted, write_async
from graph.memory.jobs.context import JobDeps
from graph.memory.jobs.jobs_config import JobsConfig
from graph.memory.jobs.queue import JobQueue
from graph.memory.learning import RankLearning, TenantModels
from graph.memory.ontology.store import OntologyCache
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.retriever import Retriever
from graph.memory.services import Admin, Browse, Documents, History
from graph.memory.webhooks.service import Webhooks
from graph.memory.write.config import WriteConfig, apply_overrides
from graph.memory.write.pipeline import WritePipeline
from graph.providers import ChatLLM, Embedder

__all__ = ["Memory"]


@dataclass(frozen=True)
class Memory:
    """The services of one process (see module docstring)."""

    executor: Executor
    """The Neo4j driver wrapper every service runs its Cypher through."""
    embedder: Embedder
    llm: ChatLLM | None
    """The chat model, or None in offline mode."""
    writer: WritePipeline
    """``write``: message → extracted, reconciled, versioned facts (``graph/memory/write``)."""
    retriever: Retriever
    """``retrieve``: query → ranked, token-budgeted context (``graph/memory/read``)."""
    queue: JobQueue
    """Background jobs: enqueue, lease, finish (``graph/memory/jobs``)."""
    jobs: JobsConfig
    """Worker, maintenance, document and schedule settings of the job system."""

    # Derived from the fields above (not constructor arguments): the module functions of
    # their packages bound to this process's executor (see ``graph/memory/services.py``).
    browse: Browse = field(init=False, repr=False)
    """Listings: entities, facts, events, neighbourhoods, observations, audit log, jobs."""
    history: History = field(init=False, repr=False)
    """Fact version chains and entity timelines."""
    admin: Admin = field(init=False, repr=False)
    """Curation: structured ``remember``, ``forget``, entity merges, merge review."""
    documents: Documents = field(init=False, repr=False)
    """Document ingest, its progress and chunk search."""
    ontologies: OntologyCache = field(init=False, repr=False)
    """The ontology in force per agent, kept a few seconds (``graph/memory/ontology``)."""
    webhooks: Webhooks = field(init=False, repr=False)
    """Webhook endpoints and their deliveries (``graph/memory/webhooks``)."""
    learning: RankLearning = field(init=False, repr=False)
    """Feedback on retrieved facts; tenants' ranking models (``graph/memory/learning``)."""

    def __post_init__(self) -> None:
        bind = object.__setattr__  # frozen: set the derived namespaces once, here
        bind(self, "browse", Browse(self.executor))
        bind(self, "history", History(self.executor))
        pii = self.writer.config.pii_mode  # one PII policy for every stored text
        bind(self, "admin", Admin(self.executor, self.embedder, pii))
        bind(self, "documents", Documents(self.executor, self.queue, self.jobs, pii))
        bind(self, "ontologies", self.writer.ontologies)
        bind(self, "webhooks", Webhooks(self.executor, self.jobs.webhooks))
        models = self.retriever.models
        if not isinstance(models, TenantModels):  # a retriever built without one (tests)
            models = TenantModels(self.executor)
            self.retriever.models = models
        bind(self, "learning", RankLearning(self.executor, self.retriever, models))

    @property
    def llm_mode(self) -> str:
        """``openai-compatible`` when an LLM endpoint is configured, else ``offline``."""
        return "openai-compatible" if self.llm is not None else "offline"

    @property
    def write_config(self) -> WriteConfig:
        return self.writer.config

    @property
    def retrieve_config(self) -> RetrieveConfig:
        return self.retriever.config

    def offline_writer(self) -> WritePipeline:
        """The write pipeline with this process's config but no LLM (seeding, demos)."""
        return WritePipeline(self.executor, self.embedder, None, self.writer.config)

    def job_deps(self) -> JobDeps:
        """What job handlers share: this process's queue, providers, config and writer."""
        return JobDeps(
            executor=self.executor,
            queue=self.queue,
            embedder=self.embedder,
            llm=self.llm,
            config=self.jobs,
            writer=self.writer,
        )

    async def write_async(
        self,
        agent_id: str,
        message: str,
        speaker_name: str,
        *,
        occurred_at: datetime | None = None,
        thread_id: str | None = None,
        recent_messages: list[str] | None = None,
        config_overrides: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncWriteAccepted:
        """Log the message as an event now and enqueue its extraction (an ``extract`` job the
        worker runs with :attr:`writer`).

        Raises:
            ConfigError: ``config_overrides`` has an unknown key or a wrongly typed value.
            BadInput: empty agent id.
            PIIRejected: the message holds a secret and the PII mode rejects it.
        """
        cfg = apply_overrides(self.writer.config, config_overrides)  # fail now, not in the job
        return await write_async(
            self.executor,
            self.queue,
            agent_id,
            message,
            speaker_name,
            embedder=self.embedder,
            occurred_at=occurred_at,
            thread_id=thread_id,
            recent_messages=recent_messages,
            config_overrides=config_overrides,
            idempotency_key=idempotency_key,
            pii_mode=cfg.pii_mode,
            max_chars=cfg.max_message_chars,
            recent_max=cfg.recent_messages_max,
            recent_chars=cfg.recent_message_chars,
        )

    async def erase(self, target: EraseTarget) -> EraseReport:
        """Run an erase (:func:`graph.memory.erase.erase`), then drop this process's in-memory
        caches of embedded text (:meth:`drop_caches`): their vectors may stand for erased
        text. Other processes keep theirs (keyed digests and vectors, no text) until evicted or
        restarted."""
        try:
            return await erase(self.executor, target, queue=self.queue)
        finally:
            self.drop_caches()

    def drop_caches(self) -> None:
        """Clear every in-process cache of embedded text: the embedder's and the re-scorer's
        (and the re-scorer's embedder's)."""
        rescorer = self.retriever.rescorer
        holders: list[object] = [self.embedder]
        if rescorer is not None:
            holders += [rescorer, rescorer.embedder]
        for holder in holders:
            clear = getattr(holder, "clear_cache", None)
            if callable(clear):
                clear()

    async def close(self) -> None:
        """Close the Neo4j driver (only the owner of the executor calls this)."""
        await self.executor.close()
