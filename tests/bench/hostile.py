"""Hostile requests against a real API process on loopback: how fast each is refused, how long
a concurrent health check (``GET /healthz``) waits meanwhile, and that no message is lost or
doubled.

    .venv/bin/python -m tests.bench.hostile [--rounds 3]

The API runs as ``uvicorn server.app:create_app`` (auth off, as ``make run`` serves it, rate
limit 60/min) over the local Neo4j; a client in this process sends each attack ``--rounds``
times while another task polls ``/healthz`` every 10 ms (served by the same event loop, outside
the GraphQL rate budget, which the polls would otherwise use up before the attacks). Attacks: fragment chains (18, 30
and 60 fragments each spreading the next twice), a foreign Host (DNS rebinding), a cross-site
Origin, 30 aliased retrieves, a write carrying 200 huge earlier messages (1.9 MB). The last
line counts the probe agent's stored messages against the writes that succeeded. The answers
column lists each distinct answer over the rounds (a budget of 60 requests a minute lets the
first battery of 30 retrieves run; the next ones are refused).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from graph.admin import delete_agent
from graph.executor import connect
from server.settings import Settings
from tests.cypher import load_query
from tests.unit.gql.test_fragment_chains import chain

ROOT = Path(__file__).resolve().parents[2]
HEALTH = {"query": "{ health { ready } }"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def attacks(agent: str) -> dict[str, tuple[dict[str, Any], dict[str, str]]]:
    """name → (JSON body, extra headers)."""
    battery = " ".join(f'r{i}: retrieve(agentId: "{agent}", query: "q{i}") {{ context }}'
                       for i in range(30))
    huge = ["x " * 4_700 for _ in range(200)]
    write = ('mutation($a: ID!, $r: [String!]) { write(agentId: $a, speakerName: "Ana", '
             'message: "I live in Porto.", recentMessages: $r) { outcome { success } } }')
    return {
        "write + 200 huge recentMessages": (
            {"query": write, "variables": {"a": agent, "r": huge}}, {}),
        "fragment chain x18": ({"query": chain(18)}, {}),
        "fragment chain x30": ({"query": chain(30)}, {}),
        "fragment chain x60": ({"query": chain(60)}, {}),
        "Host: evil.example": (HEALTH, {"host": "evil.example"}),
        "Origin: evil.example": (HEALTH, {"origin": "http://evil.example"}),
        "30 aliased retrieves": ({"query": f"{{ {battery} }}"}, {}),
    }


async def health_poller(client: httpx.AsyncClient, stop: asyncio.Event,
                        waits: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        answer = await client.get("/healthz")
        if answer.status_code != 200:
            raise RuntimeError(f"/healthz answered {answer.status_code}")
        waits.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0.01)


async def run(rounds: int) -> None:
    settings = Settings()
    port = _free_port()
    env = {**os.environ, "HIPPOGRAPH_AUTH_DISABLED": "true", "HIPPOGRAPH_WORKER_ENABLED": "false",
           "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "60", "HIPPOGRAPH_API_PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "server.app:create_app",
                             "--factory", "--host", "127.0.0.1", "--port", str(port),
                             "--log-level", "warning"], cwd=ROOT, env=env)
    agent = f"hostile-{uuid.uuid4().hex[:8]}"
    executor = connect(settings.bolt_uri, settings.neo4j_user,
                       settings.neo4j_secret(), settings.neo4j_database)
    base = f"http://127.0.0.1:{port}"
    rows: list[str] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=120) as client, \
                httpx.AsyncClient(base_url=base, timeout=120) as prober:
            for _ in range(300):
                try:
                    if (await client.post("/graphql", json=HEALTH)).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.2)
            writes_ok = 0
            for name, (body, headers) in attacks(agent).items():
                refused_ms: list[float] = []
                outcomes: list[str] = []
                waits: list[float] = []
                stop = asyncio.Event()
                poll = asyncio.create_task(health_poller(prober, stop, waits))
                for _ in range(rounds):
                    start = time.perf_counter()
                    answer = await client.post("/graphql", json=body, headers=headers)
                    refused_ms.append((time.perf_counter() - start) * 1000)
                    data = answer.json()
                    errors = data.get("errors") or []
                    outcomes.append(errors[0].get("extensions", {}).get("code", "?") if errors
                                    else "answered")
                    outcome_of = ((data.get("data") or {}).get("write") or {}).get("outcome") or {}
                    if outcome_of.get("success"):
                        writes_ok += 1
                await asyncio.sleep(0.05)
                stop.set()
                await poll
                outcome = ",".join(dict.fromkeys(outcomes))
                rows.append(f"{name:<34} {outcome:<24} {max(refused_ms):>9.1f} "
                            f"{max(waits) if waits else 0:>13.1f}")
            counts = await executor.run_text(load_query("agent_counts"), {"agent_id": agent},
                                             read=True)
            stored = sum(r["nodes"] for r in counts if r["label"] == "Event")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        await delete_agent(executor, agent)
        await executor.close()
    print(f"\n{'attack':<34} {'answers':<24} {'max ms':>9} {'health max ms':>13}")
    print("\n".join(rows))
    print(f"\nmessages: {writes_ok} writes succeeded, {stored} stored "
          f"-> lost {max(0, writes_ok - stored)}, duplicated {max(0, stored - writes_ok)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(run(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
