"""Headless Chromium for the browser tests, cut off from every host but loopback, recording
every network request (Chrome performance log) so a test can fail on one that left the machine."""

from __future__ import annotations

import json
import shutil
from typing import Any
from urllib.parse import urlsplit

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


def start_chromium(width: int = 1400, height: int = 900) -> webdriver.Chrome:
    chromium, driver_bin = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver_bin, (
        "chromium/chromium-driver missing (scripts/bootstrap.sh --test installs them)"
    )
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        # Any name but loopback fails to resolve: a page that needs the internet breaks.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    browser = webdriver.Chrome(service=Service(driver_bin), options=opts)
    browser.set_page_load_timeout(60)
    return browser


def requested_urls(browser: webdriver.Chrome) -> list[str]:
    """URLs requested since the last call (drains the performance log)."""
    urls = []
    for entry in browser.get_log("performance"):
        message: dict[str, Any] = json.loads(entry["message"])["message"]
        if message.get("method") in ("Network.requestWillBeSent", "Network.webSocketCreated"):
            params = message["params"]
            urls.append(params.get("request", {}).get("url") or params.get("url", ""))
    return urls


def off_host(urls: list[str]) -> list[str]:
    """The URLs that would leave the machine (data:, blob: and friends stay local)."""
    bad = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            bad.append(url)
    return bad
