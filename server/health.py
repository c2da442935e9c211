"""``/healthz`` (process up), ``/readyz`` (dependencies) and ``/metrics`` (Prometheus)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Histogram, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from graph.errors import GraphError
from graph.memory.facade import Memory
from graph.memory.warm_start import WarmStart
from graph.schema import SCHEMA_VERSION, schema_state
from server.start_group import StartGroup

REQUESTS = Counter("hippograph_http_requests_total", "HTTP requests", ["path", "status"])
LATENCY = Histogram("hippograph_http_request_seconds", "HTTP request latency", ["path"])

__all__ = [
    "LATENCY",
    "REQUESTS",
    "PublicReadiness",
    "Warming",
    "healthz",
    "metrics",
    "public_readiness",
    "readiness",
    "readyz",
]


@dataclass
class Warming:
    """The process's start-up warm-up (``graph.memory.warm_start``): None while it runs.
    With a ``group`` (the workers of one ``serve --workers N``), done only once every process
    of the group has warmed up (``server.start_group``)."""

    report: WarmStart | None = None
    group: StartGroup | None = None

    @property
    def done(self) -> bool:
        return self.report is not None and (self.group is None or self.group.all_warm())

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"done": self.done}
        if self.group is not None:
            out["processes_warm"] = f"{self.group.warm_count()}/{self.group.size}"
        if self.report is None:
            return out
        return {
            **out,
            "seconds": round(self.report.total_s, 2),
            "steps": {k: round(v, 2) for k, v in self.report.seconds.items()},
            "failed": sorted(self.report.failed),
        }


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readiness(memory: Memory, warming: Warming | None = None) -> dict[str, Any]:
    """What /readyz reports; ``ready`` is False when Neo4j or the schema is not usable, or the
    start-up warm-up (``warming``; None: none runs) has not finished: a process that reports
    ready answers its first requests as fast as the next ones."""
    ex = memory.executor
    report: dict[str, Any] = {
        "ready": False,
        "embedder": {"name": memory.embedder.name, "dimensions": memory.embedder.dimensions},
        "llm_mode": memory.llm_mode,
        "warm_up": (warming or Warming(WarmStart())).describe(),
    }
    try:
        comp = (await ex.run("schema/components", read=True))[0]
        report["neo4j"] = {
            "reachable": True,
            "version": comp["version"],
            "edition": comp["edition"],
        }
        state = await schema_state(ex)
        report["schema"] = {
            "version": state.version,
            "expected_version": SCHEMA_VERSION,
            "missing_migrations": list(state.missing),
            "indexes": state.indexes,
            "all_online": state.all_online,
        }
        plugins = (await ex.run("schema/procedures_like", read=True))[0]
        apoc = gds = None
        if plugins["apoc"]:
            apoc = (await ex.run("schema/apoc_version", read=True))[0]["version"]
        if plugins["gds"]:
            gds = (await ex.run("schema/gds_version", read=True))[0]["version"]
        report["apoc"] = {"available": apoc is not None, "version": apoc}
        report["gds"] = {"available": gds is not None, "version": gds}
        report["ready"] = (
            state.all_online and not state.missing and (warming is None or warming.done)
        )
    except (GraphError, OSError) as exc:
        report["neo4j"] = {"reachable": False, "error": type(exc).__name__}
    except Exception as exc:  # a driver error we did not expect must still give a JSON answer
        report["neo4j"] = {"reachable": False, "error": type(exc).__name__}
    return report


def public_readiness(report: dict[str, Any]) -> dict[str, Any]:
    """What /readyz tells a caller without a key: ready or not and why (Neo4j reachable, the
    warm-up), no versions, indexes or settings."""
    return {
        "ready": bool(report.get("ready")),
        "neo4j": {"reachable": bool((report.get("neo4j") or {}).get("reachable"))},
        "warm_up": report.get("warm_up", {"done": False}),
    }


@dataclass
class PublicReadiness:
    """The keyless /readyz answer, computed at most once per ``ttl_s`` (concurrent probes
    share one computation): a probe without a key cannot make the process query Neo4j more
    than about five times a second."""

    ttl_s: float = 1.0
    _report: dict[str, Any] | None = None
    _at: float = 0.0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def get(self, compute: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        async with self._lock:
            if self._report is None or time.monotonic() - self._at > self.ttl_s:
                self._report = public_readiness(await compute())
                self._at = time.monotonic()
            return self._report


async def readyz(request: Request) -> Response:
    """The readiness report: whole for a caller with a key (or with auth off), else only
    :func:`public_readiness` (``readyz_public``; the auth middleware refuses a keyless call
    when it is off)."""
    state = request.app.state

    async def compute() -> dict[str, Any]:
        return await readiness(state.memory, state.warming)

    if getattr(request.state, "principal", None) is not None:
        report = await compute()
    else:
        report = await state.public_readiness.get(compute)
    return JSONResponse(report, status_code=200 if report["ready"] else 503)


async def metrics(request: Request) -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
