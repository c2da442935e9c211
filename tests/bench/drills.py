"""Failure drills: kill things mid-write and check that no message is lost or
duplicated. ``python -m tests.bench.drills`` prints the table; ``tests/e2e/test_drills.py`` runs
the same drills with small counts and asserts 0 lost, 0 duplicated.

Everything is loopback: a throw-away Neo4j of our runtime (bolt 31687 / http 31474, home
/tmp/hg-drills-neo4j, never the shared server), API and worker processes started here, and a
local fake OpenAI-compatible endpoint (``tests/fake_llm_server.py``). The tests with servers of
their own use the same Neo4j (``tests/e2e``: outage, first minutes): its Neo4j Browser opens our
guide from the API on ``GUIDE_API``, where the first-minutes walk serves it.

The drills check guarantees, not mechanisms:

* ``api_sigkill``: the API process is SIGKILLed while a synchronous write with an idempotency
  key is extracting; after a restart the client retries with the same key until it gets a
  result → the message's facts exist exactly once.
* ``neo4j_sigkill``: Neo4j is SIGKILLed while a write is extracting, then restarted → /readyz
  is 200 again, no fact without its event, and after the client's retries every message's
  facts exist exactly once.
* ``llm_down``: the LLM endpoint refuses connections during async writes and a document ingest
  → every extraction job is retried and ends visibly failed (``dead`` with its error), never
  ``done``; every event and chunk is kept.
* ``concurrent_identical``: N identical writes at once, no key → one active fact, one entity.
* ``lease_outlived``: a worker is frozen (SIGSTOP) in the middle of an extraction until its
  lease expires and a second worker has done the job; then it is thawed → the extraction is
  committed once (one fact, one set of audit entries).
* ``tenant_flood``: one tenant enqueues a flood of jobs, another tenant one job; 4 workers →
  the other tenant's job runs within a bound (and every job runs exactly once).

Recovery time: from the fault to the first moment the guarantee held again (a successful retry,
/readyz 200, the last job settled, the lone tenant's job done).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from graph.executor import Executor, connect
from graph.memory.jobs import JobQueue
from graph.memory.jobs.async_write import write_async
from graph.providers import HashEmbedder
from graph.runtime import LocalNeo4j, RuntimeConfig
from graph.schema import ensure_schema
from server.browser_guide import post_connect_cmd
from server.runtime import local_neo4j
from tests.cypher import load_query
from tests.fake_llm_server import FakeLLMServer
from tests.processes import api_command

ROOT = Path(__file__).resolve().parents[2]
BOLT, HTTP = 31687, 31474
# Where the guide that Neo4j Browser opens after connecting comes from (its post-connect
# command): the first-minutes walk's API (tests/e2e/test_first_minutes.py).
GUIDE_API = "http://127.0.0.1:31480"
HOME = Path(os.environ.get("HIPPOGRAPH_DRILLS_HOME", "/tmp/hg-drills-neo4j"))
PASSWORD = "hippograph-dev"
SPEAKER = "Dana"

WRITE = """mutation($a: ID!, $m: String!, $s: String!, $k: String, $async: Boolean!) {
  write(agentId: $a, message: $m, speakerName: $s, idempotencyKey: $k, async: $async) {
    outcome { success error eventId factsAdded { id } warnings }
    queued { eventId jobId }
    errors { code message }
  }
}"""
INGEST = """mutation($a: ID!, $t: String!) {
  ingestDocument(agentId: $a, text: $t, title: "drill", format: MARKDOWN) {
    documentId jobId errors { code message }
  }
}"""


@dataclass
class DrillResult:
    drill: str
    sent: int
    lost: int = 0
    duplicated: int = 0
    recovery_s: float | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # printed, not a failure

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.duplicated == 0 and not self.problems


# --- infrastructure -------------------------------------------------------------------------
def own_neo4j() -> LocalNeo4j:
    return LocalNeo4j(
        RuntimeConfig(
            home=HOME,
            password=PASSWORD,
            bolt_port=BOLT,
            http_port=HTTP,
            with_gds=False,
            heap="512m",
            pagecache="64m",
            tx_memory="256m",
            start_timeout_s=300,
            jars_from=local_neo4j().config.home,  # links the local install's jars
            jar_cache=local_neo4j().config.jar_cache,  # and shares their class archive
            browser_allowlist="127.0.0.1",
            browser_post_connect_cmd=post_connect_cmd(GUIDE_API),
        )
    )


@contextlib.contextmanager
def running_neo4j() -> Iterator[LocalNeo4j]:
    """The drill server, started (and stopped after) unless it is already running."""
    neo = own_neo4j()
    was_running = neo.status().running
    neo.install(log=lambda _: None)  # links the jars once, then a no-op
    neo.start(log=lambda _: None)
    try:
        yield neo
    finally:
        if not was_running:
            neo.stop()


def sigkill_neo4j(neo: LocalNeo4j) -> None:
    pid = neo.status().pid
    assert pid is not None, "drill Neo4j is not running"
    os.kill(pid, signal.SIGKILL)
    neo.stop()  # reaps the dead process and removes its pid file


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def base_env(llm_url: str | None, **extra: object) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPPOGRAPH_")}
    env.update(
        {
            "NEO4J_URI": f"bolt://127.0.0.1:{BOLT}",
            "NEO4J_PASSWORD": PASSWORD,
            "HIPPOGRAPH_AUTH_DISABLED": "true",
            "HIPPOGRAPH_EMBEDDER": "hash",
            "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "0",
            "HIPPOGRAPH_SCHEDULER_ENABLED": "false",
            "HIPPOGRAPH_WORKER_POLL_INTERVAL_S": "0.2",
            "HIPPOGRAPH_JOB_REAPER_INTERVAL_S": "0.5",
            "HIPPOGRAPH_LLM_MAX_RETRIES": "0",
            "HIPPOGRAPH_LLM_TIMEOUT_S": "5",
            "HIPPOGRAPH_WORKER_SHUTDOWN_GRACE_S": "1",
            # Recovery windows of the no-lost-message mechanisms, short for drills (the defaults
            # are minutes): a pending idempotency claim is taken over after 5 s, an event never
            # extracted is re-extracted after 8 s, swept every second.
            "HIPPOGRAPH_WRITE_PENDING_RECEIPT_TTL_S": "5",
            "HIPPOGRAPH_ORPHAN_AFTER_S": "8",
            "HIPPOGRAPH_ORPHAN_SWEEP_INTERVAL_S": "1",
            # The test suite starts its API processes without the warm-up (tests/conftest.py).
            "HIPPOGRAPH_WARM_UP": os.environ.get("HIPPOGRAPH_WARM_UP", "true"),
        }
    )
    if "HIPPOGRAPH_HOME" in os.environ:
        env["HIPPOGRAPH_HOME"] = os.environ["HIPPOGRAPH_HOME"]
    if llm_url:
        env["HIPPOGRAPH_LLM_BASE_URL"] = llm_url
        env["HIPPOGRAPH_LLM_API_KEY"] = "drill"
    env.update(
        {
            f"HIPPOGRAPH_{k.upper()}": str(v).lower() if isinstance(v, bool) else str(v)
            for k, v in extra.items()
        }
    )
    return env


class Proc:
    """A child process of ours (API or worker) that a drill may SIGKILL / SIGSTOP."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        self._err: list[bytes] = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._err.append(line)
            del self._err[:-200]

    def stderr_tail(self, n: int = 30) -> str:
        return b"".join(self._err[-n:]).decode(errors="replace")

    def signal(self, sig: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self, grace_s: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after ``grace_s`` (the drill's checks are done by then)."""
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.kill()


class Api(Proc):
    def __init__(self, env: dict[str, str]) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        super().__init__(
            api_command(self.port),
            env,
        )

    def wait_ready(self, timeout_s: float = 120) -> float:
        started = time.monotonic()
        while time.monotonic() - started < timeout_s:
            if self.proc.poll() is not None:
                raise RuntimeError(f"API exited:\n{self.stderr_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return time.monotonic() - started
            time.sleep(0.2)
        raise RuntimeError(f"API not ready after {timeout_s} s:\n{self.stderr_tail()}")


@contextlib.contextmanager
def served_api() -> Iterator[tuple[FakeLLMServer, Api]]:
    """A fake LLM endpoint and an API process (with its worker) using it; drills that do not
    kill the API share one to save start-up time."""
    with FakeLLMServer() as llm:
        api = Api(base_env(llm.base_url))
        try:
            api.wait_ready()
            yield llm, api
        finally:
            api.stop()


@contextlib.contextmanager
def _reuse(served: tuple[FakeLLMServer, Api] | None) -> Iterator[tuple[FakeLLMServer, Api]]:
    if served is not None:
        yield served
    else:
        with served_api() as fresh:
            yield fresh


def worker_proc(env: dict[str, str]) -> Proc:
    return Proc(
        [sys.executable, "-c", "from server.cli import main; main()", "worker", "--no-scheduler"],
        env,
    )


def gql(url: str, query: str, variables: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
    response = httpx.post(
        f"{url}/graphql", json={"query": query, "variables": variables}, timeout=timeout
    )
    return dict(response.json())


def write(
    url: str,
    agent: str,
    message: str,
    key: str | None = None,
    *,
    is_async: bool = False,
    timeout: float = 60,
) -> dict[str, Any]:
    """The write payload, or ``{"errors": [...]}`` (GraphQL or transport errors)."""
    try:
        body = gql(
            url,
            WRITE,
            {"a": agent, "m": message, "s": SPEAKER, "k": key, "async": is_async},
            timeout,
        )
    except (httpx.HTTPError, ValueError) as exc:
        return {"errors": [{"code": "TRANSPORT", "message": type(exc).__name__}]}
    if body.get("errors"):
        return {"errors": body["errors"]}
    return dict(body["data"]["write"])


def succeeded(payload: dict[str, Any]) -> bool:
    outcome = payload.get("outcome") or {}
    return bool(outcome.get("success")) and not payload.get("errors")


async def agent_state(ex: Executor, agent: str) -> dict[str, Any]:
    facts = await ex.run_text(load_query("drill_facts"), {"agent_id": agent}, read=True)
    ents = await ex.run_text(load_query("drill_entities"), {"agent_id": agent}, read=True)
    events = await ex.run_text(load_query("drill_events"), {"agent_id": agent}, read=True)
    return {
        "facts": {r["text"]: (int(r["n"]), int(r["unlinked"])) for r in facts},
        "entities": {r["name"]: int(r["n"]) for r in ents},
        "events": events,
    }


async def jobs_of(ex: Executor, agent: str, kinds: list[str]) -> list[dict[str, Any]]:
    return await ex.run_text(
        load_query("drill_jobs"), {"agent_id": agent, "kinds": kinds}, read=True
    )


def count_messages(result: DrillResult, state: dict[str, Any], messages: list[str]) -> None:
    """lost: a message without an active fact; duplicated: extra active facts of a message and
    extra entities of one name; a problem: an active fact without its event (half-written)."""
    for message in messages:
        n, unlinked = state["facts"].get(message, (0, 0))
        if n == 0:
            result.lost += 1
            result.problems.append(f"no fact for {message!r}")
        result.duplicated += max(0, n - 1)
        if unlinked:
            result.problems.append(f"fact without its event: {message!r}")
    result.duplicated += sum(n - 1 for n in state["entities"].values() if n > 1)


async def wait_for(
    check: Callable[[], Awaitable[bool]], timeout_s: float, step_s: float = 0.3
) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(step_s)
    return await check()


async def jobs_settled(ex: Executor, agent: str, kinds: list[str]) -> bool:
    return all(j["status"] in ("done", "dead") for j in await jobs_of(ex, agent, kinds))


async def all_extracted(ex: Executor, agent: str) -> bool:
    """Every event of the agent has at least one fact (no orphaned event)."""
    return all(int(e["facts"]) > 0 for e in (await agent_state(ex, agent))["events"])


def new_agent(drill: str) -> str:
    return f"drill-{drill}-{uuid.uuid4().hex[:8]}"


async def retry_until_success(
    url: str, agent: str, message: str, key: str, timeout_s: float
) -> tuple[dict[str, Any], float]:
    """The client's side of a drill: retry with the same key until the write succeeds."""
    started = time.monotonic()
    payload: dict[str, Any] = {}
    while time.monotonic() - started < timeout_s:
        payload = await asyncio.to_thread(write, url, agent, message, key)
        if succeeded(payload):
            break
        await asyncio.sleep(1.0)
    return payload, time.monotonic() - started


# --- the drills ------------------------------------------------------------------------------
async def drill_api_sigkill(
    ex: Executor,
    *,
    rounds: int = 1,
    retry_s: float = 60,
    orphan_s: float = 45,
    served: tuple[FakeLLMServer, Api] | None = None,
) -> DrillResult:
    """``served``: the first API to kill is that shared one (dead afterwards); each restart is
    an API process of the drill's own, with the same settings."""
    agent = new_agent("apikill")
    result = DrillResult("API SIGKILL during sync write (idempotency key)", rounds)
    messages = [f"Dana keeps drill notebook number {i} in the blue drawer" for i in range(rounds)]
    recoveries = []
    with _reuse(served) as (llm, api):
        env = base_env(llm.base_url)
        try:
            for i, message in enumerate(messages):
                key = f"drill-{agent}-{i}"
                llm.hold()
                pending = asyncio.create_task(
                    asyncio.to_thread(write, api.url, agent, message, key, timeout=30)
                )
                if not await asyncio.to_thread(llm.arrived.wait, 60):
                    result.problems.append("the write never reached the extraction")
                    break
                api.kill()  # the event is stored, the extraction is in flight
                killed = time.monotonic()
                llm.release()
                await pending
                api = Api(env)
                api.wait_ready()
                payload, _ = await retry_until_success(api.url, agent, message, key, retry_s)
                if succeeded(payload):
                    recoveries.append(time.monotonic() - killed)
                else:
                    result.problems.append(f"retry never succeeded: {payload}")
            # The event of the killed call must not stay without facts (re-extracted in the
            # background); check for duplicates once that has happened.
            if not await wait_for(lambda: all_extracted(ex, agent), orphan_s):
                result.problems.append("an orphaned event was never re-extracted")
            await wait_for(lambda: jobs_settled(ex, agent, ["extract"]), 30)
            count_messages(result, await agent_state(ex, agent), messages)
        finally:
            api.stop()
    result.recovery_s = max(recoveries) if recoveries else None
    return result


async def drill_neo4j_sigkill(
    ex: Executor,
    neo: LocalNeo4j,
    *,
    messages: int = 3,
    retry_s: float = 60,
    served: tuple[FakeLLMServer, Api] | None = None,
) -> DrillResult:
    agent = new_agent("neokill")
    texts = [f"Dana stored drill crate {i} on shelf {i + 7}" for i in range(messages)]
    result = DrillResult("Neo4j SIGKILL mid-write, restart", messages)
    victim = messages // 2
    with _reuse(served) as (llm, api):
        answers: dict[int, dict[str, Any]] = {}
        for i, text in enumerate(texts):
            key = f"drill-{agent}-{i}"
            if i != victim:
                answers[i] = await asyncio.to_thread(write, api.url, agent, text, key)
                continue
            llm.hold()
            pending = asyncio.create_task(
                asyncio.to_thread(write, api.url, agent, text, key, timeout=120)
            )
            if not await asyncio.to_thread(llm.arrived.wait, 60):
                result.problems.append("the write never reached the extraction")
            await asyncio.to_thread(sigkill_neo4j, neo)
            killed = time.monotonic()
            llm.release()
            answers[i] = await pending
            await asyncio.to_thread(neo.start, lambda _: None)
            await asyncio.to_thread(api.wait_ready, 180)
            result.recovery_s = time.monotonic() - killed
        # The client retries every write that did not report success, same key.
        for i, text in enumerate(texts):
            if not succeeded(answers[i]):
                answers[i], _ = await retry_until_success(
                    api.url, agent, text, f"drill-{agent}-{i}", retry_s
                )
                if not succeeded(answers[i]):
                    result.problems.append(f"message {i} never succeeded: {answers[i]}")
        if not await wait_for(lambda: all_extracted(ex, agent), 45):
            result.notes.append(
                "the failed write's event was not re-extracted (allowed: "
                "the write was reported failed)"
            )
        await wait_for(lambda: jobs_settled(ex, agent, ["extract"]), 30)
        state = await agent_state(ex, agent)
        count_messages(result, state, texts)
        if not result.ok:
            result.problems += [f"answer {i}: {answers[i]}" for i in answers]
            result.problems += [f"event {e}" for e in state["events"]]
    return result


DOCUMENT = "\n\n".join(
    f"## Part {i}\n\n"
    + " ".join(f"Dana filed drill report {i}.{j} about the north depot." for j in range(25))
    for i in range(3)
)


async def drill_llm_down(ex: Executor, *, messages: int = 3, settle_s: float = 90) -> DrillResult:
    agent = new_agent("llmdown")
    result = DrillResult("LLM down: async writes + document", messages + 1)
    dead_port = _free_port()  # nothing listens there: connection refused
    env = base_env(f"http://127.0.0.1:{dead_port}/v1", job_max_attempts=2, worker_concurrency=2)
    api = Api(env)
    try:
        api.wait_ready()
        started = time.monotonic()
        events = []
        for i in range(messages):
            payload = await asyncio.to_thread(
                write, api.url, agent, f"Dana parked drill van {i} at gate {i}", None, is_async=True
            )
            queued = payload.get("queued") or {}
            if not queued.get("jobId"):
                result.problems.append(f"async write not queued: {payload}")
            events.append(queued.get("eventId"))
        ingest = await asyncio.to_thread(gql, api.url, INGEST, {"a": agent, "t": DOCUMENT})
        if not (ingest.get("data") or {}).get("ingestDocument", {}).get("jobId"):
            result.problems.append(f"ingest not queued: {ingest}")
        kinds = ["extract", "document_ingest", "chunk_extract"]

        async def settled() -> bool:
            jobs = await jobs_of(ex, agent, kinds)
            return any(j["kind"] == "chunk_extract" for j in jobs) and all(
                j["status"] in ("done", "dead") for j in jobs
            )

        if not await wait_for(settled, settle_s):
            result.problems.append("jobs did not settle in time")
        result.recovery_s = time.monotonic() - started
        jobs = await jobs_of(ex, agent, kinds)
        extraction = [j for j in jobs if j["kind"] in ("extract", "chunk_extract")]
        for job in extraction:
            # Visible failure: dead after its retries, with the reason. Done = silently lost.
            if job["status"] != "dead" or not job["last_error"] or int(job["attempts"]) < 2:
                result.lost += 1
                result.problems.append(
                    f"{job['kind']} job {job['status']} after {job['attempts']} attempt(s): "
                    f"{(job['last_error'] or job['result'] or '')[:200]}"
                )
        chunks = sum(1 for j in jobs if j["kind"] == "chunk_extract")
        result.sent = messages + chunks
        state = await agent_state(ex, agent)
        kept = {e["id"] for e in state["events"]}
        result.lost += sum(1 for e in events if e not in kept)  # the raw messages are kept
        if any(j["kind"] == "document_ingest" and j["status"] != "done" for j in jobs):
            result.problems.append("the document itself was not kept (ingest job not done)")
        if state["facts"]:
            result.problems.append(f"facts appeared without an LLM: {list(state['facts'])[:3]}")
    finally:
        api.stop()
    return result


async def drill_concurrent_identical(
    ex: Executor,
    *,
    writers: int = 50,
    served: tuple[FakeLLMServer, Api] | None = None,
) -> DrillResult:
    agent = new_agent("same")
    message = "Dana moved the drill archive to the east wing"
    result = DrillResult(f"{writers} identical writes at once, no key", writers)
    with _reuse(served) as (_, api):
        started = time.monotonic()
        async with httpx.AsyncClient(timeout=120) as client:

            async def one() -> str:
                body = {
                    "query": WRITE,
                    "variables": {
                        "a": agent,
                        "m": message,
                        "s": SPEAKER,
                        "k": None,
                        "async": False,
                    },
                }
                try:
                    data = (await client.post(f"{api.url}/graphql", json=body)).json()
                except (httpx.HTTPError, ValueError) as exc:
                    return type(exc).__name__
                if data.get("errors"):
                    return str(data["errors"][0].get("message"))
                payload = data["data"]["write"]
                if succeeded(payload):
                    return "ok"
                outcome = payload.get("outcome") or {}
                reason = (
                    payload.get("errors")
                    or outcome.get("error")
                    or (outcome.get("warnings") or ["no reason given"])[-1]
                )
                return str(reason)[:160]

            answers = await asyncio.gather(*(one() for _ in range(writers)))
        result.recovery_s = time.monotonic() - started
        failed = Counter(a for a in answers if a != "ok")
        if failed:
            # Reported to the client (who may retry); not lost while the fact exists.
            result.notes.append(
                f"{sum(failed.values())} writes answered failure: {dict(failed.most_common(3))}"
            )
        count_messages(result, await agent_state(ex, agent), [message])
    return result


async def drill_lease_outlived(ex: Executor, *, lease_s: float = 3.0) -> DrillResult:
    agent = new_agent("lease")
    message = "Dana locked the drill safe with the brass key"
    result = DrillResult("job outlives its lease (worker frozen)", 1)
    with FakeLLMServer() as llm:
        # The frozen worker, once thawed and asked to stop, finishes its attempt first (long
        # shutdown grace), so the check below sees whatever it managed to commit.
        first = worker_proc(
            base_env(llm.base_url, job_lease_timeout_s=lease_s, worker_shutdown_grace_s=90)
        )
        second: Proc | None = None
        try:
            llm.hold()
            accepted = await write_async(
                ex, JobQueue(ex), agent, message, SPEAKER, embedder=HashEmbedder(384)
            )
            if not await asyncio.to_thread(llm.arrived.wait, 120):
                result.problems.append("the first worker never reached the extraction")
            first.signal(signal.SIGSTOP)  # frozen mid-extraction: no heartbeat, no commit
            frozen = time.monotonic()
            llm.release()  # its answer waits in the socket buffer
            second = worker_proc(base_env(llm.base_url, job_lease_timeout_s=lease_s))

            async def done() -> bool:
                jobs = await jobs_of(ex, agent, ["extract"])
                return bool(jobs) and all(j["status"] == "done" for j in jobs)

            if not await wait_for(done, 120):
                result.problems.append(
                    f"the second worker did not finish the job: "
                    f"{await jobs_of(ex, agent, ['extract'])}"
                )
            result.recovery_s = time.monotonic() - frozen
            first.signal(signal.SIGCONT)  # the stale worker wakes up and tries to commit
            first.signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(first.proc.wait, 120)
            except subprocess.TimeoutExpired:
                result.problems.append("the thawed worker did not finish its attempt")
            state = await agent_state(ex, agent)
            count_messages(result, state, [message])
            for event in state["events"]:
                # One commit of a one-fact extraction writes one audit entry.
                result.duplicated += max(0, int(event["audits"]) - 1)
            jobs = await jobs_of(ex, agent, ["extract"])
            if [j["id"] for j in jobs] != [accepted.job_id] or jobs[0]["status"] != "done":
                result.problems.append(f"job state: {jobs}")
        finally:
            for proc in (first, second):
                if proc is not None:
                    proc.stop()
    return result


async def drill_tenant_flood(
    ex: Executor, *, flood: int = 300, workers: int = 4, bound: int = 8
) -> DrillResult:
    """Real queue and workers in this process; each job takes ~5 ms. The bound is in leases:
    the lone tenant's job must start among the first ``bound`` jobs any worker leases."""
    from graph.memory.jobs import JobContext, JobDeps, JobsConfig, JobSpec, Worker
    from graph.memory.jobs.jobs_config import WorkerConfig
    from graph.tenancy import claim_agents

    kind = f"drill_{uuid.uuid4().hex[:8]}"
    big, small = new_agent("flood"), new_agent("lone")
    await claim_agents(ex, f"drill-t-{uuid.uuid4().hex[:6]}", [big])
    await claim_agents(ex, f"drill-t-{uuid.uuid4().hex[:6]}", [small])
    result = DrillResult(f"tenant flood ({flood} jobs) vs 1 job, {workers} workers", flood + 1)
    order: list[str] = []
    ran: list[str] = []

    async def handler(ctx: JobContext) -> dict[str, Any]:
        order.append(ctx.job.agent_id)
        ran.append(ctx.job.id)
        await asyncio.sleep(0.005)
        return {}

    queue = JobQueue(ex)
    cfg = JobsConfig(
        worker=WorkerConfig(
            poll_interval_s=0.05, lease_timeout_s=300.0, reaper_interval_s=5.0, shutdown_grace_s=1.0
        )
    )
    deps = JobDeps(executor=ex, queue=queue, config=cfg)
    ids = {
        e.job_id
        for e in await queue.enqueue_many(
            [JobSpec(kind=kind, agent_id=big, unique=True) for _ in range(flood)]
        )
    }
    enqueued = time.monotonic()
    ids.add((await queue.enqueue(JobSpec(kind=kind, agent_id=small, unique=True))).job_id)
    pool = [Worker(deps, {kind: handler}, owner=f"drill{i}") for i in range(workers)]
    tasks = [asyncio.create_task(w.run()) for w in pool]
    try:

        async def lone_done() -> bool:
            return small in order

        await wait_for(lone_done, 60, 0.01)
        result.recovery_s = time.monotonic() - enqueued

        async def all_done() -> bool:
            return (await queue.counts(kind=kind)).get("done", 0) == len(ids)

        await wait_for(all_done, 300)
    finally:
        await asyncio.gather(*(w.stop() for w in pool))
        await asyncio.gather(*tasks)
    position = order.index(small) if small in order else None
    if position is None:
        result.lost += 1
    elif position >= bound:
        result.problems.append(
            f"the lone tenant's job ran as number {position + 1} (bound {bound})"
        )
    result.lost += len(ids - set(ran))
    result.duplicated += len(ran) - len(set(ran))
    return result


# --- running and printing -----------------------------------------------------------------
@contextlib.asynccontextmanager
async def drill_executor() -> AsyncIterator[Executor]:
    """A connection to the drill server, cleared of earlier drills' agents and jobs (a
    leftover job would be leased instead of the drill's own)."""
    ex = connect(f"bolt://127.0.0.1:{BOLT}", "neo4j", PASSWORD)
    await ensure_schema(ex, 384)
    while (await ex.run_text(load_query("drill_wipe"), {"limit": 5000}))[0]["deleted"]:
        pass
    try:
        yield ex
    finally:
        await ex.close()


def table(results: list[DrillResult]) -> str:
    head = f"{'drill':52} {'sent':>5} {'lost':>5} {'dup':>5} {'recovery':>9}  ok"
    lines = [head, "-" * len(head)]
    for r in results:
        rec = f"{r.recovery_s:8.1f}s" if r.recovery_s is not None else "        -"
        lines.append(
            f"{r.drill[:52]:52} {r.sent:5d} {r.lost:5d} {r.duplicated:5d} {rec}  "
            f"{'yes' if r.ok else 'NO'}"
        )
        lines += [f"    ! {p[:400]}" for p in r.problems]
        lines += [f"    - {n[:400]}" for n in r.notes]
    return "\n".join(lines)


async def run_all(names: list[str], scale: int) -> list[DrillResult]:
    results: list[DrillResult] = []
    with running_neo4j() as neo, contextlib.ExitStack() as stack:
        served: tuple[FakeLLMServer, Api] | None = None
        for name in names:
            if name not in ("neo4j_sigkill", "concurrent_identical"):
                stack.close()  # its worker would take other drills' jobs
                served = None
            elif served is None:
                served = stack.enter_context(served_api())
            async with drill_executor() as ex:
                started = time.monotonic()
                if name == "api_sigkill":
                    r = await drill_api_sigkill(ex, rounds=scale)
                elif name == "neo4j_sigkill":
                    r = await drill_neo4j_sigkill(ex, neo, messages=2 + scale, served=served)
                elif name == "llm_down":
                    r = await drill_llm_down(ex, messages=2 * scale)
                elif name == "concurrent_identical":
                    r = await drill_concurrent_identical(ex, writers=50 * scale, served=served)
                elif name == "lease_outlived":
                    r = await drill_lease_outlived(ex)
                elif name == "tenant_flood":
                    r = await drill_tenant_flood(ex, flood=300 * scale)
                else:
                    raise SystemExit(f"unknown drill {name!r}; known: {', '.join(DRILLS)}")
                print(f"[{name}: {time.monotonic() - started:.0f} s]", flush=True)
                results.append(r)
    return results


DRILLS = [
    "api_sigkill",
    "neo4j_sigkill",
    "llm_down",
    "concurrent_identical",
    "lease_outlived",
    "tenant_flood",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("drills", nargs="*", default=DRILLS, help="which drills (default all)")
    parser.add_argument(
        "--scale", type=int, default=3, help="size factor: rounds, messages, writers (default 3)"
    )
    args = parser.parse_args()
    started = time.monotonic()
    results = asyncio.run(run_all(args.drills, max(1, args.scale)))
    print(f"\nload average {os.getloadavg()[0]:.2f}; total {time.monotonic() - started:.0f} s")
    print(table(results))
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
