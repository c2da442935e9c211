"""Hostile requests against a real API process on loopback: how fast each is refused, how long
a concurrent health probe waits meanwhile, and that no message is lost or doubled.

    .venv/bin/python -m tests.bench.hostile [--rounds 3]

The API runs as ``uvicorn server.app:create_app`` (auth off, as ``make run`` serves it, rate
limit 60/min) over the local Neo4j; a client in this process sends each attack ``--rounds``
times while another task polls the health probe every 10 ms: ``GET /healthz``, served by the
same event loop but outside the rate budget the attacks spend (so it is never refused itself).
Attacks: fragment chains (18, 30 and 60 fragments each spreading the next twice), one document
of 300 and one of 800 operations each spreading an 11-fragment doubling chain (8,191 selections
per operation; sent with ``operationName: "a0"``), 1,200 copies of one field (graphql-core
compares every pair), a foreign Host (DNS rebinding), a cross-site Origin, 30 aliased
retrieves, the same 30 retrieves wrapped in 17 nested fragment spreads (charged 30 requests all
the same), a write carrying 200 huge earlier messages (1.9 MB), the same as an async write (its
job keeps 5 cut messages), ``defineOntology`` dry runs of a 130 KB document repeating one
anchored entity type of 1,500 aliases 30,000 times through YAML aliases and of a 255 KB list
of 85,000 entity types (sent from 127.0.0.2: a rate budget of their own), and over MCP
(``/mcp``, the SDK's streamable HTTP client) a ``remember_facts`` call with 40,000 facts
(1.2 MB, refused whole). Each round sends a different text (a comment line), so the parser
cache never answers. Framing: the GraphiQL page, plain and
with a mutation in ``?q=``, must come with ``frame-ancestors 'none'`` and ``X-Frame-Options:
DENY`` (answers ``DENY`` or ``FRAMEABLE``). The last line counts the probe agent's stored
messages against the writes that succeeded. The answers column lists each distinct answer over
the rounds (a budget of 60 requests a minute lets the first battery of 30 retrieves run; the
next ones are refused).

Sockets (graphql-transport-ws at ``/graphql``; each case and round from a loopback address of
its own, so with a full rate budget and empty caps): 60 sockets opened at once by one key (the
per-key cap, 20, closes the rest with 4429), 100 queries one after the other over one socket
(each takes a request of the budget: ``RATE_LIMITED`` past it), 60 sockets at once that never
send ``connection_init`` (auth off makes each the local operator's at its upgrade, so the key
cap closes 40 at once, before the address cap of 50 would; the rest close after the 3 s wait,
4408) and one 3 MB message (4413 before it is parsed). Their answers column tallies the
outcomes of one round.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import websockets

from graph.agent_deletion import delete_agent
from graph.executor import connect
from server.settings import Settings
from tests.cypher import load_query
from tests.processes import api_command
from tests.unit.gql.test_fragment_chains import chain
from tests.unit.ontology.test_hostile_documents import alias_bomb

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
HEALTH = {"query": "{ health { ready } }"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def attacks(agent: str) -> dict[str, tuple[dict[str, Any], dict[str, str]]]:
    """name → (JSON body, extra headers)."""
    battery = " ".join(
        f'r{i}: retrieve(agentId: "{agent}", query: "q{i}") {{ context }}' for i in range(30)
    )
    wrapped = " ".join(
        ["query Deep { ...L0 }"]
        + [f"fragment L{i} on Query {{ ...L{i + 1} }}" for i in range(16)]
        + [f"fragment L16 on Query {{ {battery} }}"]
    )
    huge = ["x " * 4_700 for _ in range(200)]
    write = (
        'mutation($a: ID!, $r: [String!]) { write(agentId: $a, speakerName: "Ana", '
        'message: "I live in Porto.", recentMessages: $r) { outcome { success } } }'
    )
    return {
        "write + 200 huge recentMessages": (
            {"query": write, "variables": {"a": agent, "r": huge}},
            {},
        ),
        "fragment chain x18": ({"query": chain(18)}, {}),
        "fragment chain x30": ({"query": chain(30)}, {}),
        "fragment chain x60": ({"query": chain(60)}, {}),
        "300 operations x chain of 11": (
            {"query": chain(11, operations=300), "operationName": "a0"},
            {},
        ),
        "800 operations x chain of 11": (
            {"query": chain(11, operations=800), "operationName": "a0"},
            {},
        ),
        "1,200 copies of one field": ({"query": "{" + " health{ready}" * 1200 + " }"}, {}),
        "Host: evil.example": (HEALTH, {"host": "evil.example"}),
        "Origin: evil.example": (HEALTH, {"origin": "http://evil.example"}),
        "30 aliased retrieves": ({"query": f"{{ {battery} }}"}, {}),
        "30 retrieves in 17 nested spreads": ({"query": wrapped}, {}),
        "async write + 200 huge recentMessages": (
            {
                "query": write.replace("outcome { success }", "queued { jobId }").replace(
                    "recentMessages: $r)", "recentMessages: $r, async: true)"
                ),
                "variables": {"a": agent, "r": huge},
            },
            {},
        ),
    }


# --- MCP attacks (the SDK's client over /mcp) --------------------------------------------------


def mcp_attacks(agent: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """name → (tool, arguments)."""
    facts = [{"text": f"f{i}", "subject": "A"} for i in range(40_000)]
    return {
        "MCP remember_facts x40,000": ("remember_facts", {"agent_id": agent, "facts": facts}),
    }


async def run_mcp_attacks(
    base: str, agent: str, rounds: int, prober: httpx.AsyncClient
) -> list[str]:
    """One table row per MCP attack: its answers, the slowest call, the slowest concurrent
    health query."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    rows: list[str] = []
    async with Client(streamable_http_client(f"{base}/mcp")) as mcp:
        for name, (tool, args) in mcp_attacks(agent).items():
            rows.append(
                await measured_row(
                    name,
                    rounds,
                    prober,
                    lambda _round, tool=tool, args=args: mcp.call_tool(tool, args),
                    lambda result: (
                        json.loads(result.content[0].text)["error"]["code"]
                        if result.is_error
                        else "answered"
                    ),
                )
            )
    return rows


