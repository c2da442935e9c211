"""The GraphiQL page served at GET /graphql, with Hippograph's example operations preloaded as
tabs (write a message, retrieve context, explore an entity's graph) for the demo agent."""

from __future__ import annotations

import json
from functools import cache

from strawberry.http.ides import get_graphql_ide_html

__all__ = ["EXAMPLE_TABS", "graphiql_html"]

_HEADERS = '{\n  "Authorization": "Bearer <your API key: hippograph apikey create ...>"\n}'

EXAMPLE_TABS: list[dict[str, str]] = [
    {
        "query": """# Store a message: facts are extracted, reconciled and versioned.
mutation Write {
  write(
    agentId: "demo"
    speakerName: "Guilherme"
    message: "I started a new job at Orion Tech as head of data."
  ) {
    outcome { eventId factsAdded { text subjectKey } factsUpdated { text } warnings }
    errors { code message }
  }
}
""",
        "headers": _HEADERS,
    },
    {
        "query": """# Context for a prompt: ranked facts, snippets and patterns.
query Retrieve {
  retrieve(agentId: "demo", query: "Where does Guilherme work and live?") {
    context
    facts { text score sources }
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
    relationships(includeInvalidated: true) { type targetName active }
  }
  neighborhood(agentId: "demo", key: "person:guilherme_maturana", hops: 2) {
    nodes { id label type depth }
    edges { source target label }
  }
}
""",
        "headers": _HEADERS,
    },
]


@cache
def graphiql_html() -> str:
    """Strawberry's GraphiQL page with our title and example tabs."""
    html = get_graphql_ide_html("graphiql")
    tabs = json.dumps(EXAMPLE_TABS).replace("</", "<\\/")
    replacements = [
        ("<title>Strawberry GraphiQL</title>", "<title>Hippograph GraphiQL</title>"),
        ("const EXAMPLE_QUERY = `", f"const DEFAULT_TABS = {tabs};\n      const EXAMPLE_QUERY = `"),
        ("parameters.q || EXAMPLE_QUERY", "parameters.q"),
        (
            "plugins: [explorerPlugin],",
            "plugins: [explorerPlugin],\n          defaultTabs: DEFAULT_TABS,",
        ),
    ]
    for old, new in replacements:
        if old not in html:  # strawberry changed its template: keep it working, unbranded
            return html
        html = html.replace(old, new, 1)
    return html
