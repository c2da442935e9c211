"""The explorer page: the bundle with integrity hashes of the files served, a hint when the
bundle was never built, and a policy that forbids every other host."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from starlette.applications import Starlette
from starlette.testclient import TestClient

from server.explorer import CSP, explorer_html, explorer_routes
from server.origin import HostGuard


def test_page_pins_the_bundle_it_serves(tmp_path: Path) -> None:
    (tmp_path / "explorer").mkdir()
    (tmp_path / "explorer" / "app.js").write_text("console.log(1)")
    (tmp_path / "explorer" / "app.css").write_text("body{}")
    client = TestClient(Starlette(routes=explorer_routes(tmp_path)))
    page = client.get("/explorer")
    digest = base64.b64encode(hashlib.sha384(b"console.log(1)").digest()).decode()
    assert f'src="/explorer-assets/app.js" integrity="sha384-{digest}"' in page.text
    assert page.headers["content-security-policy"] == CSP
    assert client.get("/explorer-assets/app.js").text == "console.log(1)"


def test_missing_bundle_says_how_to_build_it(tmp_path: Path) -> None:
    html = explorer_html(tmp_path / "explorer")
    assert "scripts/bootstrap.sh" in html and "<script" not in html


def test_policy_allows_no_other_host() -> None:
    sources = [d.split()[1:] for d in CSP.split("; ")]
    assert all(
        s in ("'self'", "'none'", "'unsafe-inline'", "data:", "blob:")
        for srcs in sources
        for s in srcs
    )


def test_host_guard_covers_the_explorer(tmp_path: Path) -> None:
    app = Starlette(routes=explorer_routes(tmp_path))
    client = TestClient(HostGuard(app, listed=frozenset()), base_url="http://127.0.0.1")
    assert client.get("/explorer").status_code == 200
    assert client.get("/explorer", headers={"Host": "rebind.example"}).status_code == 403
    assert client.get("/explorer", headers={"Origin": "https://evil.example"}).status_code == 403