# --- ontology documents: refused in bounded work, parsed off the event loop ---------------------

DEFINE = (
    "mutation($a: ID!, $d: String) { defineOntology(agentId: $a, document: $d, dryRun: true) "
    "{ errors { code } } }"
)


def ontology_attacks() -> dict[str, str]:
    """name → the document of a ``defineOntology`` dry run."""
    return {
        "defineOntology: 30,000 YAML aliases": alias_bomb(),
        "defineOntology: 85,000 entity types": (
            "name: x\nentity_types: [" + ", ".join(["t"] * 85_000) + "]\n"
        ),
    }


async def run_ontology_attacks(
    base: str, agent: str, rounds: int, prober: httpx.AsyncClient
) -> list[str]:
    """One row per document: the payload's error code (or ``answered``). Sent from another
    loopback address, so the rate budget the other attacks spent does not refuse them first."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    rows: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=120, transport=transport) as client:
        for name, document in ontology_attacks().items():
            rows.append(
                await measured_row(
                    name,
                    rounds,
                    prober,
                    lambda round_, document=document: client.post(
                        "/graphql",
                        json={
                            "query": f"{DEFINE}\n# round {round_}",
                            "variables": {"a": agent, "d": document},
                        },
                    ),
                    _payload_code,
                )
            )
    return rows


def _payload_code(answer: httpx.Response) -> str:
    body = answer.json()
    if body.get("errors"):
        return str(body["errors"][0].get("extensions", {}).get("code", "?"))
    errors = ((body.get("data") or {}).get("defineOntology") or {}).get("errors") or []
    return str(errors[0].get("code", "?")) if errors else "answered"


# --- sockets: a flood of WebSockets, and of operations over one, from one key and one address -----

SOCKET_PROTOCOL = "graphql-transport-ws"


def socket_address(case: int, round_: int) -> str:
    """Each socket case and round comes from a loopback address of its own: with auth off the
    key is the address, so each starts with a full rate budget and empty caps."""
    return f"127.0.{case + 10}.{round_ + 1}"


def _closed(closed: websockets.ConnectionClosed) -> str:
    """A close as ``<code> <error code>`` (``sockets`` or ``rate`` for a 4429's cause)."""
    if closed.rcvd is None:
        return "dropped"
    code, reason = closed.rcvd.code, closed.rcvd.reason
    if code == 4408:
        return "4408 no init"
    cause = " sockets" if "sockets" in reason else " rate" if "Rate limit" in reason else ""
    return f"{code}{cause}" if code == 4429 else f"{code} {reason.split(':')[0]}".strip()


def _tally(outcomes: list[str]) -> str:
    return ", ".join(f"{n} {name}" for name, n in Counter(outcomes).items())


async def _socket(url: str, address: str, init: bool = True) -> tuple[Any, str]:
    """A socket from ``address``, with ``connection_init`` sent and answered when ``init``:
    ``(socket, "open")`` or ``(socket, its close)``."""
    ws = await websockets.connect(
        f"{url}/graphql", subprotocols=[SOCKET_PROTOCOL], local_addr=(address, 0), open_timeout=30
    )
    if not init:
        return ws, "open"
    try:
        await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        answer = json.loads(await asyncio.wait_for(ws.recv(), 30))
    except websockets.ConnectionClosed as closed:
        return ws, _closed(closed)
    return ws, "open" if answer["type"] == "connection_ack" else str(answer["type"])


async def _close_of(ws: Any) -> str:
    """How the server ends ``ws`` (within 30 s)."""
    try:
        await asyncio.wait_for(ws.recv(), 30)
    except websockets.ConnectionClosed as closed:
        return _closed(closed)
    return "a message"


async def _answer(ws: Any, op_id: str) -> str:
    """``answered``, or the error code of operation ``op_id``."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message.get("id") != op_id or message["type"] == "complete":
            continue
        if message["type"] == "error":
            return str(message["payload"][0]["extensions"]["code"])
        errors = message["payload"].get("errors")
        return str(errors[0]["extensions"]["code"]) if errors else "answered"


async def flood_sockets(url: str, address: str) -> str:
    """60 sockets at once, each sending ``connection_init``."""
    sockets = await asyncio.gather(*(_socket(url, address) for _ in range(60)))
    for ws, _ in sockets:
        await ws.close()
    return _tally([outcome for _, outcome in sockets])


async def flood_operations(url: str, address: str) -> str:
    """100 queries, one after the other, over one socket."""
    ws, state = await _socket(url, address)
    outcomes = [state] if state != "open" else []
    try:
        for i in range(100 if state == "open" else 0):
            query = {"query": "{ __typename }"}
            await ws.send(json.dumps({"id": str(i), "type": "subscribe", "payload": query}))
            outcomes.append(await _answer(ws, str(i)))
    finally:
        await ws.close()
    return _tally(outcomes)


async def flood_silent(url: str, address: str) -> str:
    """60 sockets at once that never send ``connection_init``."""
    sockets = await asyncio.gather(*(_socket(url, address, init=False) for _ in range(60)))
    return _tally([await _close_of(ws) for ws, _ in sockets])


async def huge_message(url: str, address: str) -> str:
    """One 3 MB ``subscribe`` message."""
    ws, state = await _socket(url, address)
    if state != "open":
        return state
    document = "{ __typename }\n#" + "x" * 3_000_000
    await ws.send(json.dumps({"id": "big", "type": "subscribe", "payload": {"query": document}}))
    return await _close_of(ws)


SOCKET_ATTACKS = {
    "socket flood: 60 sockets, one key": flood_sockets,
    "socket flood: 100 queries, one socket": flood_operations,
    "socket flood: 60 without connection_init": flood_silent,
    "socket: one 3 MB message": huge_message,
}


async def run_socket_attacks(base: str, rounds: int, prober: httpx.AsyncClient) -> list[str]:
    """One row per socket case: the tally of how its sockets or operations were answered, the
    slowest round, the slowest concurrent health query."""
    url = base.replace("http://", "ws://")
    rows: list[str] = []
    for case, (name, attack) in enumerate(SOCKET_ATTACKS.items()):
        rows.append(
            await measured_row(
                name,
                rounds,
                prober,
                lambda round_, case=case, attack=attack: attack(url, socket_address(case, round_)),
                lambda tally: tally,
            )
        )
    return rows


# --- framing: the GraphiQL page must forbid every frame ------------------------------------------


FRAMING = {
    "GraphiQL page framed": "/graphql",
    "GraphiQL ?q=mutation framed": '/graphql?q=mutation{eraseAgent(agentId:"x"){erased}}',
}


async def run_framing(
    client: httpx.AsyncClient, prober: httpx.AsyncClient, rounds: int
) -> list[str]:
    """One row per page: DENY when both anti-framing headers are sent, else FRAMEABLE."""
    rows: list[str] = []
    for name, path in FRAMING.items():
        rows.append(
            await measured_row(
                name,
                rounds,
                prober,
                lambda _round, path=path: client.get(path, headers={"accept": "text/html"}),
                lambda page: "DENY" if _denies_framing(page) else "FRAMEABLE",
            )
        )
    return rows


def _denies_framing(page: httpx.Response) -> bool:
    """Both anti-framing headers: ``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``."""
    policy = page.headers.get("content-security-policy") or ""
    return page.headers.get("x-frame-options") == "DENY" and "frame-ancestors 'none'" in policy


async def measured_row(
    name: str,
    rounds: int,
    prober: httpx.AsyncClient,
    send: Callable[[int], Awaitable[T]],
    outcome: Callable[[T], str],
) -> str:
    """Await ``send(round)`` ``rounds`` times while :func:`health_poller` queries /healthz beside
    it; one table row: the distinct outcomes, the slowest send and the slowest health query (ms)."""
    took: list[float] = []
    outcomes: list[str] = []
    waits: list[float] = []
    stop = asyncio.Event()
    poll = asyncio.create_task(health_poller(prober, stop, waits))
    for round_ in range(rounds):
        start = time.perf_counter()
        answer = await send(round_)
        took.append((time.perf_counter() - start) * 1000)
        outcomes.append(outcome(answer))
    await asyncio.sleep(0.05)
    stop.set()
    await poll
    seen = ",".join(dict.fromkeys(outcomes))
    return f"{name:<38} {seen:<24} {max(took):>9.1f} {max(waits) if waits else 0:>13.1f}"


async def health_poller(client: httpx.AsyncClient, stop: asyncio.Event, waits: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        # /healthz: served by the same event loop, outside the rate budget the attacks spend
        # (a 429 would measure nothing).
        answer = await client.get("/healthz")
        answer.raise_for_status()
        waits.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0.01)


async def run(rounds: int) -> None:
    settings = Settings()
    port = _free_port()
    env = {
        **os.environ,
        "HIPPOGRAPH_AUTH_DISABLED": "true",
        "HIPPOGRAPH_WORKER_ENABLED": "false",
        "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "60",
        "HIPPOGRAPH_API_PORT": str(port),
    }
    proc = subprocess.Popen(
        api_command(port),
        cwd=ROOT,
        env=env,
    )
    agent = f"hostile-{uuid.uuid4().hex[:8]}"
    executor = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    base = f"http://127.0.0.1:{port}"
    rows: list[str] = []
    try:
        async with (
            httpx.AsyncClient(base_url=base, timeout=120) as client,
            httpx.AsyncClient(base_url=base, timeout=120) as prober,
        ):
            for _ in range(300):
                try:
                    if (await client.post("/graphql", json=HEALTH)).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.2)
            writes_ok = 0
            for name, (body, headers) in attacks(agent).items():
                # another text each round: the parser cache never hits
                sent = [
                    {**body, "query": f"{body['query']}\n# round {round_}"}
                    if "query" in body
                    else dict(body)
                    for round_ in range(rounds)
                ]

                def outcome(answer: httpx.Response) -> str:
                    nonlocal writes_ok
                    data = answer.json()
                    errors = data.get("errors") or []
                    wrote = (data.get("data") or {}).get("write") or {}
                    if (wrote.get("outcome") or {}).get("success") or wrote.get("queued"):
                        writes_ok += 1
                    return (
                        errors[0].get("extensions", {}).get("code", "?") if errors else "answered"
                    )

                rows.append(
                    await measured_row(
                        name,
                        rounds,
                        prober,
                        lambda round_, sent=sent, headers=headers: client.post(
                            "/graphql", json=sent[round_], headers=headers
                        ),
                        outcome,
                    )
                )
            rows += await run_framing(client, prober, rounds)
            rows += await run_ontology_attacks(base, agent, rounds, prober)
            rows += await run_socket_attacks(base, rounds, prober)
            rows += await run_mcp_attacks(base, agent, rounds, prober)
            counts = await executor.run_text(
                load_query("agent_counts"), {"agent_id": agent}, read=True
            )
            stored = sum(r["nodes"] for r in counts if r["label"] == "Event")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        await delete_agent(executor, agent)
        await executor.close()
    print(f"\n{'attack':<38} {'answers':<24} {'max ms':>9} {'health max ms':>13}")
    print("\n".join(rows))
    print(
        f"\nmessages: {writes_ok} writes succeeded, {stored} stored "
        f"-> lost {max(0, writes_ok - stored)}, duplicated {max(0, stored - writes_ok)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(run(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
