"""The GraphiQL page loads nothing from a CDN: every asset strawberry's template names is pinned
(so bootstrap fetches it) and points at our own /graphiql-assets."""

from __future__ import annotations

import re

from strawberry.http.ides import get_graphql_ide_html

from gql.graphiql import ASSET_PACKAGES, ASSETS_PATH, cdn_packages, graphiql_html


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
