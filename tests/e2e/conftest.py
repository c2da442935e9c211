"""E2E fixtures: the seeded demo agent and a live API (uvicorn in a thread on a free loopback
port, real services, auth on with a random admin key)."""

from __future__ import annotations

import asyncio
import secrets
import socket
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from selenium import webdriver

from graph.agent_deletion import delete_agent_nodes
from graph.executor import connect
from graph.runtime import LocalNeo4j
from seed.__main__ import seed
from server.app import create_app
from server.settings import Settings
from tests.bench import drills
from tests.e2e.chromium import start_chromium
from tests.processes import api_command, stop


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, proc: subprocess.Popen[Any], *, timeout_s: float) -> None:
    """Poll ``url``/healthz until it answers 200; fail the test if ``proc`` exits first or the
    time runs out."""
    deadline = time.monotonic() + timeout_s
    # One client for every poll: each new client builds an SSL context (tens of ms of CPU).
    with httpx.Client(timeout=1) as client:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{url}: the process exited with {proc.returncode}")
            try:
                if client.get(f"{url}/healthz").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"{url} did not come up in {timeout_s:g} s")
            time.sleep(0.3)


@contextmanager
def api_subprocess(env: Mapping[str, str], cwd: Path | None = None) -> Iterator[str]:
    """``uvicorn server.app:create_app`` as a subprocess on a free loopback port; yields its base
    URL once ``/healthz`` answers (fails the test after 90 s) and terminates it afterwards."""
    port = free_port()
    proc = subprocess.Popen(
        api_command(port),
        env=dict(env),
        cwd=cwd,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout_s=90)
        yield url
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def throwaway_neo4j() -> Iterator[LocalNeo4j]:
    """A Neo4j of its own (bolt 31687, ``tests.bench.drills``' home) for the tests that kill or
    stop their server, and the first-minutes walk (its Browser guide points at the drills' API
    port): the drills, the outage test and the walk share one start."""
    with drills.running_neo4j() as server:
        yield server


@pytest.fixture(scope="session")
def chromium() -> Iterator[webdriver.Chrome]:
    """One headless Chromium (``tests.e2e.chromium``) for the browser tests of the run; each
    module takes it through :func:`blank_browser`."""
    browser = start_chromium()
    yield browser
    browser.quit()


def blank_browser(browser: webdriver.Chrome, *pages: str) -> webdriver.Chrome:
    """``browser`` as a new one starts: nothing stored by the sites of ``pages`` (each is
    opened to clear its site's local and session storage), no cookies, a blank page, an empty
    request log."""
    browser.switch_to.default_content()
    for page in pages:
        browser.get(page)
        browser.execute_script("localStorage.clear(); sessionStorage.clear();")
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    browser.get("about:blank")
    browser.get_log("performance")
    return browser


@pytest.fixture(scope="session")
def demo_agent() -> str:
    """The demo agent as the seed loads it, once per run: a copy left by an earlier run (which
    the fuzzing and the explorer tests change through the API) is deleted first, so a second
    run on the same database reads what the first one read. API keys naming it keep doing so
    (a running `make run` demo keeps working)."""
    settings = Settings()

    async def reload() -> None:
        ex = connect(
            settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
        )
        try:
            await delete_agent_nodes(ex, "demo", release=False)
        finally:
            await ex.close()
        await seed(settings, "demo", progress=False)

    asyncio.run(reload())
    return "demo"


@dataclass(frozen=True)
class LiveApi:
    url: str
    admin_key: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.admin_key}"}


def serve_in_thread(settings: Settings) -> tuple[uvicorn.Server, threading.Thread, str]:
    """Start uvicorn with our app in a daemon thread; returns once /healthz answers."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=port, log_level="warning", lifespan="on"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return server, thread, url
        except httpx.HTTPError:
            time.sleep(0.2)
    server.should_exit = True
    raise RuntimeError("API did not come up")


@pytest.fixture(scope="session")
def live_api(demo_agent: str) -> Iterator[LiveApi]:
    admin_key = "hg_admin_" + secrets.token_urlsafe(32)
    settings = Settings(
        admin_api_key=admin_key,
        auth_disabled=False,
        rate_limit_per_minute=0,
        llm_base_url=None,
        llm_api_key=None,
        worker_enabled=False,
    )
    server, thread, url = serve_in_thread(settings)
    yield LiveApi(url, admin_key)
    server.should_exit = True
    thread.join(timeout=30)
