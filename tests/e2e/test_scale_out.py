"""Scale-out: two API processes and two job workers (``hippograph serve`` / ``hippograph worker``
subprocesses) against the one Neo4j. Concurrent sync and async writes, retrieves and a small
document go through both APIs at once; afterwards there is no duplicate job, entity or fact,
every job is done, every message is extracted, and the workers (not the APIs, which run with
``worker_enabled=false``) did every job.

Bounded: all four processes start in parallel; the test fails after ``DEADLINE_S``.
"""

from __future__ import annotations

import ast
import asyncio
import os
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from graph.agent_deletion import delete_agent
from graph.executor import connected
from server.settings import Settings
from tests.cypher import load_query
from tests.e2e.conftest import free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 110.0

PEOPLE = [
    ("Clara Rezende", "Porto", "Acme"),
    ("Bruno Tavares", "Lisbon", "Globex"),
    ("Marta Salgado", "Braga", "Initech"),
    ("Diogo Fontes", "Coimbra", "Umbrella"),
    ("Ines Carvalho", "Faro", "Hooli"),
    ("Tiago Moreira", "Aveiro", "Stark"),
    ("Rita Lobo", "Evora", "Wayne"),
    ("Nuno Pires", "Viseu", "Wonka"),
]
SHARED = "My brother Rafael Duarte lives in Madrid and plays the cello every Sunday."
TWIN = SHARED.replace("My brother", "Our brother")
DOCUMENT = (
    "# Team notes\n\nHelena Prates leads the data team in Berlin. She joined Acme in "
    "2021 and mentors two engineers.\n\nThe quarterly offsite will happen in Sintra."
)

WRITE = """mutation($a: ID!, $m: String!, $async: Boolean!, $key: String) {
  write(agentId: $a, message: $m, speakerName: "Ana", async: $async, idempotencyKey: $key) {
    outcome { success eventId factsAdded { text } }
    queued { eventId jobId created }
    errors { message }
  }
}"""
RETRIEVE = """query($a: ID!, $q: String!) { retrieve(agentId: $a, query: $q) { context facts { text } } }"""
INGEST = """mutation($a: ID!, $t: String!) {
  ingestDocument(agentId: $a, text: $t, title: "Team notes") { documentId jobId created errors { message } }
}"""


def _env(admin: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("HIPPOGRAPH_LLM") and k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")
    }
    env.update(
        {
            "PYTHONPATH": str(ROOT),
            "HIPPOGRAPH_ADMIN_API_KEY": admin,
            "HIPPOGRAPH_AUTH_DISABLED": "false",
            "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "0",
            "HIPPOGRAPH_API_PROCESSES": "2",
            "HIPPOGRAPH_WORKER_ENABLED": "false",  # the APIs run no job worker
            "HIPPOGRAPH_SCHEDULER_ENABLED": "false",
            "HIPPOGRAPH_WORKER_POLL_INTERVAL_S": "0.2",
        }
    )
    return env


def _hippograph(*args: str) -> list[str]:
    return [sys.executable, "-c", "from server.cli import main; main()", *args]


