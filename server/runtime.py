"""Glue between settings and the local Neo4j runtime."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
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


if __name__ == "__main__":
    sys.exit(install())
