"""Errors raised by the graph layer. Callers above (pipelines, GraphQL) map them to user codes."""

from __future__ import annotations

__all__ = [
    "BadInput",
    "ConfigError",
    "EmbedderMismatch",
    "FencedOut",
    "GraphError",
    "GraphTimeout",
    "GraphUnavailable",
    "NotFound",
    "WriteInProgress",
]


class GraphError(Exception):
    """Root of every error the graph layer raises on purpose."""


class GraphUnavailable(GraphError):
    """Neo4j cannot be reached (down, restarting, network); the call may be retried later."""

    job_error_code = "STORE_UNAVAILABLE"  # a failed job's ``last_error_code``


class GraphBusy(GraphUnavailable):
    """Every connection of the driver's pool stayed in use past its acquisition timeout: the
    server is overloaded, not down (the circuit breaker does not open on it)."""


class GraphTimeout(GraphUnavailable):
    """A transaction ran past the transaction timeout and was terminated by Neo4j."""


class NotFound(GraphError):
    """The node the caller named does not exist for that agent."""


class BadInput(GraphError):
    """The caller's input was rejected before it reached Neo4j (the message says why)."""


class ConfigError(BadInput):
    """A per-call override (``config_overrides`` of write, ``options`` of retrieve) named an
    unknown option or gave a wrongly typed / out-of-range value (GraphQL: ``BAD_INPUT``)."""


class WriteInProgress(GraphError):
    """Another call holds this idempotency key and has not finished yet (GraphQL:
    ``IN_PROGRESS``). Retry after ``retry_after_s``: a claim whose writer died expires after
    the operator's ``pending_receipt_ttl_s`` and is then taken over by the retry."""

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class FencedOut(GraphError):
    """A job's work reached its commit after its lease was lost (reaped, then leased by another
    worker): the fencing token no longer matches, so the transaction committed nothing."""


class EmbedderMismatch(GraphError):
    """The agent's stored vectors come from another embedding model than this process's:
    comparing them with this model's vectors would rank by noise, so nothing is written or
    read (GraphQL: ``EMBEDDER_MISMATCH``). ``hippograph reembed --agent ID`` re-embeds the
    agent with the configured model; or run the process with the agent's model."""

    def __init__(self, agent_id: str, recorded: str, current: str) -> None:
        super().__init__(
            f"agent {agent_id!r} was embedded with {recorded!r}, this server embeds with "
            f"{current!r}; run `hippograph reembed --agent {agent_id}` or set "
            "HIPPOGRAPH_EMBEDDER to the agent's model"
        )
        self.agent_id = agent_id
        self.recorded = recorded
        self.current = current
