"""The memory explorer page at ``/explorer``: a small TypeScript app (``gql/explorer/``) over the
GraphQL API, bundled by ``scripts/bootstrap.sh`` with esbuild into ``<home>/explorer/``.

The page loads only its own bundle (``/explorer-assets/app.js`` and ``app.css``, each with a
subresource-integrity hash computed from the file served) and talks only to ``/graphql`` on the
same origin; its Content-Security-Policy forbids any other host, so nothing leaves the machine.
The host/origin guard (:mod:`server.origin`) wraps these routes like every other.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

__all__ = [
    "ASSETS_PATH",
    "CSP",
    "EXPLORER_PATH",
    "OptionalStaticFiles",
    "explorer_html",
    "explorer_routes",
]


class OptionalStaticFiles(StaticFiles):
    """Static files from a folder the bootstrap builds: while it is absent (a checkout that
    has not run it), every asset is a plain 404 instead of a server error."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.directory is None or not Path(self.directory).is_dir():
            await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


EXPLORER_PATH = "/explorer"
ASSETS_PATH = "/explorer-assets"
BUNDLE = ("app.js", "app.css")
# Same origin only; Cytoscape and the legend set inline styles, the graph draws on canvas.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
_MISSING = (
    "<p>The explorer bundle is missing under {dir}: run <code>scripts/bootstrap.sh</code> "
    "(it needs Node.js and npm).</p>"
)


def _integrity(path: Path) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(path.read_bytes()).digest()).decode()


def explorer_html(bundle_dir: Path) -> str:
    """The page's HTML: the bundle with integrity hashes, or a hint when it was never built."""
    if not all((bundle_dir / name).is_file() for name in BUNDLE):
        body = _MISSING.format(dir=bundle_dir)
        head = ""
    else:
        body = "<noscript>The explorer needs JavaScript.</noscript>"
        head = (
            f'<link rel="stylesheet" href="{ASSETS_PATH}/app.css" '
            f'integrity="{_integrity(bundle_dir / "app.css")}">\n'
            f'<script type="module" src="{ASSETS_PATH}/app.js" '
            f'integrity="{_integrity(bundle_dir / "app.js")}"></script>'
        )
    return (
        f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Hippograph explorer</title>\n{head}\n</head>\n<body>{body}</body>\n</html>\n"
    )


def explorer_routes(home: Path) -> list[BaseRoute]:
    """``/explorer`` (the page) and ``/explorer-assets`` (the bundle; may be absent)."""
    bundle_dir = home / "explorer"

    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse(
            explorer_html(bundle_dir),
            headers={
                "Content-Security-Policy": CSP,
                "Cache-Control": "no-cache",
                "Referrer-Policy": "no-referrer",
            },
        )

    return [
        Route(EXPLORER_PATH, page, methods=["GET"]),
        Mount(ASSETS_PATH, OptionalStaticFiles(directory=bundle_dir, check_dir=False)),
    ]
