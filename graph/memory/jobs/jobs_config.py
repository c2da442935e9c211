"""Configuration of the job system (plain dataclasses; ``server/`` fills them from settings)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "DocumentConfig",
    "JobsConfig",
    "MaintenanceConfig",
    "RetentionConfig",
    "WebhookConfig",
    "WorkerConfig",
]


@dataclass(frozen=True)
class WorkerConfig:
    """Queue mechanics."""

    poll_interval_s: float = 2.0  # idle wait between empty leases (jittered ±25 %)
    lease_timeout_s: float = 300.0  # a lease older than this is reaped (crashed worker)
    reaper_interval_s: float = 60.0
    shutdown_grace_s: float = 10.0  # time the current job gets to finish on stop
    max_attempts: int = 3
    # A running job renews its lease every lease_timeout_s / 3 (heartbeat), so only a dead or
    # stalled worker's lease expires.
    heartbeat_fraction: float = 1 / 3
    # Orphan sweep: events logged this long ago and never extracted get an `extract` job.
    # 600 s: longer than the slowest legitimate synchronous write (see
    # WriteConfig.pending_receipt_ttl_s), so the sweep does not race a live write (if it
    # did, the event lock in the commit lets only one extraction commit).
    orphan_after_s: float = 600.0
    orphan_sweep_interval_s: float = 60.0  # 0 disables the sweep
    orphan_batch: int = 100  # events queued per sweep (bounded work per run)


@dataclass(frozen=True)
class MaintenanceConfig:
    """Consolidation, profiles, importance, decay and duplicate detection."""

    profile_top_facts: int = 12
    profile_max_chars: int = 1_200
    consolidate_similarity: float = 0.75  # embedding cosine that links two facts in a cluster
    consolidate_min_cluster: int = 2
    consolidate_max_facts: int = 2_000  # facts scanned per agent per run
    consolidate_max_observations: int = 50
    merge_candidate_threshold: float = 0.80  # create a MergeCandidate at or above
    merge_auto_threshold: float = 0.97  # merge automatically at or above (1.01 disables)
    # retrieval frequency, recency of use, reinforcement, entity centrality (sum 1)
    importance_weights: tuple[float, float, float, float] = (0.35, 0.25, 0.25, 0.15)
    importance_max_boost: float = 0.5  # share of the headroom (1 - base) usage can add
    stale_factor: float = 0.5  # importance multiplier of facts past valid_until
    recency_half_life_days: float = 14.0
    profile_batch: int = 200  # entities refreshed per profile job
    # The embedder's cosine of unrelated texts (``Embedder.similarity_floor``): the cosines
    # above are read above it, ``floor + t·(1 − floor)``, as the write thresholds are.
    similarity_floor: float = 0.0

    def cosine(self, threshold: float) -> float:
        """A threshold written for a floor-0 embedder, on this embedder's cosine scale."""
        return self.similarity_floor + threshold * (1.0 - self.similarity_floor)


@dataclass(frozen=True)
class DocumentConfig:
    """Document ingest and URL fetch."""

    chunk_chars: int = 1_200
    chunk_overlap: int = 150
    max_bytes: int = 10 * 1024 * 1024
    # Bytes of documents one API key may ingest per window (0: no quota). Keys without a
    # stored key node (the operator's CLI, auth off) are not charged.
    quota_bytes: int = 100 * 1024 * 1024
    quota_window_s: float = 86_400.0
    fetch_timeout_s: float = 20.0
    allow_private_urls: bool = False
    content_types: tuple[str, ...] = (
        "text/html",
        "text/plain",
        "text/markdown",
        "text/",
        "application/json",
        "application/xml",
        "application/xhtml+xml",
    )
    extract_chunks: bool = True  # run fact extraction per chunk (as jobs)


@dataclass(frozen=True)
class RetentionConfig:
    """Time-to-live per kind of record, in seconds (0: kept forever); see
    ``graph/memory/maintenance/retention.py``."""

    events_s: float = 0.0  # stored messages
    receipts_s: float = 30 * 86_400.0  # idempotency receipts
    jobs_s: float = 30 * 86_400.0  # finished (done / dead) jobs
    dedup_s: float = 7 * 86_400.0  # job dedup slots without an active job
    audit_text_s: float = 0.0  # text and reason of audit records (the record stays, hashed)
    audits_s: float = 0.0  # audit records themselves
    batch: int = 1_000  # rows per statement
    max_batches: int = 50  # statements per kind and run (bounded work per job)


@dataclass(frozen=True)
class WebhookConfig:
    """Webhook deliveries (``graph/memory/webhooks``): how often the sender looks for new
    memory events, how it retries, and which targets it may contact."""

    poll_s: float = 1.0  # between two looks for new events and due deliveries
    max_attempts: int = 8  # then the delivery is dead-lettered (status dead, kept)
    backoff_base_s: float = 5.0  # first retry after about this long, doubling
    backoff_cap_s: float = 3_600.0  # no retry waits longer
    timeout_s: float = 10.0  # one attempt, connection and answer
    lease_s: float = 60.0  # an attempt whose sender died is retried after this long
    # Events committed this long before the last look are looked at again (a transaction
    # stamps its records before it commits); a delivery is made once whatever the overlap.
    lookback_s: float = 30.0
    allow_private: bool = False  # loopback, private and link-local targets (tests, labs)
    retention_s: float = 7 * 86_400.0  # delivered and dead deliveries kept this long
    batch: int = 16  # deliveries sent at once per sender


@dataclass(frozen=True)
class JobsConfig:
    worker: WorkerConfig = field(default_factory=WorkerConfig)
    maintenance: MaintenanceConfig = field(default_factory=MaintenanceConfig)
    documents: DocumentConfig = field(default_factory=DocumentConfig)
    retention: RetentionConfig = field(default_factory=RetentionConfig)
    webhooks: WebhookConfig = field(default_factory=WebhookConfig)
    # kind -> seconds between scheduled runs per agent (0 disables that kind); the composition
    # root fills it from the settings (``server.composition.jobs_config``); empty: nothing runs
    # on a schedule
    schedule: dict[str, float] = field(default_factory=dict)
    scheduler_tick_s: float = 60.0
    concurrency: int = 1  # worker loops per process
    scheduler_enabled: bool = True  # the first loop also enqueues periodic jobs
