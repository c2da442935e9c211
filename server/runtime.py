"""Glue between settings and the local Neo4j runtime."""

from __future__ import annotations

from graph.runtime import LocalNeo4j, RuntimeConfig
from server.settings import Settings, get_settings


def local_neo4j(settings: Settings | None = None) -> LocalNeo4j:
    s = settings or get_settings()
    return LocalNeo4j(
        RuntimeConfig(
            home=s.home,
            password=s.neo4j_password.get_secret_value(),
            bolt_port=s.neo4j_bolt_port,
            http_port=s.neo4j_http_port,
            heap=s.neo4j_heap,
            pagecache=s.neo4j_pagecache,
            tx_memory=s.neo4j_tx_memory,
            tx_timeout_s=s.neo4j_tx_timeout_s,
            start_timeout_s=s.neo4j_start_timeout_s,
        )
    )
