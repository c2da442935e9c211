"""GraphQL over HTTP: requests/s and latency percentiles for ``retrieve`` and ``entity`` with
16 concurrent clients on loopback, offline mode (no LLM), against the seeded demo agent.

    .venv/bin/python -m tests.bench.bench_api [--requests 400] [--clients 16]

A ``{ __typename }`` query (no Neo4j round trip) is measured in the same run as the baseline for
the HTTP + GraphQL overhead. The API runs in-process (uvicorn in a thread, one worker).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import socket
import statistics
import threading
import time
from typing import Any

import httpx
import uvicorn

from graph.progress import progress_bar
from seed.__main__ import seed
from server.app import create_app
from server.settings import Settings

OPERATIONS: dict[str, str] = {
    "typename (baseline)": "{ __typename }",
    "entity": """{ entity(agentId: "demo", key: "person:guilherme_maturana") {
        name aliases facts { text active } relationships { type targetName } } }""",
    "retrieve": """{ retrieve(agentId: "demo", query: "Where does Guilherme live and work?") {
        context facts { text score } } }""",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _seed(settings: Settings) -> None:
    await seed(settings, "demo", progress=False)


async def _measure(url: str, headers: dict[str, str], query: str, total: int, clients: int,
                   label: str) -> dict[str, Any]:
    latencies: list[float] = []
    errors = 0
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(total):
        queue.put_nowait(i)
    bar = progress_bar(total=total, desc=label, unit="req", leave=False)
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(headers=headers, timeout=120, limits=limits) as client:

        async def worker() -> None:
            nonlocal errors
            while not queue.empty():
                queue.get_nowait()
                started = time.perf_counter()
                resp = await client.post(url, json={"query": query})
                latencies.append(time.perf_counter() - started)
                if resp.status_code != 200 or "errors" in resp.json():
                    errors += 1
                bar.update()

        for _ in range(3):  # warm-up (model load, query plans, connection pool)
            await client.post(url, json={"query": query})
        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        wall = time.perf_counter() - started
    bar.close()
    latencies.sort()
    return {
        "rps": total / wall,
        "p50": statistics.median(latencies) * 1000,
        "p95": latencies[int(0.95 * (len(latencies) - 1))] * 1000,
        "p99": latencies[int(0.99 * (len(latencies) - 1))] * 1000,
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per operation")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients")
    args = parser.parse_args()

    admin = "hg_bench_" + secrets.token_urlsafe(32)
    settings = Settings(admin_api_key=admin, rate_limit_per_minute=0, llm_base_url=None,
                        llm_api_key=None, auth_disabled=False, worker_enabled=False)
    asyncio.run(_seed(settings))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.1)
    url = f"http://127.0.0.1:{port}/graphql"
    headers = {"Authorization": f"Bearer {admin}"}
    results = {}
    try:
        for label, query in OPERATIONS.items():
            results[label] = asyncio.run(
                _measure(url, headers, query, args.requests, args.clients, label))
    finally:
        server.should_exit = True
        thread.join(timeout=30)

    base = results["typename (baseline)"]["rps"]
    print(f"\nGraphQL over HTTP, {args.clients} concurrent clients, {args.requests} requests each,"
          " loopback, offline, demo agent")
    print(f"{'operation':<20}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}"
          f"{'vs baseline':>13}")
    for label, r in results.items():
        print(f"{label:<20}{r['rps']:>9.1f}{r['p50']:>9.1f}{r['p95']:>9.1f}{r['p99']:>9.1f}"
              f"{r['errors']:>8}{r['rps'] / base:>12.2f}x")


if __name__ == "__main__":
    main()
