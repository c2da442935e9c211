"""The memory explorer (/explorer) driven in headless Chromium against the live API (auth on)
and the demo agent: every view renders real data, a key scoped to an empty agent sees only that
agent and is refused another one (and may not erase), and the page never requests another host.
The design, keyboard and accessibility checks (and the README's screenshots) are in
``test_explorer_design.py``."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.maintenance.duplicates import candidate_id
from graph.memory.ontology import parse_ontology_text
from graph.memory.ontology.service import define_ontology
from server.auth import ApiKeyStore
from server.explorer import CSP
from tests.cypher import load_query
from tests.e2e.chromium import off_host, requested_urls
from tests.e2e.conftest import LiveApi, blank_browser

pytestmark = pytest.mark.e2e

# A status line the page re-renders while a wait reads it: look again, as for a missing one.
RERENDERED = (NoSuchElementException, StaleElementReferenceException)


@pytest.fixture(scope="module")
def browser(chromium: webdriver.Chrome, live_api: LiveApi) -> Iterator[webdriver.Chrome]:
    """The run's Chromium, with nothing stored by the explorer's site before or after."""
    yield blank_browser(chromium, f"{live_api.url}/healthz")
    blank_browser(chromium, f"{live_api.url}/healthz")


@pytest.fixture
async def scoped_key(executor: Executor) -> AsyncIterator[dict[str, str]]:
    """An API key of a fresh tenant naming only a fresh, empty agent."""
    agent, tenant = f"empty-{uuid.uuid4().hex[:10]}", f"explorer-{uuid.uuid4().hex[:8]}"
    _, key = await ApiKeyStore(executor).create(tenant, [agent])
    pair, other = ("person:ana_souza", "person:nina_r"), ("person:ana_souza", "person:ana_s")
    await executor.run(
        "consolidation/upsert_merge_candidates",
        {
            "agent_id": agent,
            "rows": [
                {
                    "id": candidate_id(agent, *p),
                    "keep_key": p[0],
                    "drop_key": p[1],
                    "confidence": 0.9,
                    "reason": "same name",
                }
                for p in (pair, other)
            ],
        },
    )
    yield {
        "agent": agent,
        "key": key,
        "candidate": candidate_id(agent, *other),
        "accept": candidate_id(agent, *pair),
    }
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})
    await delete_agent(executor, agent)


def _view(browser: webdriver.Chrome, url: str) -> str:
    """Open a hash route and wait until its view has rendered (or shown its error)."""
    browser.get(url)
    WebDriverWait(browser, 60).until(
        lambda b: b.execute_script(
            "const m = document.getElementById('view'); return m && m.dataset.ready === '1'"
        )
    )
    return str(browser.find_element(By.ID, "view").text)


def _use_key(browser: webdriver.Chrome, base: str, key: str) -> None:
    """Enter the key the way a person does: type it, press Enter."""
    _view(browser, f"{base}/explorer#/agents")
    field = browser.find_element(By.ID, "api-key")
    field.clear()
    field.send_keys(key, Keys.ENTER)
    WebDriverWait(browser, 60).until(
        lambda b: b.execute_script(
            "return document.getElementById('view').dataset.ready === '1' && "
            "sessionStorage.getItem('hippograph.apiKey') !== null"
        )
    )


def _gql(api: str, key: str, query: str, variables: dict[str, str]) -> dict[str, object]:
    reply = httpx.post(
        f"{api}/graphql",
        headers={"Authorization": f"Bearer {key}"},
        json={"query": query, "variables": variables},
    ).json()
    return dict(reply)


def _no_foreign_requests(browser: webdriver.Chrome) -> None:
    urls = requested_urls(browser)
    assert urls, "the performance log recorded nothing"
    assert off_host(urls) == []


def test_page_is_self_contained_and_guarded(live_api: LiveApi) -> None:
    page = httpx.get(f"{live_api.url}/explorer")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    assert 'integrity="sha384-' in page.text and "http" not in page.text.split("<body>")[0]
    bundle = httpx.get(f"{live_api.url}/explorer-assets/app.js")
    assert bundle.status_code == 200 and "cytoscape" in bundle.text.lower()
    # The host/origin guard covers the page like every route (DNS rebinding, foreign origin).
    assert (
        httpx.get(f"{live_api.url}/explorer", headers={"Host": "evil.example"}).status_code == 403
    )
    assert (
        httpx.get(
            f"{live_api.url}/explorer-assets/app.js", headers={"Origin": "https://evil.example"}
        ).status_code
        == 403
    )


def test_admin_key_browses_the_demo_agent(
    browser: webdriver.Chrome,
    live_api: LiveApi,
    demo_agent: str,
) -> None:
    base = live_api.url
    assert "UNAUTHENTICATED" in _view(browser, f"{base}/explorer#/agents")  # no key yet
    _use_key(browser, base, live_api.admin_key)
    agents = _view(browser, f"{base}/explorer#/agents?q={demo_agent}")  # a page found by id
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-agent="{demo_agent}"]')
    counts = [int(td.text) for td in row.find_elements(By.TAG_NAME, "td")[:4]]
    assert all(c > 0 for c in counts), (counts, agents)

    # Search: ranked facts with their score breakdown and sources, and the context block.
    text = _view(
        browser,
        f"{base}/explorer#/search?agent={demo_agent}&q=" + quote("Where does Guilherme work?"),
    )
    facts = browser.find_elements(By.CSS_SELECTOR, "#results li.fact")
    assert facts, text
    finals = [float(str(f.get_attribute("data-final"))) for f in facts]
    assert finals == sorted(finals, reverse=True) and finals[0] > 0
    # The breakdown is folded: the final score is in it, as the card's bar says.
    shown = facts[0].find_element(By.CSS_SELECTOR, '[data-score="final"]')
    assert not shown.is_displayed()
    facts[0].find_element(By.CSS_SELECTOR, "details summary").click()
    assert float(shown.text) == pytest.approx(finals[0], abs=1e-3)
    if "Ordered by the learned ranker" in facts[0].text:  # its account, feature by feature
        assert facts[0].find_elements(By.CSS_SELECTOR, ".explanation [data-feature]")
    signals = ("SEMANTIC", "KEYWORD", "GRAPH", "ACTIVATION", "PATTERN")
    sources = [b.text for b in facts[0].find_elements(By.CSS_SELECTOR, ".card-row .badge.accent")]
    assert any(s in sources for s in signals), facts[0].text
    context = browser.find_element(By.ID, "context").text
    assert facts[0].find_element(By.TAG_NAME, "a").text.split(" ")[0] in context
    # Never more facts than candidates; the graph's hop path names the query's entity first.
    chosen, pool = (int(w) for w in browser.find_element(By.ID, "plan").text.split()[0:5:4])
    assert 0 < chosen <= pool, browser.find_element(By.ID, "plan").text
    # Named in full, the entity starts the graph signal: each fact found through it shows
    # the hop path (the entity itself, or the relation walked from it).
    _view(
        browser,
        f"{base}/explorer#/search?agent={demo_agent}&q="
        + quote("Where does Guilherme Maturana work?"),
    )
    paths = [p.text for p in browser.find_elements(By.CSS_SELECTOR, "#results .hop-path")]
    assert any(p.startswith("path: Guilherme Maturana") for p in paths), paths
    assert any("→" in p or "←" in p for p in paths), (
        paths
    )  # at least one fact reached over a relation

    # asOf before anything was remembered: nothing to retrieve.
    past = _view(
        browser, f"{base}/explorer#/search?agent={demo_agent}&q=Guilherme&asOf=2000-01-01T00:00:00"
    )
    assert "No fact matched." in past

    # Entity: aliases, relations, facts and the neighbourhood graph; a click expands a node.
    key = "person:guilherme_maturana"
    text = _view(browser, f"{base}/explorer#/entity?agent={demo_agent}&key={key}")
    assert browser.find_elements(By.ID, "entity-name"), text
    assert "Guilherme Maturana" in browser.find_element(By.ID, "entity-name").text
    assert browser.find_elements(By.CSS_SELECTOR, "#relations tr.active")
    assert browser.find_elements(By.CSS_SELECTOR, "#entity-facts li")
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: b.execute_script(
            "return window.explorerGraph && window.explorerGraph.nodes().length > 1"
        )
    )
    labels = browser.execute_script("return window.explorerGraph.edges().map(e => e.data('label'))")
    assert labels and all(labels)
    assert browser.find_elements(By.CSS_SELECTOR, "#legend li")
    before = browser.execute_script("return window.explorerGraph.nodes().length")
    other = browser.execute_script(
        f"return window.explorerGraph.nodes().filter(n => n.id() !== '{key}')[0].id()"
    )
    button = browser.find_element(By.CSS_SELECTOR, f'#expanders button[data-node="{other}"]')
    button.send_keys(Keys.ENTER)  # keyboard: the node's button expands it like a click
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: b.execute_script("return window.explorerGraph.nodes().length") >= before
    )
    assert browser.execute_script("return window.explorerGraph.edges().length") > 0

    # The asOf slider: labelled, one stop per change, "now" last; Home (keyboard) goes back to
    # the first change, where fewer relations held than today.
    slider = browser.find_element(By.ID, "asof-slider")
    assert browser.find_element(By.CSS_SELECTOR, 'label[for="asof-slider"]').text
    assert slider.get_attribute("value") == slider.get_attribute("max")
    assert "now" in str(slider.get_attribute("aria-valuetext"))
    rows = "#relations tr.active, #relations tr.past"
    now_rows = len(browser.find_elements(By.CSS_SELECTOR, rows))
    slider.send_keys(Keys.HOME)
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        staleness_of(slider)
    )  # the view re-rendered
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: b.execute_script("return document.getElementById('view').dataset.ready === '1'")
    )
    assert "asOf=" in browser.current_url
    slider = browser.find_element(By.ID, "asof-slider")
    assert slider.get_attribute("value") == "0"
    assert "now" not in browser.find_element(By.ID, "asof-shown").text
    assert len(browser.find_elements(By.CSS_SELECTOR, rows)) < now_rows
    _view(browser, f"{base}/explorer#/entity?agent={demo_agent}&key={key}")

    # Fact (one the demo's messages stated: the job change): its versions; forget asks for
    # confirmation first (cancelled here).
    fact_link = browser.find_element(
        By.XPATH, "//ul[@id='entity-facts']/li[@class='active']/a[contains(., 'Orion Tech')]"
    )
    fact_link.click()
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: b.execute_script(
            "const m = document.getElementById('view'); return m.dataset.view === 'fact' "
            "&& m.dataset.ready === '1'"
        )
    )
    assert browser.find_elements(By.CSS_SELECTOR, "#versions li")
    # Its evidence (the demo's messages) and the relations resting on it (a table or "None").
    assert browser.find_elements(By.CSS_SELECTOR, "#evidence li blockquote")
    assert browser.find_element(By.ID, "cascades").is_displayed()
    # An admin key may erase: the button asks first (cancelled here: the demo stays whole).
    erase = browser.find_element(By.ID, "erase")
    assert erase.is_enabled() and not browser.find_elements(By.ID, "erase-why")
    erase.click()
    assert browser.find_element(By.ID, "erase-confirm").is_displayed()
    browser.find_element(By.ID, "erase-no").click()
    assert not browser.find_element(By.ID, "erase-confirm").is_displayed()
    browser.find_element(By.ID, "forget").click()
    assert browser.find_element(By.ID, "forget-confirm").is_displayed()
    browser.find_element(By.ID, "forget-no").click()
    assert not browser.find_element(By.ID, "forget-confirm").is_displayed()

    # Review: merge candidates, jobs and the audit trail tables.
    _view(browser, f"{base}/explorer#/review?agent={demo_agent}")
    for table in ("merges", "jobs", "audit"):
        assert browser.find_element(By.ID, table).is_displayed()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#audit tr")) > 1
    _no_foreign_requests(browser)


def test_scoped_key_sees_its_empty_agent_and_is_refused_others(
    browser: webdriver.Chrome, live_api: LiveApi, demo_agent: str, scoped_key: dict[str, str]
) -> None:
    base, agent = live_api.url, scoped_key["agent"]
    _use_key(browser, base, scoped_key["key"])
    _view(browser, f"{base}/explorer#/agents")
    rows = browser.find_elements(By.CSS_SELECTOR, "#agents tbody tr")
    assert [r.get_attribute("data-agent") for r in rows] == [agent]
    assert [td.text for td in rows[0].find_elements(By.TAG_NAME, "td")[:4]] == ["0"] * 4
    empty = _view(browser, f"{base}/explorer#/search?agent={agent}&q=anything")
    assert "No fact matched." in empty
    refused = _view(browser, f"{base}/explorer#/search?agent={demo_agent}&q=Guilherme")
    error = browser.find_element(By.CSS_SELECTOR, "#view .error")
    assert error.get_attribute("data-code") == "FORBIDDEN", refused
    assert not browser.find_elements(By.ID, "results")

    # The key may write its agent: remember one fact, then forget it from its fact view.
    body = httpx.post(
        f"{base}/graphql",
        headers={"Authorization": f"Bearer {scoped_key['key']}"},
        json={"query": REMEMBER, "variables": {"agentId": agent}},
    ).json()
    fact_id = body["data"]["remember"]["summary"]["factIds"][0]
    _view(browser, f"{base}/explorer#/fact?agent={agent}&id={fact_id}")
    assert "Ana Souza lives in Recife" in browser.find_element(By.ID, "versions").text
    assert "imported" in browser.find_element(By.ID, "evidence").text  # no message behind it
    # This key may forget but not erase: the button is disabled and says why.
    assert not browser.find_element(By.ID, "erase").is_enabled()
    assert "admin API key" in browser.find_element(By.ID, "erase-why").text
    browser.find_element(By.ID, "forget").send_keys(Keys.ENTER)
    browser.find_element(By.ID, "forget-reason").send_keys("moved away")
    browser.find_element(By.ID, "forget-yes").send_keys(Keys.ENTER)
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: "Forgotten" in b.find_element(By.ID, "forget-status").text
    )
    _view(browser, f"{base}/explorer#/agents")
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-agent="{agent}"]')
    assert row.find_elements(By.TAG_NAME, "td")[0].text == "0"  # no active fact left

    # Review: an open merge candidate is rejected after the confirmation dialog.
    _view(browser, f"{base}/explorer#/review?agent={agent}")
    reject = f'button[data-merge="{scoped_key["candidate"]}"][data-accept="false"]'
    browser.find_element(By.CSS_SELECTOR, reject).send_keys(Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda b: b.switch_to.alert).accept()
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: "REJECTED" in b.find_element(By.ID, "review-status").text
    )
    assert not browser.find_elements(By.CSS_SELECTOR, reject)  # no longer open

    # Accept: the duplicate (with a fact of its own) is merged into the kept entity.
    dup = _gql(base, scoped_key["key"], REMEMBER_DUPLICATE, {"agentId": agent})
    assert dup["data"] == {"remember": {"errors": []}}, dup
    accept = f'button[data-merge="{scoped_key["accept"]}"][data-accept="true"]'
    browser.find_element(By.CSS_SELECTOR, accept).send_keys(Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda b: b.switch_to.alert).accept()
    said = WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: "REJECTED" not in (t := b.find_element(By.ID, "review-status").text) and t
    )
    assert "MERGED" in said, said
    merged = _gql(base, scoped_key["key"], ENTITY, {"agentId": agent, "key": "person:nina_r"})
    assert merged["data"] == {"entity": {"mergedInto": "person:ana_souza"}}, merged
    _view(browser, f"{base}/explorer#/entity?agent={agent}&key=person:ana_souza")
    assert "Nina R likes frevo" in browser.find_element(By.ID, "entity-facts").text

    # The admin key erases the forgotten fact for good from its fact view.
    _use_key(browser, base, live_api.admin_key)
    _view(browser, f"{base}/explorer#/fact?agent={agent}&id={fact_id}")
    browser.find_element(By.ID, "erase").send_keys(Keys.ENTER)
    browser.find_element(By.ID, "erase-yes").send_keys(Keys.ENTER)
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: "Erased" in b.find_element(By.ID, "forget-status").text
    )
    gone = _gql(base, live_api.admin_key, HISTORY, {"agentId": agent, "id": fact_id})
    assert gone["errors"][0]["extensions"]["code"] == "NOT_FOUND", gone  # type: ignore[index]
    _no_foreign_requests(browser)


REMEMBER = """mutation($agentId: ID!) {
  remember(agentId: $agentId, facts: [{text: "Ana Souza lives in Recife", subject: "Ana Souza"}]) {
    summary { factIds } errors { code message }
  }
}"""

REMEMBER_DUPLICATE = """mutation($agentId: ID!) {
  remember(agentId: $agentId, entities: [{name: "Ana Souza", type: "person"},
                                           {name: "Nina R", type: "person"}],
           facts: [{text: "Nina R likes frevo", subject: "Nina R"}]) { errors { code message } }
}"""

ENTITY = """query($agentId: ID!, $key: String!) {
  entity(agentId: $agentId, key: $key) { mergedInto }
}"""

HISTORY = """query($agentId: ID!, $id: ID!) { factHistory(agentId: $agentId, id: $id) { id } }"""


@pytest.fixture
async def support_agent(executor: Executor) -> AsyncIterator[str]:
    """A fresh agent with the worked example's customer-support ontology (docs/ontology.md)."""
    agent = f"support-{uuid.uuid4().hex[:10]}"
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "support-ontology.yaml"
    ontology = parse_ontology_text(example.read_text(encoding="utf-8"))
    await define_ontology(executor, "agent", agent, ontology)
    yield agent
    await delete_agent(executor, agent)


