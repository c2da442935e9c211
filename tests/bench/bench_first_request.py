"""The first ``retrieve`` and ``write`` a freshly started API process answers, against the next
ones: is the start-up warm-up (``graph.memory.warm_start``) doing its job?

    .venv/bin/python -m tests.bench.bench_first_request [--rounds 3] [--requests 20] [--keep]

Seeds an agent of ``--facts`` facts (in this process), then per round and arm empties Neo4j's
plan caches (``--keep-plans``: not), starts ``hippograph serve`` on a spare loopback port (auth
off, no job worker, offline), waits for ``/readyz`` and times over HTTP the first retrieve, the
first write, then ``--requests`` more of each, alternating. The ``warm`` arm is the default
start-up; the ``cold`` arm starts with ``HIPPOGRAPH_WARM_UP=false`` (ready at once, the first
requests load the models), the baseline measured in the same run. Prints per arm the median of
the first requests over the rounds, the steady median and their ratio (first / steady; the
target is at most 2), the time from start to ready, and the load average.

Runs on the configured Neo4j (``scripts/test-env.sh`` for the tests' server). The agent is
deleted at the end; ``--keep`` keeps it (its id is printed; ``hippograph erase --agent ID
--all`` removes it later).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx

from graph.agent_deletion import delete_agent
from graph.memory.remember import remember
from graph.memory.write import StructuredFact
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.composition import build_embedder, connect_executor
from server.settings import Settings
from tests.cypher import load_query
from tests.processes import stop

HIPPOGRAPH = str(Path(sys.executable).with_name("hippograph"))
PEOPLE = ("Ana", "Bruno", "Carla", "Davi", "Elisa", "Fábio", "Gabi", "Hugo", "Iara", "João")
PLACES = ("Curitiba", "Recife", "Porto Alegre", "Belém", "Natal", "Manaus", "Salvador")
WORK = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay")

RETRIEVE = """query($a: ID!, $q: String!) { retrieve(agentId: $a, query: $q) { context facts { text } } }"""
WRITE = """mutation($a: ID!, $s: String!, $m: String!) {
  write(agentId: $a, speakerName: $s, message: $m) {
    outcome { success factsAdded { text } } errors { code message } } }"""


def facts(n: int) -> list[StructuredFact]:
    return [
        StructuredFact(
            f"{PEOPLE[i % len(PEOPLE)]} worked on project {i} at {WORK[i % len(WORK)]} in "
            f"{PLACES[i % len(PLACES)]}.",
            subject=PEOPLE[i % len(PEOPLE)],
        )
        for i in range(n)
    ]


def question(i: int) -> str:
    return f"Where did {PEOPLE[i % len(PEOPLE)]} work on project {i * 7 % 50}?"


def message(i: int) -> tuple[str, str]:
    who = PEOPLE[(i + 3) % len(PEOPLE)]
    return who, (
        f"I moved to {PLACES[i % len(PLACES)]} in {2000 + i % 25} and now I work at "
        f"{WORK[(i + 1) % len(WORK)]} with {PEOPLE[(i + 5) % len(PEOPLE)]} on release {i}."
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(port: int, warm: bool) -> subprocess.Popen[bytes]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("HIPPOGRAPH_LLM") and k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")
    }
    env.update(
        {
            "HIPPOGRAPH_AUTH_DISABLED": "true",
            "HIPPOGRAPH_WORKER_ENABLED": "false",
            "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "0",
            "HIPPOGRAPH_WARM_UP": "true" if warm else "false",
        }
    )
    return subprocess.Popen(
        [HIPPOGRAPH, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout_s: float = 300) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        if proc.poll() is not None:
            raise SystemExit(f"hippograph serve exited with {proc.returncode}")
        try:
            if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                return time.perf_counter() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{url} was not ready in {timeout_s:g} s")


def timed(client: httpx.Client, query: str, variables: dict[str, str]) -> float:
    started = time.perf_counter()
    body = client.post("/graphql", json={"query": query, "variables": variables}).json()
    took = (time.perf_counter() - started) * 1000
    if body.get("errors") or any(
        (v or {}).get("errors") for v in (body.get("data") or {}).values()
    ):
        raise SystemExit(f"request failed: {body}")
    return took


def one_start(agent: str, warm: bool, requests: int, salt: int) -> dict[str, float | list[float]]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    proc = serve(port, warm)
    try:
        wait_ready(url, proc)
        ready_s = time.perf_counter() - t0
        with httpx.Client(base_url=url, timeout=120) as client:
            first_r = timed(client, RETRIEVE, {"a": agent, "q": question(salt)})
            who, text = message(salt)
            first_w = timed(client, WRITE, {"a": agent, "s": who, "m": text})
            steady_r: list[float] = []
            steady_w: list[float] = []
            for i in range(1, requests + 1):
                steady_r.append(timed(client, RETRIEVE, {"a": agent, "q": question(salt + i)}))
                who, text = message(salt + i)
                steady_w.append(timed(client, WRITE, {"a": agent, "s": who, "m": text}))
    finally:
        stop(proc)
    return {
        "ready_s": ready_s,
        "first_retrieve": first_r,
        "first_write": first_w,
        "retrieve": steady_r,
        "write": steady_w,
    }


async def main(args: argparse.Namespace) -> None:
    settings = Settings()
    ex = connect_executor(settings)
    agent = f"bench-first-{uuid.uuid4().hex[:8]}"
    try:
        embedder = build_embedder(settings)  # the one the served API builds
        await ensure_schema(ex, embedder.dimensions)
        await remember(ex, embedder, agent, facts=facts(args.facts))
        arms = [a for a in ("warm", "cold") if a in args.arms.split(",")]
        runs: dict[str, list[dict[str, float | list[float]]]] = {a: [] for a in arms}
        print(f"load average before {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
        with progress_bar(total=args.rounds * len(arms), desc="server starts", unit="start") as bar:
            for r in range(args.rounds):
                for arm in arms:
                    if not args.keep_plans:
                        await ex.run_text(load_query("clear_query_caches"))
                    salt = (r * len(arms) + arms.index(arm)) * (args.requests + 1) * 11
                    runs[arm].append(
                        await asyncio.to_thread(
                            one_start, agent, arm == "warm", args.requests, salt
                        )
                    )
                    bar.update(1)
        print(
            f"{args.rounds} start(s) per arm, {args.requests} steady requests of each kind per "
            f"start, agent of {args.facts} facts, load average after {os.getloadavg()[0]:.1f}"
        )
        for arm, starts in runs.items():
            ready = statistics.median(float(s["ready_s"]) for s in starts)  # type: ignore[arg-type]
            print(f"[{arm}] start to ready: median {ready:.1f} s")
            for kind in ("retrieve", "write"):
                firsts = [float(s[f"first_{kind}"]) for s in starts]  # type: ignore[arg-type]
                steady = statistics.median(
                    v
                    for s in starts
                    for v in s[kind]  # type: ignore[union-attr]
                )
                first = statistics.median(firsts)
                print(
                    f"[{arm}] {kind:<8} first {first:7.0f} ms (each start: "
                    f"{', '.join(f'{v:.0f}' for v in firsts)})  steady median {steady:6.0f} ms  "
                    f"first/steady {first / steady:5.2f}"
                )
    finally:
        if args.keep:
            print(f"kept agent {agent} (--keep)")
        else:
            await delete_agent(ex, agent)
            print(f"deleted agent {agent} (--keep keeps it)")
        await ex.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="server starts per arm")
    ap.add_argument("--requests", type=int, default=20, help="steady requests of each kind")
    ap.add_argument("--facts", type=int, default=300, help="facts of the seeded agent")
    ap.add_argument("--arms", default="warm,cold", help="warm, cold or both (comma-separated)")
    ap.add_argument("--keep-plans", action="store_true", help="do not empty Neo4j's plan caches")
    ap.add_argument("--keep", action="store_true", help="keep the agent afterwards")
    asyncio.run(main(ap.parse_args()))
