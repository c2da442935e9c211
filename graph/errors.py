"""Errors raised by the graph layer. Callers above (pipelines, GraphQL) map them to user codes."""

from __future__ import annotations

__all__ = ["BadInput", "ConfigError", "GraphError", "GraphTimeout", "GraphUnavailable", "NotFound"]


class GraphError(Exception):
    """Root of every error the graph layer raises on purpose."""


class GraphUnavailable(GraphError):
    """Neo4j cannot be reached (down, restarting, network); the call may be retried later."""


class GraphTimeout(GraphUnavailable):
    """A transaction ran past the transaction timeout and was terminated by Neo4j."""


class NotFound(GraphError):
    """The node the caller named does not exist for that agent."""


class BadInput(GraphError):
    """The caller's input was rejected before it reached Neo4j (the message says why)."""


class ConfigError(BadInput):
    """A per-call override (``config_overrides`` of write, ``options`` of retrieve) named an
    unknown option or gave a wrongly typed / out-of-range value (GraphQL: ``BAD_INPUT``)."""
