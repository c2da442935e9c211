"""Glue between settings and the local Neo4j runtime."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from graph.runtime import LocalNeo4j, RuntimeConfig, RuntimeError_
from server.browser_guide import post_connect_cmd
from server.settings import Settings, get_settings


def local_neo4j(settings: Settings | None = None) -> LocalNeo4j:
    s = settings or get_settings()
    return LocalNeo4j(
        RuntimeConfig(
            home=s.neo4j_home,
            password=s.neo4j_password.get_secret_value() if s.neo4j_password else None,
            bolt_port=s.neo4j_bolt_port,
            http_port=s.neo4j_http_port,
            heap=s.neo4j_heap,
            line=s.neo4j_line,
            java=s.neo4j_java,
            pagecache=s.neo4j_pagecache,
            tx_memory=s.neo4j_tx_memory,
            tx_timeout_s=s.neo4j_tx_timeout_s,
            start_timeout_s=s.neo4j_start_timeout_s,
            vector_merge_factor=s.neo4j_vector_merge_factor,
            min_replan_interval_s=s.neo4j_min_replan_interval_s,
            late_c2=s.neo4j_late_c2,
            class_archive=s.neo4j_class_archive,
            browser_allowlist=browser_allowlist(s),
            browser_post_connect_cmd=post_connect_cmd(api_url(s)),
            # A server in its own folder (the tests') reuses the jars of the home's install.
            jars_from=s.default_neo4j_home if s.neo4j_dir is not None else None,
            jar_cache=s.cache_dir / "neo4j" if s.cache_dir is not None else None,
        )
    )


def install(log: Callable[[str], object] = print) -> int:
    """`hippograph neo4j install` for the settings' local server: resolve or link its jars,
    write its configuration. Returns the exit code. ``python -m server.runtime`` runs it
    without loading the rest of the command line (scripts/bootstrap.sh)."""
    t0 = time.monotonic()
    try:
        changed = local_neo4j().install(log=log)
    except RuntimeError_ as exc:
        print(exc, file=sys.stderr)
        return 1
    log(f"{'installed' if changed else 'already installed'} in {time.monotonic() - t0:.1f}s")
    return 0


def api_url(settings: Settings) -> str:
    """Where the API answers, as a browser on this machine reaches it."""
    host = "127.0.0.1" if settings.api_host in ("0.0.0.0", "::") else settings.api_host
    return f"http://{host}:{settings.api_port}"


def browser_allowlist(settings: Settings) -> str:
    """Hosts Neo4j Browser may fetch guides and styles from: ours (and Browser's default)."""
    host = urlsplit(api_url(settings)).hostname or "127.0.0.1"
    return ", ".join(dict.fromkeys([host, "localhost"]))


def browser_url(settings: Settings) -> str:
    """The local Neo4j Browser, with the Bolt address and user filled in."""
    return (
        f"http://127.0.0.1:{settings.neo4j_http_port}/browser/"
        f"?dbms=bolt://{settings.neo4j_user}@127.0.0.1:{settings.neo4j_bolt_port}"
    )


@dataclass(frozen=True)
class Address:
    """One place a running Hippograph answers, and what a person goes there for."""

    what: str
    url: str
    why: str


def addresses(settings: Settings) -> list[Address]:
    """Every address ``hippograph up`` / ``serve`` serves (the API's routes, and the local Neo4j
    when it runs one), as it prints them before serving."""
    api = api_url(settings)
    rows = [
        Address(
            "GraphQL API + GraphiQL",
            f"{api}/graphql",
            "queries and mutations; in a browser, GraphiQL with example tabs",
        ),
        Address(
            "Memory explorer",
            f"{api}/explorer",
            "agents, search with score breakdowns, entities, graphs, timelines, review, webhooks",
        ),
        Address(
            "MCP (streamable HTTP)",
            f"{api}/mcp",
            "memory tools for agent clients; over stdio: `hippograph mcp`",
        ),
        Address("Health", f"{api}/healthz", "the process is up"),
        Address(
            "Readiness",
            f"{api}/readyz",
            "200 once Neo4j, the schema and the warm-up are ready, 503 until then",
        ),
        Address("Prometheus metrics", f"{api}/metrics", "request, job and pipeline counters"),
        Address("Neo4j Browser guide", f"{api}/browser-guide", "`:play` it in any Neo4j Browser"),
    ]
    if settings.local_neo4j:
        rows.append(
            Address(
                "Neo4j Browser",
                browser_url(settings),
                f"the graph itself, user {settings.neo4j_user}; the Hippograph guide opens "
                "after connecting",
            )
        )
        rows.append(
            Address("Bolt", f"bolt://127.0.0.1:{settings.neo4j_bolt_port}", "Neo4j drivers")
        )
    return rows


def address_lines(settings: Settings) -> list[str]:
    """:func:`addresses` as aligned lines for a terminal."""
    rows = addresses(settings)
    what = max(len(a.what) for a in rows)
    return [f"  {a.what:<{what}}  {a.url}  — {a.why}" for a in rows]


if __name__ == "__main__":
    sys.exit(install())
