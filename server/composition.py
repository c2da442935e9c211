"""The composition root: settings → :class:`graph.memory.facade.Memory`, once per process.

Every entry point builds its services here and nowhere else:

* the API lifespan (``server/app.py``) → ``app.state.memory`` → the GraphQL context;
* the worker (``server/worker.py``, in the API process or ``hippograph worker``) →
  ``memory.job_deps()``;
* the CLI commands (``server/cli/``) and the seed (``python -m seed`` → ``seed/loader.py``);
* the integration tests (with a test embedder / scripted LLM / a shared executor).

Settings are mapped onto the pipeline configurations by exactly one function each:
:func:`write_config`, :func:`retrieve_config` and :func:`jobs_config` (which holds the periodic
schedule of each maintenance kind). :func:`default_handlers` is the registry of job kinds → the
handlers a standard worker runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graph.executor import Executor, connect
from graph.memory.documents.ingest import chunk_extract_handler, document_ingest_handler
from graph.memory.facade import Memory
from graph.memory.jobs import (
    DocumentConfig,
    Handler,
    JobQueue,
    JobsConfig,
    MaintenanceConfig,
    RetentionConfig,
    WebhookConfig,
    WorkerConfig,
)
from graph.memory.jobs.async_write import extract_handler
from graph.memory.learning import TenantModels
from graph.memory.maintenance.consolidate import consolidate_handler
from graph.memory.maintenance.duplicates import dedup_handler
from graph.memory.maintenance.importance import decay_handler, importance_handler
from graph.memory.maintenance.kinds import JOB_KINDS
from graph.memory.maintenance.profiles import profile_handler
from graph.memory.maintenance.retention import retention_handler
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.rerank import EmbeddingRescorer
from graph.memory.read.retriever import Retriever
from graph.memory.write.config import WriteConfig
from graph.memory.write.pipeline import WritePipeline
from graph.providers import (
    ChatLLM,
    E5Embedder,
    Embedder,
    HashEmbedder,
    MiniLMEmbedder,
    OpenAIChat,
    OpenAIEmbedder,
)
from graph.providers.base import read_options
from graph.providers.embedders import E5_VARIANTS, find_tokenizer
from server.settings import Settings

if TYPE_CHECKING:
    import openai

__all__ = [
    "KINDS",
    "Memory",
    "build_embedder",
    "build_llm",
    "build_memory",
    "build_rescorer",
    "connect_executor",
    "default_handlers",
    "jobs_config",
    "retrieve_config",
    "write_config",
]


KINDS = tuple(JOB_KINDS)


def default_handlers(*, with_extraction: bool = True) -> dict[str, Handler]:
    """Every built-in job kind → its handler. ``with_extraction=False`` leaves out the kinds
    that need the write pipeline (a worker without one must not lease them)."""
    handlers: dict[str, Handler] = {
        "document_ingest": document_ingest_handler,
        "profile": profile_handler,
        "consolidate": consolidate_handler,
        "importance": importance_handler,
        "decay": decay_handler,
        "dedup_entities": dedup_handler,
        "retention": retention_handler,
    }
    if with_extraction:
        handlers["extract"] = extract_handler
        handlers["chunk_extract"] = chunk_extract_handler
    return handlers


def write_config(settings: Settings) -> WriteConfig:
    """Deployment settings → ``WriteConfig`` (the pipeline itself never reads settings)."""
    return WriteConfig(
        mode=settings.write_mode,
        mutations_frozen=settings.mutations_frozen,
        pii_mode=settings.pii_mode,
        max_message_chars=settings.max_message_chars,
        pending_receipt_ttl_s=settings.write_pending_receipt_ttl_s,
    )


def retrieve_config(settings: Settings, embedder: Embedder | None = None) -> RetrieveConfig:
    """Deployment settings → ``RetrieveConfig`` (no read option is a deployment setting yet:
    per-call ``options`` tune it); the embedder's similarity floor (``ranking.calibrate``)
    comes from ``embedder``, by default the one the settings configure."""
    if embedder is not None:
        return RetrieveConfig().with_options(read_options(embedder))
    model = E5Embedder if settings.embedder.startswith("e5") else None  # without loading it
    return RetrieveConfig().with_options(read_options(model) if model else {})


def configured_floor(settings: Settings) -> float:
    """The configured embedder's similarity floor, without loading the model."""
    return E5Embedder.similarity_floor if settings.embedder.startswith("e5") else 0.0


