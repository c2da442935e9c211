"""A newcomer's first minutes, in headless Chromium cut off from every host but loopback:
GraphiQL loads from our own process and runs the preloaded Retrieve tab; Neo4j Browser connects
with the demo credentials and opens our guide by itself, and a guide query draws graph nodes.

Uses the throw-away Neo4j that the drills and the outage test use too (started with our runtime,
never the tests' shared server), so the generated neo4j.conf — guide allow-list, post-connect
command pointing at ``tests.bench.drills.GUIDE_API`` — is what is tested, and an API subprocess
on that address against it with the demo agent freshly seeded.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from graph.agent_deletion import delete_agent
from graph.executor import connected
from graph.runtime import LocalNeo4j
from seed.__main__ import seed
from server.browser_guide import post_connect_cmd
from server.settings import Settings
from tests.bench import drills
from tests.e2e.chromium import off_host, requested_urls, start_chromium
from tests.e2e.conftest import wait_healthy
from tests.processes import api_command

pytestmark = pytest.mark.e2e

PASSWORD = drills.PASSWORD
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Stack:
    api: str
    browser: str
    bolt: str


async def _seed_demo(neo: LocalNeo4j) -> None:
    """The demo as the seed loads it now (a load of an earlier run on this server goes first)."""
    async with connected(neo.bolt_uri, "neo4j", drills.PASSWORD) as ex:
        await delete_agent(ex, "demo")
    settings = Settings(
        neo4j_uri=neo.bolt_uri, neo4j_password=drills.PASSWORD, llm_base_url=None, llm_api_key=None
    )
    await seed(settings, "demo", progress=False)


@pytest.fixture(scope="module")
def stack(throwaway_neo4j: LocalNeo4j) -> Iterator[Stack]:
    neo = throwaway_neo4j
    conf = (neo.conf / "neo4j.conf").read_text()
    assert f"browser.post_connect_cmd={post_connect_cmd(drills.GUIDE_API)}" in conf
    assert "browser.remote_content_hostname_whitelist=127.0.0.1" in conf
    env = {
        **os.environ,
        "NEO4J_URI": neo.bolt_uri,
        "NEO4J_PASSWORD": drills.PASSWORD,
        "HIPPOGRAPH_WORKER_ENABLED": "false",
        "HIPPOGRAPH_AUTH_DISABLED": "true",
        "HIPPOGRAPH_LLM_BASE_URL": "",
        "HIPPOGRAPH_LLM_API_KEY": "",
        "HIPPOGRAPH_WARM_UP": "true",  # `make run`'s default: the walk a user takes
    }
    asyncio.run(_seed_demo(neo))
    port = urlsplit(drills.GUIDE_API).port
    proc = subprocess.Popen(
        api_command(port),
        env=env,
        cwd=ROOT,
    )
    try:
        wait_healthy(drills.GUIDE_API, proc, timeout_s=120)
        yield Stack(api=drills.GUIDE_API, browser=neo.http_origin, bolt=neo.bolt_uri)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture()
def browser() -> Iterator[WebDriver]:
    b = start_chromium(1400, 1300)  # tall enough for Browser's graph frame above the guide
    yield b
    b.quit()


def _screenshot(browser: WebDriver, config: pytest.Config, tmp_path: Path, name: str) -> None:
    """Always into tmp_path (a real PNG or the test fails); also into --screenshots DIR."""
    png = browser.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG")
    (tmp_path / name).write_bytes(png)
    if out := config.getoption("--screenshots"):
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / name).write_bytes(png)


# Neo4j Community's bundled Browser (not a page of ours) always tries these after connecting:
# web fonts, Segment analytics and the Canny feedback widget; and, when it captures a console
# error, its built-in Sentry DSN (the org host is in the Browser jar's bundle). Offline they fail
# and Browser works on; anything else off the machine fails the test.
NEO4J_BROWSER_THIRD_PARTY = (
    "https://fonts.googleapis.com/",
    "https://cdn.segment.com/",
    "https://canny.io/",
    "https://o110884.ingest.sentry.io/",
)


def _assert_stayed_local(browser: WebDriver, allowed: tuple[str, ...] = ()) -> list[str]:
    urls = requested_urls(browser)
    assert urls, "the performance log recorded no request at all"
    bad = [u for u in off_host(urls) if not u.startswith(allowed)]
    assert bad == [], f"requests left the machine: {bad}"
    return urls


def _text(browser: WebDriver, selector: str) -> str:
    return " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, selector))


def _entity_graph_block(browser: WebDriver) -> WebElement | None:
    for block in browser.find_elements(By.CSS_SELECTOR, "pre.runnable"):
        text = block.get_attribute("textContent") or ""
        if "RELATES_TO" in text and "r.valid_to IS NULL" in text:
            return block
    return None


def test_graphiql_runs_the_retrieve_tab_offline(
    stack: Stack, browser: WebDriver, pytestconfig: pytest.Config, tmp_path: Path
) -> None:
    browser.get(f"{stack.api}/graphql")
    WebDriverWait(browser, 60).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, ".graphiql-editor .CodeMirror")
    )
    tab = next(
        t for t in browser.find_elements(By.CSS_SELECTOR, ".graphiql-tab") if "Retrieve" in t.text
    )
    tab.find_element(By.CSS_SELECTOR, "button").click()
    WebDriverWait(browser, 10).until(
        lambda b: "query Retrieve" in _text(b, ".graphiql-query-editor")
    )
    browser.find_element(By.CSS_SELECTOR, ".graphiql-execute-button").click()
    WebDriverWait(browser, 60).until(lambda b: "Lisboa" in _text(b, ".result-window"))
    result = _text(browser, ".result-window")
    assert '"facts"' in result and '"errors"' not in result
    _screenshot(browser, pytestconfig, tmp_path, "graphiql-retrieve.png")
    urls = _assert_stayed_local(browser)
    assert any("/graphiql-assets/graphiql@" in u for u in urls)


def test_every_page_we_serve_stays_local(stack: Stack, browser: WebDriver) -> None:
    for path in (
        "/graphql",
        "/explorer",
        "/browser-guide",
        "/browser-guide/hippograph.grass",
        "/healthz",
        "/readyz",
        "/metrics",
    ):
        browser.get(f"{stack.api}{path}")
        WebDriverWait(browser, 30).until(
            lambda b: b.execute_script("return document.readyState") == "complete"
        )
        time.sleep(1)  # let late scripts start their requests
    _assert_stayed_local(browser)


def _click(browser: WebDriver, css: str, timeout_s: float = 15) -> None:
    """Click what ``css`` names once no transient overlay (a Browser animation or toast)
    covers it; a real click when possible, so a button that never becomes reachable fails."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            browser.find_element(By.CSS_SELECTOR, css).click()
            return
        except ElementClickInterceptedException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _connect(browser: WebDriver, timeout_s: float = 120) -> None:
    """Fill in the password and connect; on a loaded machine Browser may still be re-rendering
    its connect form when the first click lands, so submit again while the form is still
    there (the post-connect command runs once, on the connection that succeeds)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        fields = browser.find_elements(By.CSS_SELECTOR, "[data-testid=password]")
        if not fields:
            return
        try:
            fields[0].clear()
            fields[0].send_keys(PASSWORD)
            _click(browser, "[data-testid=connect]")
        except (
            ElementClickInterceptedException,
            ElementNotInteractableException,
            NoSuchElementException,
            StaleElementReferenceException,
        ):
            pass  # the form is still being (re)drawn: try again while it shows
        time.sleep(3)
    pytest.fail("Neo4j Browser kept showing its connect form")


def test_neo4j_browser_opens_the_guide_and_draws_a_query(
    stack: Stack, browser: WebDriver, pytestconfig: pytest.Config, tmp_path: Path
) -> None:
    browser.get(f"{stack.browser}/browser/?dbms={stack.bolt.replace('//', '//neo4j@')}")
    WebDriverWait(browser, 120).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, "[data-testid=password]")
    )
    _connect(browser)
    # The post-connect command opened the guide by itself.
    WebDriverWait(browser, 120).until(
        lambda b: "Hippograph memory in Neo4j Browser" in b.find_element(By.TAG_NAME, "body").text
    )
    # Slide 2 is the entity graph (the carousel renders only the current slide).
    _click(browser, "[data-testid=nextSlide]")
    WebDriverWait(browser, 10).until(lambda b: _entity_graph_block(b) is not None)
    browser.execute_script("arguments[0].click()", _entity_graph_block(browser))
    WebDriverWait(browser, 10).until(
        lambda b: "RELATES_TO" in _text(b, "[data-testid=activeEditor]")
    )
    _click(browser, "[data-testid=editor-Run]")
    WebDriverWait(browser, 60).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, "svg g.node")) > 0
    )
    nodes = " ".join(_text(browser, "svg g.node").split())
    assert "Orion Tech" in nodes and "Helena Maturana" in nodes
    # The Hippograph style (applied on connect) captions RELATES_TO edges by their type.
    WebDriverWait(browser, 10).until(lambda b: "works_at" in _text(b, "svg g.relationship"))
    time.sleep(2)  # let the force layout settle for the screenshot
    _screenshot(browser, pytestconfig, tmp_path, "neo4j-browser-guide.png")
    urls = _assert_stayed_local(browser, NEO4J_BROWSER_THIRD_PARTY)
    assert f"{stack.api}/browser-guide" in urls  # the guide came from our app
