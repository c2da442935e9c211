"""GraphiQL in headless Chromium: a link may prefill a query, but a mutation in the page address
is not loaded into the editor (and leaves the address), and no page of another site may frame
GraphiQL. API subprocess with auth off on loopback, as `make run` serves it."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.conftest import api_subprocess, blank_browser, free_port

pytestmark = pytest.mark.e2e

ERASE = 'mutation { eraseAgent(agentId: "demo") { deleted } }'
QUERY = "{ health { ready } }"


@pytest.fixture(scope="module")
def api() -> Iterator[str]:
    env = {**os.environ, "HIPPOGRAPH_WORKER_ENABLED": "false", "HIPPOGRAPH_AUTH_DISABLED": "true"}
    with api_subprocess(env) as url:
        yield url


@pytest.fixture()
def browser(chromium: WebDriver, api: str) -> Iterator[WebDriver]:
    """The run's Chromium, with nothing of an earlier test (GraphiQL keeps its editor in the
    site's storage)."""
    yield blank_browser(chromium, f"{api}/healthz")
    blank_browser(chromium, f"{api}/healthz")


def _editor(browser: WebDriver) -> str:
    return " ".join(
        e.text for e in browser.find_elements(By.CSS_SELECTOR, ".graphiql-query-editor")
    )


def _open(browser: WebDriver, url: str) -> str:
    browser.get(url)
    WebDriverWait(browser, 60).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, ".graphiql-editor .CodeMirror")
    )
    return _editor(browser)


def test_a_query_in_the_address_is_loaded(api: str, browser: WebDriver) -> None:
    shown = _open(browser, f"{api}/graphql?q={quote(QUERY)}")
    assert "health" in shown and "ready" in shown


def test_a_mutation_in_the_address_is_not_loaded(api: str, browser: WebDriver) -> None:
    shown = _open(browser, f"{api}/graphql?q={quote(ERASE)}")
    assert "eraseAgent" not in shown
    assert "carried a mutation" in shown
    assert "eraseAgent" not in browser.current_url and "q=" not in browser.current_url


@contextmanager
def framing_site(target: str) -> Iterator[str]:
    """Another origin (loopback, its own port) serving a page that frames ``target``."""
    page = f'<!doctype html><iframe id="f" src="{target}" width="900" height="600"></iframe>'

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    # Threads: Chromium may open a second (speculative) connection that a one-connection server
    # would wait on until it times out, holding the page load for a minute.
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def test_another_site_cannot_frame_graphiql(api: str, browser: WebDriver) -> None:
    with framing_site(f"{api}/graphql?q={quote(QUERY)}") as site:
        browser.get(site)
        browser.switch_to.frame(browser.find_element(By.ID, "f"))
        # Blocked, the frame holds Chromium's error page; allowed, GraphiQL renders its editor.
        WebDriverWait(browser, 60).until(
            lambda b: (
                b.execute_script("return location.href").startswith("chrome-error:")
                or b.find_elements(By.CSS_SELECTOR, ".graphiql-editor .CodeMirror")
            )
        )
        assert browser.execute_script("return location.href").startswith("chrome-error:")
        assert not browser.find_elements(By.CSS_SELECTOR, ".graphiql-container")
