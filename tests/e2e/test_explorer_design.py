"""The explorer as a designed product, in headless Chromium against the live API and the demo
agent: every view, at 1400×900 and at a phone's 390×844, in the light and the dark theme, has no
serious or critical accessibility violation (axe-core, installed by ``scripts/bootstrap.sh
--test`` into tests/e2e/axe); lists answer the arrow keys, Enter opens, Escape closes a
confirmation, "/" finds the search field; the graph's visible labels never overlap. With
``--screenshots DIR`` the README's screenshots are saved there (``docs/images``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.conftest import LiveApi, blank_browser

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDE, NARROW = (1400, 900), (390, 844)
KEY = "person:guilherme_maturana"
QUESTION = quote("Where does Guilherme Maturana work?")


@pytest.fixture(scope="module")
def browser(chromium: webdriver.Chrome, live_api: LiveApi) -> Iterator[webdriver.Chrome]:
    yield blank_browser(chromium, f"{live_api.url}/healthz")
    chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    blank_browser(chromium, f"{live_api.url}/healthz")


def _size(browser: webdriver.Chrome, size: tuple[int, int]) -> None:
    width, height = size
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def _open(browser: webdriver.Chrome, url: str, *, check: bool = True) -> None:
    browser.get(url)
    WebDriverWait(browser, 60).until(
        lambda b: b.execute_script(
            "const m = document.getElementById('view'); return m && m.dataset.ready === '1'"
        )
    )
    if check:
        errors = browser.find_elements(By.CSS_SELECTOR, "#view .error")
        assert not errors, browser.find_element(By.ID, "view").text


def _serious(browser: webdriver.Chrome) -> list[dict[str, object]]:
    """axe-core's serious and critical violations on the page as it is now."""
    assert AXE.is_file(), "axe-core missing: run scripts/bootstrap.sh --test"
    if not browser.execute_script("return !!window.axe"):
        browser.execute_script(AXE.read_text(encoding="utf-8"))
    found = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v =>"
        " ({id: v.id, impact: v.impact, help: v.help,"
        "   nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}))));"
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def _screenshot(browser: webdriver.Chrome, config: pytest.Config, tmp: Path, name: str) -> None:
    png = browser.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG")
    (tmp / name).write_bytes(png)
    if out := config.getoption("--screenshots"):
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / name).write_bytes(png)


def _use_admin_key(browser: webdriver.Chrome, live_api: LiveApi) -> None:
    _open(browser, f"{live_api.url}/explorer#/webhooks", check=False)  # no key yet
    browser.execute_script(
        "sessionStorage.setItem('hippograph.apiKey', arguments[0])", live_api.admin_key
    )


def _views(base: str, agent: str, fact_id: str) -> dict[str, str]:
    page = f"{base}/explorer#/"
    return {
        "agents": f"{page}agents?q={agent}",
        "search": f"{page}search?agent={agent}&q={QUESTION}",
        "entity": f"{page}entity?agent={agent}&key={KEY}",
        "timeline": f"{page}timeline?agent={agent}&key={KEY}",
        "fact": f"{page}fact?agent={agent}&id={fact_id}",
        "entities": f"{page}entity?agent={agent}",
        "review": f"{page}review?agent={agent}",
        "ontology": f"{page}ontology?agent={agent}",
        "webhooks": f"{page}webhooks",
        "live": f"{page}live?agent={agent}",
    }


# The views whose screenshots the README shows (wide, unless named narrow or dark).
SHOTS = {
    ("search", WIDE),
    ("search", NARROW),
    ("entity", WIDE),
    ("timeline", WIDE),
    ("agents", NARROW),
    ("webhooks", WIDE),
}


