"""Neo4j Browser is served by the local server at :7474/browser/ and loads in headless Chromium."""

from __future__ import annotations

import pytest
from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait

from server.settings import get_settings
from tests.e2e.conftest import blank_browser

pytestmark = pytest.mark.e2e


def test_neo4j_browser_loads_in_headless_chromium(chromium: webdriver.Chrome) -> None:
    settings = get_settings()
    if not settings.local_neo4j:
        pytest.skip("NEO4J_URI points at a remote server; the Browser check is for the local one")
    browser = blank_browser(chromium)
    url = f"http://127.0.0.1:{settings.neo4j_http_port}/browser/"
    try:
        browser.get(url)
        WebDriverWait(browser, 60).until(lambda b: "Neo4j Browser" in b.title)
        assert "Neo4j Browser" in browser.title
        # The app itself rendered (not just the HTML shell): its root element has children.
        WebDriverWait(browser, 60).until(
            lambda b: b.execute_script("return document.body.innerText.length") > 20
        )
    finally:
        blank_browser(chromium, url)
