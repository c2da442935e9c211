"""The first answers of a fresh ``hippograph up`` (what ``make run`` starts after its install
step): how long until ``/readyz`` says ready, whether a worker process dies on the way, and how
the first question of every kind compares with the same kind once warm.

    .venv/bin/python -m tests.bench.bench_first_answers [--rounds 2] [--workers 2]
        [--restart-neo4j] [--port 8100] [--steady 10] [--json OUT]

Per round: (``--restart-neo4j``: stop and start the configured local Neo4j first, so the
server's plan caches and JIT are cold) launches ``hippograph up --workers N --port P`` (auth
off, the demo agent loaded when missing), polls ``/readyz`` every 0.2 s until it answers 200,
then sends, each request on a new connection (so the kernel may hand it to any worker):

- four retrieves of the demo agent (the first-four figure: the slowest of them), then one
  request of each other kind the API serves — ``entities``, ``entity`` with its ``history``,
  ``neighborhood``, ``facts``, ``factHistory`` and a ``write`` (to a scratch agent of a short
  id, deleted at the end) — each the first of its kind;
- then ``--steady`` retrieves with other questions (the next-ten median) and ``--steady``
  requests of each other kind, interleaved.

Prints per round: seconds from launch to ready (and from launch to the uvicorn supervisor, to
each worker's startup), ``died`` lines of the supervisor, CPU seconds the API's process tree
spent until ready, the first-four slowest against the next-ten median, and for every kind its
first against its steady median (the target of each ratio: at most 2). Load averages beside.

``--restart-neo4j`` stops the configured local server: it refuses when the server is one of
the default ports (``make run``'s 7687 or the tests' 7787); give the bench a server of its own
(``HIPPOGRAPH_NEO4J_DIR``, ``HIPPOGRAPH_NEO4J_BOLT_PORT``, ``HIPPOGRAPH_NEO4J_HTTP_PORT``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from graph.agent_deletion import delete_agent
from server.composition import connect_executor
from server.settings import Settings

HIPPOGRAPH = str(Path(sys.executable).with_name("hippograph"))
SHARED_PORTS = (7687, 7787)

FIRST_FOUR = (
    "Where does Guilherme live and work now?",
    "Onde o Guilherme mora?",
    "What happened in May 2025?",
    "pets",
)
NEXT = (
    "Who is Helena?",
    "What pets does Guilherme have?",
    "When did Guilherme move to Lisbon?",
    "What does Guilherme do at Orion Tech?",
    "Who are Guilherme's colleagues and what do they work on with him these days?",
    "Quem é a irmã do Guilherme?",
    "Did Guilherme ever live in Curitiba?",
    "Where did he work before Orion Tech?",
    "What food does he like?",
    "Qual é o cachorro do Guilherme?",
    "Who is Bruno?",
    "What did Guilherme say in September 2025?",
)
RETRIEVE = (
    'query($q: String!) { retrieve(agentId: "demo", query: $q) { context facts { id text } } }'
)
ENTITIES = """query($t: String) { entities(agentId: "demo", type: $t, first: 5) {
  totalCount edges { node { key name aliases } } } }"""
ENTITY = """query($k: String!) { entity(agentId: "demo", key: $k) { name aliases
  facts { text validFrom active } relationships(includeInvalidated: true) { type otherName active }
  history(limit: 10) { at change text } } }"""
NEIGHBORHOOD = """query($k: String!) { neighborhood(agentId: "demo", key: $k, hops: 2) {
  nodes { id label type depth } edges { source target label } } }"""
FACTS = """query($k: String) { facts(agentId: "demo", entityKey: $k, includeInvalidated: true,
  first: 20) { edges { node { id text validFrom validTo active } } } }"""
FACT_HISTORY = """query($id: ID!) { factHistory(agentId: "demo", id: $id) { id text validFrom } }"""
WRITE = """mutation($a: ID!, $m: String!) { write(agentId: $a, speakerName: "Ana", message: $m) {
  outcome { success factsAdded { text } } errors { code message } } }"""
KEYS = ("person:guilherme_maturana", "person:helena_maturana", "organization:orion_tech")
TYPES = ("person", None, "place")
MESSAGES = (
    "I moved to Recife in March and now work at Globex with Bruno.",
    "My sister Carla adopted a cat called Pipoca last week.",
    "Bruno and I started a running club in Recife on Sundays.",
    "I left Globex in June and joined Initech as a data analyst.",
    "Carla visited me in Recife for my birthday in July.",
    "I bought a bicycle to ride to work at Initech.",
    "My friend Davi from Curitiba is moving to Lisbon next month.",
    "Pipoca the cat knocked my coffee over this morning.",
    "Initech sent me to a conference in Porto in August.",
    "Bruno's daughter Elisa was born in September.",
    "I started learning Portuguese guitar with a teacher in Recife.",
)


@dataclass
class Round:
    ready_s: float | None = None
    marks: dict[str, float] = field(default_factory=dict)
    died: int = 0
    cpu_to_ready_s: float = 0.0
    first: dict[str, float] = field(default_factory=dict)
    steady: dict[str, list[float]] = field(default_factory=dict)
    first_four: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    warm_up: dict[str, Any] = field(default_factory=dict)


def tree_cpu_s(root: int) -> float:
    """CPU seconds (user + system) of ``root`` and every live descendant (from /proc)."""
    children: dict[int, list[int]] = {}
    ticks: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        ticks[int(entry)] = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += ticks.get(pid, 0)
        todo += children.get(pid, [])
    return total / os.sysconf("SC_CLK_TCK")


def restart_neo4j(settings: Settings) -> None:
    if settings.neo4j_bolt_port in SHARED_PORTS or not settings.local_neo4j:
        raise SystemExit(
            "--restart-neo4j needs a local Neo4j of the bench's own: set HIPPOGRAPH_NEO4J_DIR, "
            "HIPPOGRAPH_NEO4J_BOLT_PORT and HIPPOGRAPH_NEO4J_HTTP_PORT (not 7687 or 7787)"
        )
    subprocess.run([HIPPOGRAPH, "neo4j", "stop"], check=False, capture_output=True)
    subprocess.run([HIPPOGRAPH, "neo4j", "start"], check=True, capture_output=True)


def launch(port: int, workers: int, rnd: Round) -> tuple[subprocess.Popen[str], list[str]]:
    env = {**os.environ, "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "0"}
    proc = subprocess.Popen(
        [HIPPOGRAPH, "up", "--workers", str(workers)],
        env={**env, "HIPPOGRAPH_API_PORT": str(port)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    started = time.perf_counter()
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            at = time.perf_counter() - started
            lines.append(f"{at:7.1f} {line.rstrip()}")
            if "Started parent process" in line:
                rnd.marks.setdefault("supervisor", at)
            elif "Application startup complete" in line:
                n = sum(1 for k in rnd.marks if k.startswith("worker"))
                rnd.marks[f"worker {n + 1}"] = at
            elif " died" in line:
                rnd.died += 1

    threading.Thread(target=read, daemon=True).start()
    return proc, lines


def wait_ready(url: str, proc: subprocess.Popen[str], rnd: Round, timeout_s: float) -> None:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s and proc.poll() is None:
        try:
            response = httpx.get(f"{url}/readyz", timeout=5, headers={"Connection": "close"})
            if response.status_code == 200:
                rnd.ready_s = time.perf_counter() - started
                rnd.cpu_to_ready_s = tree_cpu_s(proc.pid)
                rnd.warm_up = response.json().get("warm_up") or {}
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


def timed(url: str, query: str, variables: dict[str, Any], rnd: Round) -> tuple[float, Any]:
    """One request on a new connection: milliseconds and the data."""
    with httpx.Client(timeout=300, headers={"Connection": "close"}) as client:
        started = time.perf_counter()
        body = client.post(f"{url}/graphql", json={"query": query, "variables": variables}).json()
        took = (time.perf_counter() - started) * 1000
    data = body.get("data") or {}
    if body.get("errors") or any(isinstance(v, dict) and v.get("errors") for v in data.values()):
        rnd.errors.append(json.dumps(body)[:300])
    return took, data


def kinds(i: int, scratch: str, fact_id: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """The request of each non-retrieve kind, its ``i``-th variant."""
    return {
        "entities": (ENTITIES, {"t": TYPES[i % len(TYPES)]}),
        "entity+history": (ENTITY, {"k": KEYS[i % len(KEYS)]}),
        "neighborhood": (NEIGHBORHOOD, {"k": KEYS[i % len(KEYS)]}),
        "facts": (FACTS, {"k": KEYS[i % len(KEYS)]}),
        "factHistory": (FACT_HISTORY, {"id": fact_id}),
        "write": (WRITE, {"a": scratch, "m": MESSAGES[i % len(MESSAGES)]}),
    }


def ask(url: str, steady: int, scratch: str, rnd: Round) -> None:
    fact_id = "none"
    for q in FIRST_FOUR:
        took, data = timed(url, RETRIEVE, {"q": q}, rnd)
        rnd.first_four.append(took)
        facts = (data.get("retrieve") or {}).get("facts") or []
        fact_id = str(facts[0]["id"]) if facts and fact_id == "none" else fact_id
    for kind, (query, variables) in kinds(0, scratch, fact_id).items():
        rnd.first[kind] = timed(url, query, variables, rnd)[0]
    for i in range(steady):
        q = NEXT[i % len(NEXT)]
        rnd.steady.setdefault("retrieve", []).append(timed(url, RETRIEVE, {"q": q}, rnd)[0])
        for kind, (query, variables) in kinds(i + 1, scratch, fact_id).items():
            rnd.steady.setdefault(kind, []).append(timed(url, query, variables, rnd)[0])


def stop_api(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def one_round(args: argparse.Namespace, settings: Settings, scratch: str) -> Round:
    rnd = Round()
    if args.restart_neo4j:
        restart_neo4j(settings)
    url = f"http://127.0.0.1:{args.port}"
    proc, lines = launch(args.port, args.workers, rnd)
    try:
        wait_ready(url, proc, rnd, args.timeout)
        if rnd.ready_s is None:
            print("\n".join(lines[-40:]))
            raise SystemExit(f"not ready in {args.timeout:g} s")
        ask(url, args.steady, scratch, rnd)
    finally:
        stop_api(proc)
        rnd.load = os.getloadavg()
    if args.log:
        print("\n".join(lines))
    return rnd


def report(rnd: Round, n: int) -> dict[str, Any]:
    nxt = statistics.median(rnd.steady["retrieve"])
    marks = ", ".join(f"{k} {v:.1f} s" for k, v in rnd.marks.items())
    print(
        f"round {n}: ready {rnd.ready_s:.1f} s after launch ({marks}); died lines {rnd.died}; "
        f"API CPU until ready {rnd.cpu_to_ready_s:.1f} s; load {rnd.load[0]:.1f}/{rnd.load[1]:.1f}"
    )
    print(
        f"  first four retrieves {', '.join(f'{v:.0f}' for v in rnd.first_four)} ms; next "
        f"{len(rnd.steady['retrieve'])} median {nxt:.0f} ms; slowest / median "
        f"{max(rnd.first_four) / nxt:.2f}"
    )
    ratios = {"retrieve": max(rnd.first_four) / nxt}
    for kind, first in rnd.first.items():
        steady = statistics.median(rnd.steady[kind])
        ratios[kind] = first / steady
        print(
            f"  {kind:<15} first {first:7.0f} ms  steady median {steady:6.0f} ms  {first / steady:5.2f}"
        )
    steps = rnd.warm_up.get("steps") or {}
    if steps:
        print(
            "  warm-up of the worker that answered: "
            + ", ".join(f"{k} {v:.1f} s" for k, v in steps.items())
        )
    for err in rnd.errors[:3]:
        print(f"  error: {err}")
    return {
        "ready_s": rnd.ready_s,
        "marks": rnd.marks,
        "died": rnd.died,
        "cpu_to_ready_s": rnd.cpu_to_ready_s,
        "first_four_ms": rnd.first_four,
        "first_ms": rnd.first,
        "steady_ms": rnd.steady,
        "ratios": ratios,
        "load": rnd.load,
        "errors": len(rnd.errors),
        "warm_up": rnd.warm_up,
    }


async def cleanup(settings: Settings, scratch: str) -> None:
    ex = connect_executor(settings)
    try:
        await delete_agent(ex, scratch)
    finally:
        await ex.close()


def main(args: argparse.Namespace) -> None:
    settings = Settings()
    scratch = f"bf-{uuid.uuid4().hex[:5]}"  # as short as "demo": the same plan-size bucket
    print(
        f"{args.rounds} round(s), {args.workers} workers, Neo4j {settings.bolt_uri}"
        f"{' restarted each round' if args.restart_neo4j else ''}; load "
        f"{'/'.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)"
    )
    out = []
    try:
        for n in range(1, args.rounds + 1):
            out.append(report(one_round(args, settings, scratch), n))
    finally:
        asyncio.run(cleanup(settings, scratch))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument(
        "--workers", type=int, default=2, help="API processes (make run: min(cores, 4))"
    )
    ap.add_argument("--port", type=int, default=8100)
    ap.add_argument("--steady", type=int, default=10, help="warm requests of each kind")
    ap.add_argument("--restart-neo4j", action="store_true", help="a just-started Neo4j each round")
    ap.add_argument("--timeout", type=float, default=600, help="seconds to wait for ready")
    ap.add_argument("--log", action="store_true", help="print the server's output")
    ap.add_argument("--json", help="write the figures here")
    main(ap.parse_args())
