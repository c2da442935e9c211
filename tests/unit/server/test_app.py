"""The app's pages, without a database: GraphiQL at GET /graphql may not be framed."""

from __future__ import annotations

from starlette.testclient import TestClient

from server.app import create_app
from server.settings import Settings
from tests.unit.gql.test_limits import no_database


def test_graphiql_forbids_framing() -> None:
    app = create_app(Settings(auth_disabled=True, api_host="127.0.0.1"))
    app.state.memory = no_database()  # no lifespan: Neo4j is never reached
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    page = client.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "Hippograph GraphiQL" in page.text
    assert page.headers["content-security-policy"] == "frame-ancestors 'none'"
    assert page.headers["x-frame-options"] == "DENY"
