"""The GraphiQL page served at GET /graphql, with Hippograph's example operations preloaded as
tabs for the demo agent: reads first (retrieve context, explore an entity's graph, the audit
trail and jobs), so the page opens on a query; the tab that writes a message comes last.

The page's scripts and styles (React, GraphiQL, the explorer plugin) are served by our own app:
``scripts/bootstrap.sh`` fetches the npm packages pinned in ``ASSET_PACKAGES`` from the npm
registry into ``<home>/graphiql/<name>@<version>/`` and the app mounts that folder at
``ASSETS_PATH``; the page keeps the upstream subresource-integrity hashes, so the browser checks
each file. No request leaves the machine.

The page is never framed (:data:`HEADERS`: ``frame-ancestors 'none'``, ``X-Frame-Options:
DENY``), and it runs only what the person sees and typed or chose: a document in the page
address (``?q=``) that contains a mutation or subscription is not loaded into the editor (the
address loses it, the editor says why), so neither a link nor a framing page can prefill an
operation that changes memory; headers are never read from the address.
"""

from __future__ import annotations

import json
import re
from functools import cache

from strawberry.http.ides import get_graphql_ide_html

__all__ = [
    "ASSETS_PATH",
    "ASSET_PACKAGES",
    "CDN",
    "EXAMPLE_TABS",
    "HEADERS",
    "cdn_packages",
    "graphiql_html",
]

CDN = "https://unpkg.com/"
ASSETS_PATH = "/graphiql-assets"
# Exactly the packages strawberry's GraphiQL template loads (a unit test keeps them in step).
ASSET_PACKAGES: tuple[str, ...] = (
    "react@18.2.0",
    "react-dom@18.2.0",
    "js-cookie@3.0.5",
    "graphiql@3.8.3",
    "@graphiql/plugin-explorer@1.0.2",
)
_MISSING_HINT = (
    "Loading... (if this stays, the GraphiQL assets are missing: run scripts/bootstrap.sh)"
)

# Response headers of the page: no site may frame it (clickjacking a Run on a prefilled tab).
HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}

# The address's ``q`` as the editor gets it: a mutation or subscription (any mention of one,
# comments and strings included) is not loaded and is dropped from the address.
_FROM_ADDRESS = """
      const ADDRESS_REFUSED = "# The page address carried a mutation or subscription; it was not\\n" +
        "# loaded. Type or paste the operation you mean to run.\\n";
      function fromAddress(text) {
        if (!text || !/mutation|subscription/i.test(text)) return text;
        updateURL({ q: "" });
        return ADDRESS_REFUSED;
      }
"""

_HEADERS = '{\n  "Authorization": "Bearer <your API key: hippograph apikey create ...>"\n}'

EXAMPLE_TABS: list[dict[str, str]] = [
    {
        "query": """# Context for a prompt: ranked facts, snippets and patterns.
query Retrieve {
  retrieve(agentId: "demo", query: "Where does Guilherme work and live?") {
    context
    facts { text kind score sources tier }
    plan { strategy reason }
  }
}
""",
        "headers": _HEADERS,
    },
    {
        "query": """# An entity with its facts, aliases and its neighbourhood as a graph.
query EntityGraph {
  entity(agentId: "demo", key: "person:guilherme_maturana") {
    name aliases
    facts { text validFrom active }
    relationships(includeInvalidated: true) { type direction otherName active }
  }
  neighborhood(agentId: "demo", key: "person:guilherme_maturana", hops: 2) {
    nodes { id label type depth }
    edges { source target label }
  }
}
""",
        "headers": _HEADERS,
    },
    {
        "query": """# Closed sets are enums (WriteAction, JobStatus, FactKind...): no quotes.
query AuditAndJobs {
  auditLog(agentId: "demo", action: UPDATE, limit: 5) { createdAt action mode reason }
  jobs(agentId: "demo", status: PENDING, limit: 5) { id kind status progress }
  facts(agentId: "demo", kind: PREFERENCE, first: 5) { edges { node { text kind } } }
}
""",
        "headers": _HEADERS,
    },
    {
        "query": """# Store a message (this changes the demo agent's memory): facts are extracted,
# reconciled and versioned.
mutation Write {
  write(
    agentId: "demo"
    speakerName: "Guilherme"
    message: "I started a new job at Orion Tech as head of data."
  ) {
    outcome { mode eventId factsAdded { action text subjectKey } factsUpdated { text } warnings }
    errors { code message }
  }
}
""",
        "headers": _HEADERS,
    },
]


def cdn_packages(html: str) -> set[str]:
    """The ``name@version`` of every package a page loads from the CDN."""
    return set(re.findall(re.escape(CDN) + r"((?:@[\w.-]+/)?[\w.-]+@[\w.-]+)/", html))


def _local_assets(html: str) -> str:
    """Point every CDN URL at ``ASSETS_PATH`` (same origin: no ``crossorigin`` needed)."""
    html = html.replace(CDN, ASSETS_PATH + "/").replace("crossorigin\n", "")
    return html.replace(">Loading...<", f">{_MISSING_HINT}<", 1)


@cache
def graphiql_html() -> str:
    """Strawberry's GraphiQL page with local assets, our title and example tabs.

    Raises:
        RuntimeError: strawberry's template loads a package we do not pin (a strawberry upgrade
            changed it): add it to ``ASSET_PACKAGES`` so bootstrap fetches it.
    """
    html = get_graphql_ide_html("graphiql")
    unpinned = cdn_packages(html) - set(ASSET_PACKAGES)
    if unpinned:
        raise RuntimeError(f"GraphiQL template loads unpinned packages {sorted(unpinned)}")
    html = _local_assets(html)
    tabs = json.dumps(EXAMPLE_TABS).replace("</", "<\\/")
    replacements = [
        ("<title>Strawberry GraphiQL</title>", "<title>Hippograph GraphiQL</title>"),
        ("const EXAMPLE_QUERY = `", f"const DEFAULT_TABS = {tabs};\n      const EXAMPLE_QUERY = `"),
        (
            "plugins: [explorerPlugin],",
            "plugins: [explorerPlugin],\n          defaultTabs: DEFAULT_TABS,",
        ),
    ]
    # What the page may run: refused to serve if strawberry's template changed under them.
    guards = [
        ("      const fetchURL = ", _FROM_ADDRESS + "\n      const fetchURL = "),
        (
            "React.useState(\n          parameters.q || EXAMPLE_QUERY,\n        )",
            "React.useState(fromAddress(parameters.q))",  # no welcome text: the example tabs
        ),
        ("React.useState(parameters.headers)", "React.useState(undefined)"),
        (  # the note that replaced a refused document never goes back into the address
            "updateURL({ q: newQuery });",
            "updateURL({ q: newQuery === ADDRESS_REFUSED ? '' : newQuery });",
        ),
    ]
    for old, new in guards:
        if html.count(old) != 1:
            raise RuntimeError(f"GraphiQL template changed: cannot guard {old.strip()!r}")
        html = html.replace(old, new, 1)
    for old, new in replacements:
        if old not in html:  # strawberry changed its template: keep it working, unbranded
            return html
        html = html.replace(old, new, 1)
    return html
