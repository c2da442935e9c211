"""The GraphiQL page loads nothing from a CDN: every asset strawberry's template names is pinned
(so bootstrap fetches it) and points at our own /graphiql-assets."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest
from strawberry.http.ides import get_graphql_ide_html

from gql.graphiql import (
    ASSET_PACKAGES,
    ASSETS_PATH,
    EXAMPLE_TABS,
    cdn_packages,
    graphiql_html,
)


def test_every_template_package_is_pinned() -> None:
    upstream = cdn_packages(get_graphql_ide_html("graphiql"))
    assert upstream and upstream == set(ASSET_PACKAGES)


def test_page_only_references_local_assets() -> None:
    page = graphiql_html()
    refs = re.findall(r'(?:src|href)="([^"]+)"', page)
    external = [r for r in refs if not (r.startswith(ASSETS_PATH + "/") or r.startswith("data:"))]
    assert external == [] and "unpkg" not in page
    assert f"{ASSETS_PATH}/graphiql@3.8.3/graphiql.min.js" in refs
    assert "integrity=" in page  # upstream SRI hashes kept: the browser verifies each file
    assert "DEFAULT_TABS" in page and "query Retrieve" in page


def test_the_page_opens_on_a_read_and_the_write_tab_comes_last() -> None:
    """GraphiQL shows the first tab: a newcomer's first Run must not change the demo's memory."""
    operations = [
        next(line for line in tab["query"].splitlines() if not line.startswith("#"))
        for tab in EXAMPLE_TABS
    ]
    assert operations[0].startswith("query Retrieve"), operations
    writes = [i for i, op in enumerate(operations) if op.startswith("mutation")]
    assert writes == [len(operations) - 1], operations


def _address_guard(page: str) -> str:
    """The page's script that turns the address's ``q`` into the editor's text."""
    start = page.index("const ADDRESS_REFUSED")
    return page[start : page.index("const fetchURL", start)]


def _editor_text(q: str) -> dict[str, Any]:
    """Runs the page's own guard in Node: what the editor shows and what the address keeps."""
    script = (
        "let address = {};\nfunction updateURL(data) { Object.assign(address, data); }\n"
        + _address_guard(graphiql_html())
        + f"\nconst shown = fromAddress({json.dumps(q)});\n"
        + "console.log(JSON.stringify({shown, address}));\n"
    )
    out = subprocess.run([NODE or "node", "-e", script], capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="needs Node.js (scripts/bootstrap.sh installs it)")
@pytest.mark.parametrize(
    "q",
    [
        'mutation { eraseAgent(agentId: "demo") { erased } }',
        'query Q { health { ready } }\nmutation M { eraseAgent(agentId: "demo") { erased } }',
        "subscription { x }",
        '# harmless\n  MUTATION{ eraseAgent(agentId: "demo") { erased } }',
    ],
)
def test_a_mutation_in_the_address_is_not_loaded(q: str) -> None:
    got = _editor_text(q)
    assert "eraseAgent" not in got["shown"] and "not\n# loaded" in got["shown"]
    assert got["address"] == {"q": ""}  # the address drops it too


@pytest.mark.skipif(NODE is None, reason="needs Node.js (scripts/bootstrap.sh installs it)")
def test_a_query_in_the_address_is_loaded_as_sent() -> None:
    q = '{ retrieve(agentId: "demo", query: "where") { context } }'
    assert _editor_text(q) == {"shown": q, "address": {}}


def test_the_page_takes_no_query_or_headers_from_the_address_unguarded() -> None:
    page = graphiql_html()
    assert "React.useState(fromAddress(parameters.q))" in page
    assert "parameters.q ||" not in page and "parameters.headers" not in page
    assert "EXAMPLE_QUERY," not in page  # the example tabs replace strawberry's welcome text
