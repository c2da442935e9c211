"""The explorer page: time to the first rendered view on loopback, and the bundle's size.

    .venv/bin/python -m tests.bench.bench_explorer [--repeats 5]

The API runs in this process (uvicorn thread, auth off on loopback, no job worker) over the
seeded demo agent; headless Chromium (cut off from every other host) opens each view with a fresh
page load ``--repeats`` times. A view's time is the page's own ``performance.now()`` when the view
finished rendering (navigation start → HTML, bundle, GraphQL round trips, DOM and, for the entity
view, the Cytoscape layout). The bundle size is the gzip size of what ``/explorer-assets`` serves.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import statistics
from urllib.parse import quote

from selenium.webdriver.support.ui import WebDriverWait

from graph.progress import progress_bar
from seed.__main__ import seed
from server.settings import Settings
from tests.e2e.chromium import off_host, requested_urls, start_chromium
from tests.e2e.conftest import serve_in_thread

VIEWS = {
    "agents": "#/agents",
    "search": "#/search?agent=demo&q=" + quote("Where does Guilherme work and live?"),
    "entity (graph)": "#/entity?agent=demo&key=person:guilherme_maturana",
    "timeline": "#/timeline?agent=demo&key=person:guilherme_maturana",
    "review": "#/review?agent=demo",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh page loads per view")
    args = parser.parse_args()
    settings = Settings(
        auth_disabled=True,
        llm_base_url=None,
        llm_api_key=None,
        worker_enabled=False,
        rate_limit_per_minute=0,
    )
    asyncio.run(seed(settings, "demo", progress=False))
    bundle = settings.home / "explorer"
    sizes = {
        name: (len(raw := (bundle / name).read_bytes()), len(gzip.compress(raw, 9)))
        for name in ("app.js", "app.css")
    }
    server, thread, url = serve_in_thread(settings)
    browser = start_chromium()
    times: dict[str, list[float]] = {v: [] for v in VIEWS}
    try:
        for _ in progress_bar(range(args.repeats), desc="page loads", unit="round"):
            for view, route in VIEWS.items():
                browser.get("about:blank")
                browser.get(f"{url}/explorer{route}")
                ms = WebDriverWait(browser, 60).until(
                    lambda b: b.execute_script(
                        "const m = document.getElementById('view');"
                        "return m && m.dataset.ready === '1' && m.dataset.renderedMs"
                    )
                )
                assert not browser.find_elements("css selector", "#view .error"), view
                times[view].append(float(ms))
        leaked = off_host(requested_urls(browser))
    finally:
        browser.quit()
        server.should_exit = True
        thread.join(timeout=30)

    print(
        f"\nExplorer, loopback, demo agent, {args.repeats} fresh page loads per view "
        "(ms from navigation start to the view rendered)"
    )
    print(f"{'view':<16}{'median':>9}{'min':>9}{'max':>9}")
    for view, values in times.items():
        print(f"{view:<16}{statistics.median(values):>9.0f}{min(values):>9.0f}{max(values):>9.0f}")
    for name, (raw, gz) in sizes.items():
        print(f"bundle {name}: {raw / 1024:.1f} KiB, {gz / 1024:.1f} KiB gzip")
    print(f"requests to other hosts: {len(leaked)}")


if __name__ == "__main__":
    main()
