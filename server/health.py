"""``/healthz`` (process up), ``/readyz`` (dependencies) and ``/metrics`` (Prometheus)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Histogram, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from graph.errors import GraphError
from graph.memory.facade import Memory
from graph.memory.warm_start import WarmStart
from graph.schema import SCHEMA_VERSION, schema_state

REQUESTS = Counter("hippograph_http_requests_total", "HTTP requests", ["path", "status"])
LATENCY = Histogram("hippograph_http_request_seconds", "HTTP request latency", ["path"])

__all__ = ["LATENCY", "REQUESTS", "Warming", "healthz", "metrics", "readiness", "readyz"]


@dataclass
class Warming:
    """The process's start-up warm-up (``graph.memory.warm_start``): None while it runs."""

    report: WarmStart | None = None

    @property
    def done(self) -> bool:
        return self.report is not None

    def describe(self) -> dict[str, Any]:
        if self.report is None:
            return {"done": False}
        return {
            "done": True,
            "seconds": round(self.report.total_s, 2),
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


async def readyz(request: Request) -> Response:
    report = await readiness(request.app.state.memory, request.app.state.warming)
    return JSONResponse(report, status_code=200 if report["ready"] else 503)


async def metrics(request: Request) -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
