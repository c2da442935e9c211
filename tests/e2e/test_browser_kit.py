"""Every saved Neo4j Browser query returns rows on the seeded demo database, and the style
sheet captions what the guide promises."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import cypher
from graph.executor import connected
from server.settings import Settings

pytestmark = pytest.mark.e2e

BROWSER = Path(cypher.__file__).parent / "browser"
PARAMS: dict[str, Any] = {
    "agent_id": "demo",
    "fact_text": "Lisboa",
    "since": datetime(2025, 1, 1, tzinfo=UTC),
    "limit": 15,
}


def _run_all() -> dict[str, list[dict[str, Any]]]:
    settings = Settings()

    async def main() -> dict[str, list[dict[str, Any]]]:
        out = {}
        async with connected(settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret()) as ex:
            for name in cypher.names("browser"):
                out[name] = await ex.run(name, PARAMS, read=True)
        return out

    return asyncio.run(main())


def test_every_saved_query_returns_rows(demo_agent: str) -> None:
    results = _run_all()
    assert set(results) == {
        "browser/changes_since",
        "browser/entity_graph",
        "browser/fact_version_chain",
        "browser/invalidated_relationships",
        "browser/top_entities",
        "browser/types_in_use",
    }
    for name, rows in results.items():
        assert rows, f"{name} returned no rows on the demo agent"
    chain = [r["version"] for r in results["browser/fact_version_chain"]]
    assert any("Lisboa" in v for v in chain) and any("São Paulo" in v for v in chain)
    evidence = {r["evidence"] for r in results["browser/invalidated_relationships"]}
    assert "Helena Maturana lives in Porto" in evidence
    assert results["browser/top_entities"][0]["name"] == "Guilherme Maturana"
    in_use = {(r["kind"], r["type"]): r for r in results["browser/types_in_use"]}
    assert in_use[("relationship", "lives_in")]["ontology"] == "built-in"


def test_every_saved_query_has_the_header_and_is_documented() -> None:
    guide = (BROWSER / "README.md").read_text()
    for path in BROWSER.glob("*.cypher"):
        head = path.read_text().splitlines()[:3]
        assert all(line.startswith("//") for line in head), path.name
        assert head[1].startswith("// params:"), path.name
        assert path.name in guide, f"{path.name} missing from the guide"


def test_grass_captions() -> None:
    grass = (BROWSER / "hippograph.grass").read_text()
    for block, caption in (
        ("relationship.RELATES_TO", '"{type}"'),
        ("node.Fact", '"{text}"'),
        ("node.Entity", '"{name}"'),
    ):
        body = grass.split(block + " {", 1)[1].split("\n}", 1)[0]
        assert f"caption: {caption}" in body, block
