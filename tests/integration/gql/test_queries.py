"""Every read query of the schema against a real Neo4j (schema.execute, no HTTP)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.memory.facade import Memory
from tests.integration.gql.support import gql

pytestmark = pytest.mark.neo4j

CLARA = "person:clara_rezende"


async def test_entity_with_facts_relationships_aliases_history(
    services: Memory, agent_id: str, story: dict[str, str]
) -> None:
    res = await gql(
        services,
        """
      query($a: ID!, $k: String!) { entity(agentId: $a, key: $k) {
        key name type aliases profile { text summary }
        facts { text active primary }
        relationships { type sourceKey targetKey targetName active }
        history { change text } } }""",
        {"a": agent_id, "k": CLARA},
    )
    assert res.errors is None
    e = res.data["entity"]
    assert e["name"] == "Clara Rezende" and e["type"] == "person"
    assert "Clarinha" in e["aliases"]
    assert {f["text"] for f in e["facts"]} >= {"Clara Rezende lives in Curitiba"}
    assert all(f["primary"] for f in e["facts"])
    assert {(r["type"], r["targetKey"]) for r in e["relationships"]} == {
        ("works_at", "organization:vertix"),
        ("lives_in", "city:curitiba"),
    }
    assert {"FACT_ADDED", "RELATIONSHIP_ADDED"} <= {h["change"] for h in e["history"]}


async def test_relationships_carry_both_ends_and_direction(
    services: Memory, agent_id: str, story: dict[str, str]
) -> None:
    # Vertix: Clara -[works_at]-> Vertix (incoming), Vertix -[based_in]-> Curitiba (outgoing).
    res = await gql(
        services,
        """
      query($a: ID!) { entity(agentId: $a, key: "organization:vertix") { relationships {
        type direction sourceKey sourceName targetKey targetName otherKey otherName } } }""",
        {"a": agent_id},
    )
    assert res.errors is None
    rels = {r["type"]: r for r in res.data["entity"]["relationships"]}
    assert set(rels) == {"works_at", "based_in"}
    assert rels["works_at"] == {
        "type": "works_at",
        "direction": "INCOMING",
        "sourceKey": CLARA,
        "sourceName": "Clara Rezende",
        "targetKey": "organization:vertix",
        "targetName": "Vertix",
        "otherKey": CLARA,
        "otherName": "Clara Rezende",
    }
    assert rels["based_in"] == {
        "type": "based_in",
        "direction": "OUTGOING",
        "sourceKey": "organization:vertix",
        "sourceName": "Vertix",
        "targetKey": "city:curitiba",
        "targetName": "Curitiba",
        "otherKey": "city:curitiba",
        "otherName": "Curitiba",
    }


async def test_missing_entity_is_null(services: Memory, agent_id: str) -> None:
    res = await gql(
        services,
        'query($a: ID!) { entity(agentId: $a, key: "person:nobody") { key } }',
        {"a": agent_id},
    )
    assert res.errors is None and res.data["entity"] is None


async def test_entities_filter_and_relay_pagination(
    services: Memory, agent_id: str, story: dict[str, str]
) -> None:
    q = """query($a: ID!, $after: String, $text: String, $type: String) {
      entities(agentId: $a, first: 2, after: $after, text: $text, type: $type) {
        totalCount pageInfo { hasNextPage endCursor } edges { node { key } } } }"""
    first = (await gql(services, q, {"a": agent_id})).data["entities"]
    assert first["totalCount"] == 3 and first["pageInfo"]["hasNextPage"] is True
    second = await gql(services, q, {"a": agent_id, "after": first["pageInfo"]["endCursor"]})
    page2 = second.data["entities"]
    keys = [e["node"]["key"] for e in first["edges"] + page2["edges"]]
    assert keys == sorted(keys) and len(set(keys)) == 3
    assert page2["pageInfo"]["hasNextPage"] is False
    by_alias = (await gql(services, q, {"a": agent_id, "text": "clarinha"})).data["entities"]
    assert [e["node"]["key"] for e in by_alias["edges"]] == [CLARA]
    by_type = (await gql(services, q, {"a": agent_id, "type": "city"})).data["entities"]
    assert [e["node"]["key"] for e in by_type["edges"]] == ["city:curitiba"]


async def test_bad_cursor_and_page_size_are_bad_input(services: Memory, agent_id: str) -> None:
    res = await gql(
        services,
        'query($a: ID!) { entities(agentId: $a, after: "zzz") { totalCount } }',
        {"a": agent_id},
    )
    assert res.errors[0].extensions["code"] == "BAD_INPUT"
    res = await gql(
        services,
        "query($a: ID!) { facts(agentId: $a, first: 1000) { edges { cursor } } }",
        {"a": agent_id},
    )
    assert res.errors[0].extensions["code"] == "BAD_INPUT"
    assert "between 1 and 100" in res.errors[0].message


async def test_facts_time_travel_and_history(
    services: Memory, agent_id: str, story: dict[str, str]
) -> None:
    q = """query($a: ID!, $asOf: DateTime, $k: String) {
      facts(agentId: $a, asOf: $asOf, entityKey: $k, first: 10) { edges { node { id text } } } }"""
    now = (await gql(services, q, {"a": agent_id, "k": CLARA})).data["facts"]["edges"]
    assert len(now) == 2
    past = datetime.now(UTC) - timedelta(days=1)
    before = await gql(services, q, {"a": agent_id, "asOf": past.isoformat()})
    assert before.data["facts"]["edges"] == []
    fid = now[0]["node"]["id"]
    hist = await gql(
        services,
        "query($a: ID!, $id: ID!) { factHistory(agentId: $a, id: $id) { id } }",
        {"a": agent_id, "id": fid},
    )
    assert [f["id"] for f in hist.data["factHistory"]] == [fid]
    missing = await gql(
        services, 'query($a: ID!) { factHistory(agentId: $a, id: "nope") { id } }', {"a": agent_id}
    )
    assert missing.errors[0].extensions["code"] == "NOT_FOUND"


async def test_neighborhood_nodes_and_edges(
    services: Memory, agent_id: str, story: dict[str, str]
) -> None:
    q = """query($a: ID!, $hops: Int!) { neighborhood(agentId: $a, key: "city:curitiba", hops: $hops) {
      center nodes { id label depth } edges { source target label } } }"""
    res = await gql(services, q, {"a": agent_id, "hops": 1})
    n = res.data["neighborhood"]
    assert n["nodes"][0] == {"id": "city:curitiba", "label": "Curitiba", "depth": 0}
    assert {x["id"] for x in n["nodes"]} == {"city:curitiba", CLARA, "organization:vertix"}
    assert ("organization:vertix", "city:curitiba", "based_in") in {
        (e["source"], e["target"], e["label"]) for e in n["edges"]
    }
    too_far = await gql(services, q, {"a": agent_id, "hops": 4})
    assert too_far.errors[0].extensions["code"] == "BAD_INPUT"


async def test_admin_lists_answer_empty_for_a_new_agent(services: Memory, agent_id: str) -> None:
    res = await gql(
        services,
        """query($a: ID!) {
      events(agentId: $a) { edges { node { id } } pageInfo { hasNextPage } }
      observations(agentId: $a) { id } mergeCandidates(agentId: $a) { id }
      auditLog(agentId: $a) { id } jobs(agentId: $a) { id }
      job(agentId: $a, id: "missing") { id } }""",
        {"a": agent_id},
    )
    assert res.errors is None
    assert res.data["events"]["edges"] == [] and res.data["job"] is None
