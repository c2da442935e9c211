"""A Neo4j Browser guide (``:play http://<api>/browser-guide``) served by our app.

Its slides carry the saved queries of ``cypher/browser/`` as clickable blocks, with the
parameters preset for the demo agent; ``/browser-guide/hippograph.grass`` is the style sheet.
The local Neo4j's ``neo4j.conf`` allow-lists our host and, through ``browser.post_connect_cmd``
(``post_connect_cmd``), applies the style, sets the parameters and opens the guide right after
connecting. Browser fetches both with cross-origin requests, so they answer CORS (read-only,
public content).
"""

from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

import cypher

__all__ = ["DEMO_PARAMS", "GUIDE_PATH", "browser_guide_routes", "guide_html", "post_connect_cmd"]

GUIDE_PATH = "/browser-guide"
STYLE_PATH = f"{GUIDE_PATH}/hippograph.grass"
BROWSER_DIR = Path(cypher.__file__).parent / "browser"
# The saved queries' parameters for the demo agent, as a Browser `:params` map.
DEMO_PARAMS = (
    "{agent_id: 'demo', fact_text: 'Lisboa', since: datetime('2025-01-01T00:00:00Z'), limit: 15}"
)
# Guide order: the whole graph first, then history, then rankings.
_ORDER = (
    "entity_graph",
    "fact_version_chain",
    "invalidated_relationships",
    "changes_since",
    "top_entities",
    "types_in_use",
)
_CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": "cache-control, pragma, content-type",
    "Cache-Control": "no-cache",
}


def post_connect_cmd(api_url: str) -> str:
    """The ``browser.post_connect_cmd`` value: style, demo parameters, then the guide.

    Browser splits it on ``;`` and prefixes each part with ``:``.
    """
    base = api_url.rstrip("/")
    return f"style {base}{STYLE_PATH}; params {DEMO_PARAMS}; play {base}{GUIDE_PATH}"


def _saved_query(name: str) -> tuple[str, str, str]:
    """(title, params line, query body) of ``cypher/browser/<name>.cypher``."""
    lines = cypher.load(f"browser/{name}").splitlines()
    header = [line.removeprefix("//").strip() for line in lines if line.startswith("//")]
    body = "\n".join(line for line in lines if not line.startswith("//")).strip()
    params = next(
        (h.removeprefix("params:").strip() for h in header if h.startswith("params:")), ""
    )
    return header[0], params, body


def _runnable(text: str) -> str:
    return f'<pre mode="cypher" class="runnable">{html.escape(text)}</pre>'


def _slide(title: str, *parts: str) -> str:
    inner = "\n".join(parts)
    return (
        f'<slide class="row-fluid"><div class="col-sm-12"><h3>{html.escape(title)}</h3>\n'
        f"{inner}\n</div></slide>"
    )


@lru_cache(maxsize=8)
def guide_html(base_url: str) -> str:
    """The guide for an API reachable at ``base_url`` (used for the style sheet's URL)."""
    base = base_url.rstrip("/")
    slides = [
        _slide(
            "Hippograph memory in Neo4j Browser",
            "<p>Everything Hippograph remembers for an agent is an ordinary graph: "
            "<code>Entity</code> nodes linked by <code>RELATES_TO</code> edges (the semantic "
            "type such as <code>works_at</code> is the edge's <code>type</code> property), "
            "<code>Fact</code> nodes <code>ABOUT</code> entities, versions linked by "
            "<code>SUPERSEDES</code>.</p>",
            "<p>The parameters below (the demo agent loaded by <code>make run</code>) and the "
            "Hippograph style were set when you connected. Click a block to put it in the "
            "editor, then run it (Ctrl+Enter).</p>",
            _runnable(f":params {DEMO_PARAMS}"),
            _runnable(f":style {base}{STYLE_PATH}"),
        )
    ]
    for name in _ORDER:
        title, params, body = _saved_query(name)
        slides.append(
            _slide(
                title.rstrip("."),
                f"<p>Saved query <code>cypher/browser/{name}.cypher</code>; parameters: "
                f"{html.escape(params)}.</p>",
                _runnable(body),
            )
        )
    slides.append(
        _slide(
            "Things to try",
            "<ul><li>In the entity graph, double-click <em>Guilherme Maturana</em> to expand "
            "his neighbourhood.</li>"
            "<li>Change the version chain's text: <code>:param fact_text =&gt; 'Orion'</code>.</li>"
            "<li><em>Guilherme Maturanna</em> is a planted near-duplicate: a "
            "<code>MergeCandidate</code> node waits for review (GraphQL <code>mergeCandidates</code>"
            " and <code>resolveMergeCandidate</code>).</li></ul>",
        )
    )
    return (
        '<article class="guide"><carousel class="deck container-fluid">\n'
        + "\n".join(slides)
        + "\n</carousel></article>\n"
    )


async def _guide(request: Request) -> Response:
    if request.method == "OPTIONS":
        return Response(status_code=204, headers=_CORS)
    return HTMLResponse(guide_html(str(request.base_url)), headers=_CORS)


async def _style(request: Request) -> Response:
    if request.method == "OPTIONS":
        return Response(status_code=204, headers=_CORS)
    return PlainTextResponse((BROWSER_DIR / "hippograph.grass").read_text(), headers=_CORS)


def browser_guide_routes() -> list[Route]:
    """The guide and its style sheet (GET, plus the CORS pre-flight)."""
    return [
        Route(GUIDE_PATH, _guide, methods=["GET", "OPTIONS"]),
        Route(STYLE_PATH, _style, methods=["GET", "OPTIONS"]),
    ]