@pytest.fixture
def cluster(demo_agent: str) -> Iterator[dict[str, Any]]:
    """Two APIs (own ports) and two workers dedicated to a fresh agent, started in parallel."""
    del demo_agent  # only for the schema and models being in place
    agent = f"e2e-scale-{uuid.uuid4().hex[:10]}"
    admin = "hg_scale_" + secrets.token_urlsafe(32)
    env = _env(admin)
    ports = [free_port(), free_port()]
    apis = [
        subprocess.Popen(
            _hippograph("serve", "--port", str(p)),
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for p in ports
    ]
    workers = [
        subprocess.Popen(
            _hippograph("worker", "--agent", agent, "--no-scheduler"),
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for _ in range(2)
    ]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    try:
        deadline = time.monotonic() + 75
        for url, proc in zip(urls, apis, strict=True):
            wait_healthy(url, proc, timeout_s=max(1.0, deadline - time.monotonic()))
        yield {
            "agent": agent,
            "urls": urls,
            "headers": {"Authorization": f"Bearer {admin}"},
            "workers": workers,
        }
    finally:
        for proc in [*apis, *workers]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [*apis, *workers]:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        asyncio.run(_delete(agent))


async def _delete(agent: str) -> None:
    s = Settings()
    async with connected(s.bolt_uri, s.neo4j_user, s.neo4j_secret()) as ex:
        await delete_agent(ex, agent)


async def _state(agent: str) -> dict[str, Any]:
    s = Settings()
    async with connected(s.bolt_uri, s.neo4j_user, s.neo4j_secret()) as ex:
        return (await ex.run_text(load_query("scale_check"), {"agent_id": agent}, read=True))[0]


def _stop_worker(proc: subprocess.Popen[str]) -> dict[str, int]:
    """SIGTERM (graceful stop) and the stats line it prints: ``stopped: {'done': n, ...}``."""
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    line = next((ln for ln in out.splitlines() if ln.startswith("stopped: ")), None)
    assert line is not None, out
    assert "warmed up" not in out, out  # HIPPOGRAPH_WARM_UP=false (tests/conftest.py) holds
    return {k: int(v) for k, v in ast.literal_eval(line.removeprefix("stopped: ")).items()}


async def _load(cluster: dict[str, Any]) -> dict[str, Any]:
    agent, urls = cluster["agent"], cluster["urls"]
    async with httpx.AsyncClient(headers=cluster["headers"], timeout=90) as client:

        async def gql(i: int, query: str, **variables: Any) -> dict[str, Any]:
            res = await client.post(
                f"{urls[i % 2]}/graphql",
                json={"query": query, "variables": {"a": agent, **variables}},
            )
            assert res.status_code == 200, res.text
            body = res.json()
            assert "errors" not in body, body
            return dict(body["data"])

        def message(n: int) -> str:
            name, city, company = PEOPLE[n]
            return f"My colleague {name} lives in {city} and works at {company}."

        calls = [  # 8 distinct messages, half sync and half async, alternating APIs
            gql(i, WRITE, m=message(i), key=f"m{i}", **{"async": i % 4 >= 2})
            for i in range(len(PEOPLE))
        ]
        # One idempotency key through both APIs at once (sync on one, async on the other…
        # both async here: the second must answer with the first's event and job).
        calls += [gql(i, WRITE, m=SHARED, key="shared", **{"async": True}) for i in range(2)]
        # The same text under two keys through both APIs (sync and async): two events, one fact.
        calls += [
            gql(0, WRITE, m=TWIN, key="twin-a", **{"async": False}),
            gql(1, WRITE, m=TWIN, key="twin-b", **{"async": True}),
        ]
        calls += [gql(0, INGEST, t=DOCUMENT)]
        calls += [
            gql(i, RETRIEVE, q=q)
            for i, q in enumerate(
                [
                    "Where does Clara live?",
                    "Who works at Globex?",
                    "Who plays the cello?",
                    "Where is the offsite?",
                ]
            )
        ]
        answers = await asyncio.gather(*calls)
        return {"writes": answers[:12], "ingest": answers[12], "retrieves": answers[13:]}


def test_two_apis_two_workers_no_duplicates_everything_processed(
    cluster: dict[str, Any],
) -> None:
    started = time.monotonic()
    agent = cluster["agent"]
    out = asyncio.run(_load(cluster))
    writes = [w["write"] for w in out["writes"]]
    assert all(not w["errors"] for w in writes), writes
    sync = [w["outcome"] for w in writes if w["outcome"] is not None]
    queued = [w["queued"] for w in writes if w["queued"] is not None]
    assert len(sync) == 5 and all(o["success"] for o in sync), sync
    assert len(queued) == 7
    shared = [w["queued"] for w in writes[8:10]]  # one idempotency key through both APIs
    assert shared[0]["eventId"] == shared[1]["eventId"] and shared[0]["jobId"] == shared[1]["jobId"]
    assert sorted(q["created"] for q in shared) == [False, True]
    assert out["ingest"]["ingestDocument"]["created"] and out["ingest"]["ingestDocument"]["jobId"]
    assert all("retrieve" in r for r in out["retrieves"])

    # Wait until the workers have done every job (extract, document ingest, chunk extracts).
    while True:
        state = asyncio.run(_state(agent))
        pending = [j for j in state["jobs"] if not j.startswith("done:")]
        if not pending and state["chunks"] > 0:
            break
        assert time.monotonic() - started < DEADLINE_S, state
        time.sleep(0.5)
    stats = [_stop_worker(p) for p in cluster["workers"]]

    assert state["dup_entity_names"] == [] and state["dup_facts"] == [], state
    assert state["dup_job_keys"] == [], state
    # 12 writes, one idempotent repeat: 11 events (the twins' text twice), plus the document's
    # one chunk, which its chunk_extract job writes as an event.
    texts = Counter(state["event_texts"])
    assert {t: n for t, n in texts.items() if n > 1} == {TWIN: 2}, texts
    assert state["events"] == 12 and sum("Helena Prates" in t for t in texts) == 1, texts
    jobs = dict(j.split("=") for j in state["jobs"])
    assert int(jobs["done:extract"]) == 6, state  # 4 async + shared + twin-b
    assert int(jobs["done:document_ingest"]) == int(jobs["done:chunk_extract"]) == 1, state
    assert state["events_without_facts"] == [], state  # every message was extracted
    assert state["facts"] >= 9, state
    # Every job was run by the two worker processes (the APIs run none).
    total = sum(int(n) for n in jobs.values())
    assert sum(s.get("done", 0) for s in stats) == total, (stats, state)
    assert time.monotonic() - started < DEADLINE_S
