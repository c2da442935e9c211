"""GraphQL over HTTP, 1 API process vs N: requests/s, p50/p95 latency and the API's CPU time per
request for ``retrieve`` and ``entity`` with concurrent clients on loopback, offline mode (no
LLM), against the seeded demo agent.

    .venv/bin/python -m tests.bench.bench_api [--requests 300] [--clients 16] [--processes 1,2]

Each configuration is ``hippograph serve --workers P`` as a subprocess (auth on, no rate limit, no
in-process job worker); the client runs in this process. A ``{ __typename }`` query (no Neo4j
round trip) is the baseline for the HTTP + GraphQL overhead. The default N is the ``make run``
rule, min(cores, 4). ``cpu ms/req`` is the CPU time the API processes (all workers) spent per
request, read from /proc: on a shared machine it moves much less than req/s does. The load
average is printed before and after, since other work on the machine changes every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from graph.progress import progress_bar
from seed.__main__ import seed
from server.cli.serve import default_workers
from server.settings import Settings
from tests.processes import stop

ROOT = Path(__file__).resolve().parents[2]

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


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f}/{five:.1f} (1/5 min, {os.cpu_count()} cores)"


def _tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its children (the uvicorn workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ppid = int(fields[1])
        if int(entry.name) == pid or ppid == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class ApiProcesses:
    """``hippograph serve --workers P`` on a free port, ready once /healthz answers."""

    def __init__(self, workers: int, admin: str) -> None:
        self.port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("HIPPOGRAPH_LLM")}
        env.update(
            {
                "HIPPOGRAPH_ADMIN_API_KEY": admin,
                "HIPPOGRAPH_AUTH_DISABLED": "false",
                "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "0",
                "HIPPOGRAPH_WORKER_ENABLED": "false",
                "HIPPOGRAPH_API_PROCESSES": str(workers),
                "PYTHONPATH": str(ROOT),
            }
        )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from server.cli import main; main()",
                "serve",
                "--port",
                str(self.port),
                "--workers",
                str(workers),
            ],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"http://127.0.0.1:{self.port}/graphql"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"hippograph serve exited with {self.proc.returncode}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=1).is_success:
                    return
            except httpx.HTTPError:
                time.sleep(0.3)
        self.close()
        raise RuntimeError("the API did not come up in 180 s")

    def cpu_s(self) -> float:
        return _tree_cpu_s(self.proc.pid)

    def close(self) -> None:
        stop(self.proc)


async def _measure(
    api: ApiProcesses, headers: dict[str, str], query: str, total: int, clients: int, label: str
) -> dict[str, Any]:
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
                resp = await client.post(api.url, json={"query": query})
                latencies.append(time.perf_counter() - started)
                if resp.status_code != 200 or "errors" in resp.json():
                    errors += 1
                bar.update()

        # Warm-up on every connection (each worker process loads its models and plans).
        await asyncio.gather(
            *(client.post(api.url, json={"query": query}) for _ in range(2 * clients))
        )
        cpu0 = api.cpu_s()
        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        wall = time.perf_counter() - started
        cpu = api.cpu_s() - cpu0
    bar.close()
    latencies.sort()
    return {
        "rps": total / wall,
        "p50": statistics.median(latencies) * 1000,
        "p95": latencies[int(0.95 * (len(latencies) - 1))] * 1000,
        "cpu_ms": cpu / total * 1000,
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per operation")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients")
    parser.add_argument(
        "--processes",
        default=f"1,{max(2, default_workers())}",
        help="API process counts to compare (default 1,min(cores,4))",
    )
    args = parser.parse_args()
    counts = [int(p) for p in args.processes.split(",")]

    admin = "hg_bench_" + secrets.token_urlsafe(32)
    asyncio.run(seed(Settings(llm_base_url=None, llm_api_key=None), "demo", progress=False))
    headers = {"Authorization": f"Bearer {admin}"}
    load_before = _load()
    results: dict[int, dict[str, dict[str, Any]]] = {}
    for n in counts:
        api = ApiProcesses(n, admin)
        try:
            results[n] = {
                label: asyncio.run(
                    _measure(api, headers, query, args.requests, args.clients, f"{label} x{n}")
                )
                for label, query in OPERATIONS.items()
            }
        finally:
            api.close()
    load_after = _load()

    print(
        f"\nGraphQL over HTTP, {args.clients} concurrent clients, {args.requests} requests per "
        "operation, loopback, offline, demo agent"
    )
    print(f"load average before {load_before}, after {load_after}")
    print(
        f"{'operation':<20}{'procs':>6}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}"
        f"{'cpu ms/req':>12}{'errors':>8}{'vs 1 proc':>11}"
    )
    for label in OPERATIONS:
        base = results[counts[0]][label]["rps"]
        for n in counts:
            r = results[n][label]
            print(
                f"{label:<20}{n:>6}{r['rps']:>9.1f}{r['p50']:>9.1f}{r['p95']:>9.1f}"
                f"{r['cpu_ms']:>12.1f}{r['errors']:>8}{r['rps'] / base:>10.2f}x"
            )


if __name__ == "__main__":
    main()