def test_the_ontology_view_explains_the_agents_types(
    browser: webdriver.Chrome, live_api: LiveApi, demo_agent: str, support_agent: str
) -> None:
    base = live_api.url
    _use_key(browser, base, live_api.admin_key)
    _view(browser, f"{base}/explorer#/ontology?agent={demo_agent}")
    assert "built-in" in browser.find_element(By.ID, "ontology-summary").text
    _view(browser, f"{base}/explorer#/ontology?agent={support_agent}")
    summary = browser.find_element(By.ID, "ontology-summary").text
    assert "customer-support" in summary and "version 1" in summary, summary
    rows = browser.find_elements(By.CSS_SELECTOR, "#entity-types tr")
    customer = next(r.text for r in rows if r.text.startswith("customer"))
    assert "person" in customer and "client" in customer, customer
    relations = browser.find_element(By.ID, "relation-types").text
    assert "subscribed_to customer subscription one (a new one replaces it)" in relations
    assert "owns customer product many owned_by" in relations


def test_the_live_view_shows_new_facts_without_reload(
    browser: webdriver.Chrome, live_api: LiveApi, scoped_key: dict[str, str]
) -> None:
    """The Live view subscribes to memoryChanged over a WebSocket: a fact remembered through
    the API appears on the open page, and leaves it when forgotten, with no reload."""
    base, agent, key = live_api.url, scoped_key["agent"], scoped_key["key"]
    _use_key(browser, base, key)
    _view(browser, f"{base}/explorer#/live?agent={agent}")
    WebDriverWait(browser, 30).until(
        lambda b: b.find_element(By.ID, "live-status").get_attribute("data-state") == "live"
    )
    browser.execute_script("window.sameDocument = true")
    text = "Ana Souza adopted a cat named Miso"
    remembered = _gql(
        base,
        key,
        "mutation($a: ID!, $t: String!) { remember(agentId: $a, facts: [{text: $t, "
        'subject: "Ana Souza"}]) { summary { factIds } errors { message } } }',
        {"a": agent, "t": text},
    )
    fact_id = remembered["data"]["remember"]["summary"]["factIds"][0]  # type: ignore[index]
    shown = f'#live-facts li[data-fact="{fact_id}"]'
    WebDriverWait(browser, 30, ignored_exceptions=RERENDERED).until(
        lambda b: b.find_element(By.CSS_SELECTOR, shown).text.startswith(text)
    )
    log = browser.find_element(By.CSS_SELECTOR, '#live-changes li[data-kind="FACT_ADDED"]')
    assert text in log.text
    forgot = _gql(
        base,
        key,
        "mutation($a: ID!, $f: ID!) { forget(agentId: $a, factId: $f) { errors { message } } }",
        {"a": agent, "f": fact_id},
    )
    assert forgot["data"]["forget"]["errors"] == []  # type: ignore[index]
    WebDriverWait(browser, 30).until(
        lambda b: (
            not b.find_elements(By.CSS_SELECTOR, shown)
            and b.find_elements(By.CSS_SELECTOR, '#live-changes li[data-kind="FACT_FORGOTTEN"]')
        )
    )
    gone = browser.find_element(By.CSS_SELECTOR, '#live-changes li[data-kind="FACT_FORGOTTEN"]')
    assert text not in gone.text
    assert browser.execute_script("return window.sameDocument") is True  # never reloaded
    _no_foreign_requests(browser)