def jobs_config(settings: Settings) -> JobsConfig:
    """Deployment settings → the job system's configuration."""
    return JobsConfig(
        worker=WorkerConfig(
            poll_interval_s=settings.worker_poll_interval_s,
            lease_timeout_s=settings.job_lease_timeout_s,
            reaper_interval_s=settings.job_reaper_interval_s,
            shutdown_grace_s=settings.worker_shutdown_grace_s,
            max_attempts=settings.job_max_attempts,
            orphan_after_s=settings.orphan_after_s,
            orphan_sweep_interval_s=settings.orphan_sweep_interval_s,
            orphan_batch=settings.orphan_batch,
        ),
        maintenance=MaintenanceConfig(
            merge_candidate_threshold=settings.merge_candidate_threshold,
            merge_auto_threshold=settings.merge_auto_threshold,
            similarity_floor=configured_floor(settings),
        ),
        documents=DocumentConfig(
            chunk_chars=settings.document_chunk_chars,
            chunk_overlap=settings.document_chunk_overlap,
            max_bytes=settings.document_max_bytes,
            quota_bytes=settings.document_quota_bytes,
            quota_window_s=settings.document_quota_window_s,
            fetch_timeout_s=settings.url_fetch_timeout_s,
            allow_private_urls=settings.url_fetch_allow_private,
        ),
        schedule={
            "profile": settings.schedule_profile_s,
            "consolidate": settings.schedule_consolidate_s,
            "importance": settings.schedule_importance_s,
            "decay": settings.schedule_decay_s,
            "dedup_entities": settings.schedule_dedup_s,
            "retention": settings.schedule_retention_s,
        },
        webhooks=WebhookConfig(
            poll_s=settings.webhook_poll_s,
            max_attempts=settings.webhook_max_attempts,
            backoff_base_s=settings.webhook_backoff_base_s,
            backoff_cap_s=settings.webhook_backoff_cap_s,
            timeout_s=settings.webhook_timeout_s,
            lease_s=settings.webhook_lease_s,
            lookback_s=settings.webhook_lookback_s,
            allow_private=settings.webhook_allow_private,
            retention_s=settings.webhook_retention_s,
        ),
        retention=RetentionConfig(
            events_s=settings.retention_events_s,
            receipts_s=settings.retention_receipts_s,
            jobs_s=settings.retention_jobs_s,
            dedup_s=settings.retention_dedup_s,
            audit_text_s=settings.retention_audit_text_s,
            audits_s=settings.retention_audits_s,
        ),
        scheduler_tick_s=settings.scheduler_tick_s,
        concurrency=settings.worker_concurrency,
        scheduler_enabled=settings.scheduler_enabled,
    )


def _openai_client(settings: Settings) -> openai.AsyncOpenAI:
    import openai  # a second of imports, paid only by a process that talks to a model endpoint

    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    return openai.AsyncOpenAI(
        base_url=settings.llm_base_url, api_key=key, max_retries=0, timeout=settings.llm_timeout_s
    )


def build_embedder(settings: Settings) -> Embedder:
    if settings.embedder in ("e5", "e5-enpt"):
        return E5Embedder("enpt" if settings.embedder == "e5-enpt" else "original")
    if settings.embedder == "hash":
        return HashEmbedder(settings.embedding_dimensions)
    if settings.embedder == "openai":
        return OpenAIEmbedder(
            _openai_client(settings), settings.embedding_model, settings.embedding_dimensions
        )
    return MiniLMEmbedder(find_tokenizer(settings.home))


def build_rescorer(
    settings: Settings, embedder: Embedder | None = None
) -> EmbeddingRescorer | None:
    """The second-stage re-scorer of the settings (None: off); reuses ``embedder`` when it is
    the same model."""
    if settings.rescorer == "off":
        return None
    variant = "enpt" if settings.rescorer == "e5-enpt" else "original"
    if embedder is not None and embedder.name == E5_VARIANTS[variant]:
        return EmbeddingRescorer(embedder)
    return EmbeddingRescorer(E5Embedder(variant))


def build_llm(settings: Settings) -> ChatLLM | None:
    """The OpenAI-compatible chat provider, or None (offline mode) when no endpoint is set."""
    if not settings.llm_enabled:
        return None
    return OpenAIChat(
        _openai_client(settings),
        settings.model_for,
        timeout_s=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
    )


def connect_executor(settings: Settings) -> Executor:
    """A pooled executor for the configured Neo4j (no I/O until the first query); every
    transaction carries the configured transaction timeout."""
    return connect(
        settings.bolt_uri,
        settings.neo4j_user,
        settings.neo4j_secret(),
        settings.neo4j_database,
        tx_timeout_s=settings.neo4j_tx_timeout_s,
    )


def build_memory(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    llm: ChatLLM | None = None,
    executor: Executor | None = None,
) -> Memory:
    """Every service of a process from one settings object.

    ``embedder``/``llm``/``executor`` replace the ones settings would build (tests pass a
    deterministic embedder, a scripted LLM or the shared test executor). ``llm=None`` means
    "from settings": offline unless an LLM endpoint is configured.
    """
    ex = executor if executor is not None else connect_executor(settings)
    emb = embedder if embedder is not None else build_embedder(settings)
    chat = llm if llm is not None else build_llm(settings)
    return Memory(
        executor=ex,
        embedder=emb,
        llm=chat,
        writer=WritePipeline(ex, emb, chat, write_config(settings)),
        retriever=Retriever(
            ex,
            emb,
            chat,
            retrieve_config(settings, emb),
            build_rescorer(settings, emb),
            pii_mode=settings.pii_mode,
            models=TenantModels(ex),
        ),
        queue=JobQueue(ex),
        jobs=jobs_config(settings),
    )
