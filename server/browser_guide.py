"""A Neo4j Browser guide (``:play http://<api>/browser-guide``) served by our app.

Its slides carry the saved queries of ``cypher/browser/`` as clickable blocks, with the
parameters preset for the demo agent; ``/browser-guide/hippograph.grass`` is the style sheet
(``cypher/browser/hippograph.grass`` plus a rule per entity type label, each a fixed colour of
``TYPE_PALETTE``: the built-in types, and with an API key those of the key's tenant's
ontologies, ``server.browser_style``).
The local Neo4j's ``neo4j.conf`` allow-lists our host and, through ``browser.post_connect_cmd``
(``post_connect_cmd``), applies the style, sets the parameters and opens the guide right after
connecting. Browser fetches both with cross-origin requests, so they answer CORS (read-only;
without a key, public content only).
"""

from __future__ import annotations

import hashlib
import html
import logging
from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

import cypher
from graph.errors import GraphError
from graph.memory.ontology.builtin import BUILTIN
from graph.memory.ontology.labels import type_labels
from server.browser_style import StyleAccess, StyleLabels
from server.settings import Settings, get_settings

__all__ = [
    "DEMO_PARAMS",
    "GUIDE_PATH",
    "TYPE_PALETTE",
    "browser_guide_routes",
    "guide_html",
    "post_connect_cmd",
    "style_sheet",
    "type_colours",
]

log = logging.getLogger(__name__)

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
# (color, border-color) pairs for entity type labels, apart from the product's own colours; a
# type's pair is chosen by a hash of its label, so it is the same on every server and start.
TYPE_PALETTE: tuple[tuple[str, str], ...] = (
    ("#57C7E3", "#23B3D7"),
    ("#F16667", "#EB2728"),
    ("#6DCE9E", "#4AB784"),
    ("#FFD86E", "#EDBA39"),
    ("#68BDF6", "#3A9AE0"),
    ("#DE9BF9", "#BF85D6"),
    ("#FB95AF", "#E0809A"),
    ("#8DA0CB", "#6F84B8"),
    ("#FFAB6E", "#E8893C"),
    ("#7FD1B9", "#4FB89B"),
    ("#B39DDB", "#8E75C2"),
    ("#C5E17A", "#A2C24E"),
)
# What a slide says beside its saved query.
_NOTES = {
    "types_in_use": "<p>Colours follow the ontology's types: an entity whose type the ontology "
    "in force declares also carries the type as a label (<code>support_ticket</code> → "
    "<code>:SupportTicket</code>), and the Hippograph style gives each such label its own "
    "colour: the built-in types and those of the stored ontologies the request may see "
    "(every one while authentication is off, as <code>make run</code> serves; with an API key, "
    "its tenant's; docs/ontology.md, <em>Types as labels</em>). An entity of an "
    "undeclared type keeps the plain <code>Entity</code> colour.</p>",
}
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
                _NOTES.get(name, ""),
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


def type_colours(label: str) -> tuple[str, str]:
    """The (color, border-color) of an entity type label: fixed per name."""
    digest = hashlib.sha256(label.encode("utf-8")).digest()
    return TYPE_PALETTE[int.from_bytes(digest[:4], "big") % len(TYPE_PALETTE)]


def style_sheet(labels: dict[str, str]) -> str:
    """``hippograph.grass`` plus one rule per entity type label (``labels``: type → label), so
    Browser colours entities by the ontology's types; the rules come after ``node.Entity``."""
    rules = []
    for label in sorted(set(labels.values())):
        color, border = type_colours(label)
        rules.append(
            f"node.{label} {{\n  color: {color};\n  border-color: {border};\n"
            '  caption: "{name}";\n}\n'
        )
    return (BROWSER_DIR / "hippograph.grass").read_text() + "".join(rules)


def _style_endpoint(settings: Settings) -> Callable[[Request], Awaitable[Response]]:
    """The style sheet's endpoint: the labels of the scope the request's key gives
    (``server.browser_style``), cached per scope."""
    access, cache = StyleAccess(settings), StyleLabels()

    async def style(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers=_CORS)
        scope = await access.scope(request, _CORS)
        if isinstance(scope, Response):
            return scope
        memory = getattr(request.app.state, "memory", None)
        labels = type_labels(BUILTIN)
        if memory is not None:
            try:
                labels = await cache.get(memory.executor, scope)
            except GraphError as exc:  # Neo4j unreachable: the built-in types still get theirs
                log.warning("browser style: stored ontologies not read (%s)", exc)
        # A keyed answer names the tenant's types: no shared cache may keep or reuse it.
        private = {"Cache-Control": "private, no-cache"} if scope.reads else {}
        headers = {**_CORS, **private, "Vary": "Authorization, X-API-Key"}
        return PlainTextResponse(style_sheet(labels), headers=headers)

    return style


def browser_guide_routes(settings: Settings | None = None) -> list[Route]:
    """The guide and its style sheet (GET, plus the CORS pre-flight); ``settings`` (default: the
    process's) say how the style's keys are checked."""
    return [
        Route(GUIDE_PATH, _guide, methods=["GET", "OPTIONS"]),
        Route(STYLE_PATH, _style_endpoint(settings or get_settings()), methods=["GET", "OPTIONS"]),
    ]