def test_every_view_is_accessible_at_both_sizes_and_in_both_themes(
    browser: webdriver.Chrome,
    live_api: LiveApi,
    demo_agent: str,
    pytestconfig: pytest.Config,
    tmp_path: Path,
) -> None:
    _use_admin_key(browser, live_api)
    _open(browser, f"{live_api.url}/explorer#/search?agent={demo_agent}&q={QUESTION}")
    fact_id = browser.find_element(By.CSS_SELECTOR, "#results li.fact").get_attribute("data-fact")
    views = _views(live_api.url, demo_agent, str(fact_id))
    problems: dict[str, list[dict[str, object]]] = {}
    for size in (WIDE, NARROW):
        _size(browser, size)
        for name, url in views.items():
            _open(browser, url)
            if name == "search":  # a breakdown unfolded: what the reader opens next
                browser.find_element(By.CSS_SELECTOR, "#results details summary").click()
            if name == "entity":
                WebDriverWait(browser, 30).until(
                    lambda b: b.execute_script("return window.explorerGraph?.nodes().length > 1")
                )
            if found := _serious(browser):
                problems[f"{name} {size[0]}"] = found
            if (name, size) in SHOTS:
                label = "wide" if size == WIDE else "narrow"
                _screenshot(browser, pytestconfig, tmp_path, f"explorer-{name}-{label}.png")
    # The dark theme, chosen with the header's toggle (kept for the site).
    _size(browser, WIDE)
    _open(browser, views["search"])
    toggle = browser.find_element(By.ID, "theme-toggle")
    toggle.click()
    assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"
    assert toggle.get_attribute("aria-pressed") == "true"
    for name in ("search", "entity", "timeline", "agents"):
        _open(browser, views[name])
        if name == "search":
            browser.find_element(By.CSS_SELECTOR, "#results details summary").click()
            _screenshot(browser, pytestconfig, tmp_path, "explorer-search-dark.png")
        if found := _serious(browser):
            problems[f"{name} dark"] = found
    browser.find_element(By.ID, "theme-toggle").click()
    assert problems == {}


def test_keyboard_use_and_labels_that_do_not_collide(
    browser: webdriver.Chrome, live_api: LiveApi, demo_agent: str
) -> None:
    _use_admin_key(browser, live_api)
    _size(browser, WIDE)
    views = _views(live_api.url, demo_agent, "x")
    # "/" finds the view's search field; arrow keys walk the result cards; Enter opens one.
    _open(browser, views["search"])
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    assert browser.switch_to.active_element.get_attribute("id") == "search-query"
    cards = browser.find_elements(By.CSS_SELECTOR, "#results li.card")
    assert len(cards) >= 2
    assert [c.get_attribute("tabindex") for c in cards[:2]] == ["0", "-1"]  # one Tab stop
    cards[0].send_keys(Keys.ARROW_DOWN)
    assert browser.switch_to.active_element.get_attribute("data-fact") == cards[1].get_attribute(
        "data-fact"
    )
    browser.switch_to.active_element.send_keys(Keys.END)
    assert browser.switch_to.active_element == cards[-1]
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    WebDriverWait(browser, 30).until(
        lambda b: b.execute_script(
            "const m = document.getElementById('view');"
            "return m.dataset.view === 'fact' && m.dataset.ready === '1'"
        )
    )
    # Escape closes the confirmation and gives the focus back to the button that opened it.
    browser.find_element(By.ID, "forget").send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "forget-confirm").is_displayed()
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert not browser.find_element(By.ID, "forget-confirm").is_displayed()
    assert browser.switch_to.active_element.get_attribute("id") == "forget"
    # The timeline: facts over time, superseded versions included, each a keyboard stop.
    _open(browser, views["timeline"])
    items = browser.find_elements(By.CSS_SELECTOR, "#timeline li[data-state]")
    states = [i.get_attribute("data-state") for i in items]
    # The demo's moves and job change closed older facts (retracted offline, no successor link).
    assert "current" in states and {"superseded", "retracted"} & set(states), states
    ended = items[next(i for i, s in enumerate(states) if s != "current")]
    assert " – " in ended.find_element(By.CSS_SELECTOR, ".meta").text  # from – until
    days = [d.text for d in browser.find_elements(By.CSS_SELECTOR, "#timeline .day-title")]
    assert days == sorted(days) and len(days) > 1, days  # by when each became true
    items[0].send_keys(Keys.ARROW_DOWN)
    assert browser.switch_to.active_element == items[1]
    # The graph: no two labels shown overlap, and each hidden one is still in the data.
    _open(browser, views["entity"])
    WebDriverWait(browser, 30).until(
        lambda b: b.execute_script("return window.explorerGraph?.nodes().length > 1")
    )
    boxes = browser.execute_script("return window.explorerLabelBoxes()")
    assert len(boxes) >= 2
    overlapping = [
        (a, b)
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a["x1"] < b["x2"] and b["x1"] < a["x2"] and a["y1"] < b["y2"] and b["y1"] < a["y2"]
    ]
    assert overlapping == []
