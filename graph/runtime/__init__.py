"""The local Neo4j runtime: Community server, APOC and Browser assembled from Maven Central.

``server/`` (the CLI) builds a :class:`RuntimeConfig` from settings; nothing here reads the
environment.
"""

from graph.runtime.local_neo4j import LocalNeo4j, RuntimeConfig, RuntimeError_, Status

__all__ = ["LocalNeo4j", "RuntimeConfig", "RuntimeError_", "Status"]
